"""The whole check-yourself bank: every question is well formed, and neither the length nor the
position of the right option gives it away (issue 13, point 11; issue 25, point 5: no fixed
strategy finds the right option in more than 40% of the whole bank; issue 38, point 8: not above
35%, no length strategy right on every question of one lesson, no sequence of right positions in
more than two lessons). The length rules hold in both languages, and in each lesson the longest
option is right in at most a third of its questions."""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from importlib import resources
from typing import Any

import pytest

from lessons_lib.course.quiz import check


def _bank(language: str = "zh") -> list[dict[str, Any]]:
    folder = resources.files("lessons_lib.course") / "quiz_bank"
    if language == "en":
        folder = folder / "en"
    items: list[dict[str, Any]] = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            lesson = entry.name.removeprefix("lesson_").removesuffix(".json")
            for q in json.loads(entry.read_text(encoding="utf-8")):
                assert q["id"].split(".")[0] == lesson, f"{q['id']} is in {entry.name}"
                items.append(q)
    return items


BANK = _bank()
BANKS = {"zh": BANK, "en": _bank("en")}
"""Both languages: the English wording has other lengths, so its options are checked on their own."""


def _width(text: str) -> int:
    """What a reader sees as length: a wide (CJK) character counts twice."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def test_the_bank_covers_every_lesson_with_two_or_three_questions() -> None:
    per_lesson = Counter(q["id"].split(".")[0] for q in BANK)
    assert len(BANK) >= 32 and all(2 <= n <= 3 for n in per_lesson.values()), per_lesson


@pytest.mark.parametrize("q", BANK, ids=[q["id"] for q in BANK])
def test_each_question_explains_every_wrong_choice(q: dict[str, Any]) -> None:
    assert len(q["choices"]) >= 3 and q["answer"] in q["choices"]
    assert set(q["wrong"]) == set(q["choices"]) - {q["answer"]}
    assert len(set(q["choices"].values())) == len(q["choices"]), "two choices read the same"
    assert check(q["id"], q["answer"]).correct
    for letter in q["wrong"]:
        assert not check(q["id"], letter).correct


def _by_width(q: dict[str, Any]) -> list[int]:
    return sorted(_width(text) for text in q["choices"].values())


def _longest(q: dict[str, Any]) -> bool:
    return _width(q["choices"][q["answer"]]) == _by_width(q)[-1]


def _shortest(q: dict[str, Any]) -> bool:
    return _width(q["choices"][q["answer"]]) == _by_width(q)[0]


def _middle(q: dict[str, Any]) -> bool:
    widths = _by_width(q)
    return _width(q["choices"][q["answer"]]) == widths[len(widths) // 2]


def _unused_position(bank: list[dict[str, Any]], pick: int) -> list[bool]:
    """A learner who assumes each lesson uses every position once: per question, the first
    (pick=0) or last (pick=-1) letter not yet right earlier in the same lesson."""
    hits, used, lesson = [], set(), ""
    for q in bank:
        if q["id"].split(".")[0] != lesson:
            used, lesson = set(), q["id"].split(".")[0]
        free = [k for k in sorted(q["choices"]) if k not in used] or sorted(q["choices"])
        hits.append(free[pick] == q["answer"])
        used.add(q["answer"])
    return hits


def _strategies(bank: list[dict[str, Any]]) -> dict[str, list[bool]]:
    """For each fixed strategy, whether it finds the right option of each question.
    A tie counts as a hit: a learner who picks "the longest" may pick either of two equal ones."""
    return {
        "always the longest": [_longest(q) for q in bank],
        "always the shortest": [_shortest(q) for q in bank],
        "always the middle length": [_middle(q) for q in bank],
        **{f"always {k}": [q["answer"] == k for q in bank] for k in "ABCD"},
        "first position not yet used in the lesson": _unused_position(bank, 0),
        "last position not yet used in the lesson": _unused_position(bank, -1),
    }


STRATEGIES = _strategies(BANK)


@pytest.mark.parametrize("language", BANKS)
@pytest.mark.parametrize("name", STRATEGIES)
def test_no_fixed_strategy_scores_above_35_percent_of_the_whole_bank(name: str, language: str) -> None:
    bank = BANKS[language]
    hits = _strategies(bank)[name]
    assert sum(hits) <= 0.35 * len(bank), f"{language}: {name!r} is right in {sum(hits)}/{len(bank)}"


def _lessons(bank: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    by_lesson: dict[str, list[dict[str, Any]]] = {}
    for q in bank:
        by_lesson.setdefault(q["id"].split(".")[0], []).append(q)
    return by_lesson


LENGTH_STRATEGIES = {
    "always the longest": _longest,
    "always the shortest": _shortest,
    "always the middle length": _middle,
}


def lesson_length_giveaways(bank: list[dict[str, Any]]) -> list[str]:
    """Each lesson in which one length strategy finds the right option of every question."""
    return [
        f"lesson {lesson}: {name!r} is right in all {len(qs)} questions"
        for lesson, qs in _lessons(bank).items()
        for name, rule in LENGTH_STRATEGIES.items()
        if all(rule(q) for q in qs)
    ]


def lesson_patterns(bank: list[dict[str, Any]]) -> list[str]:
    """Each lesson whose right option is the longest in more than a third of its questions, or whose
    right options all stand in one position."""
    problems = []
    for lesson, qs in _lessons(bank).items():
        longest = sum(_longest(q) for q in qs)
        if longest > len(qs) / 3:
            problems.append(f"lesson {lesson}: the longest option is right in {longest} of {len(qs)}")
        if len({q["answer"] for q in qs}) == 1:
            problems.append(f"lesson {lesson}: every right option is {qs[0]['answer']}")
    return problems


def repeated_sequences(bank: list[dict[str, Any]]) -> list[str]:
    """Each sequence of right positions (as "B, C, A") shared by more than two lessons."""
    seen: dict[str, list[str]] = {}
    for lesson, qs in _lessons(bank).items():
        seen.setdefault(", ".join(q["answer"] for q in qs), []).append(lesson)
    return [f"{seq} in lessons {', '.join(ls)}" for seq, ls in seen.items() if len(ls) > 2]


@pytest.mark.parametrize("language", BANKS)
def test_no_length_strategy_gets_a_whole_lesson_right(language: str) -> None:
    problems = lesson_length_giveaways(BANKS[language])
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", BANKS)
def test_in_each_lesson_the_longest_is_right_at_most_a_third_and_positions_vary(language: str) -> None:
    problems = lesson_patterns(BANKS[language])
    assert not problems, "\n".join(problems)


def test_no_sequence_of_right_positions_repeats_in_more_than_two_lessons() -> None:
    problems = repeated_sequences(BANK)
    assert not problems, "\n".join(problems)


def test_the_lesson_checks_catch_a_patterned_lesson() -> None:
    """Three lessons answering B, C, A, and a lesson whose right option is always the longest."""
    q = {"choices": {"A": "短", "B": "中等长", "C": "最长的一个选项"}, "why": "", "wrong": {}}
    rigged = [dict(q, id=f"{n}.{i}", answer=a) for n in ("70", "71", "72") for i, a in enumerate("BCA", 1)]
    assert repeated_sequences(rigged) == ["B, C, A in lessons 70, 71, 72"]
    assert repeated_sequences(rigged[:6]) == []
    longest = [dict(q, id=f"73.{i}", answer="C") for i in (1, 2)]
    assert lesson_length_giveaways(longest) == ["lesson 73: 'always the longest' is right in all 2 questions"]
    assert lesson_patterns(longest) == [
        "lesson 73: the longest option is right in 2 of 2",
        "lesson 73: every right option is C",
    ]
    one_longest = [dict(q, id=f"74.{i}", answer=a) for i, a in enumerate("CAB", 1)]
    assert lesson_patterns(one_longest) == []
    assert lesson_patterns(one_longest[:2]) == ["lesson 74: the longest option is right in 1 of 2"]


def test_the_strategy_measure_catches_a_patterned_bank() -> None:
    """The old pattern (lessons running A, B, C; right option the middle length) is caught."""
    rigged = []
    for q in BANK:
        letter = "ABC"[int(q["id"].split(".")[1]) - 1]
        others = [k for k in sorted(q["choices"]) if k != letter]
        texts = {letter: "选项" * 5, others[0]: "选项" * 3, **{k: "选项" * 8 for k in others[1:]}}
        rigged.append(dict(q, answer=letter, choices=texts))
    scores = _strategies(rigged)
    for name in ("always the middle length", "first position not yet used in the lesson"):
        assert sum(scores[name]) > 0.4 * len(rigged), name


PART_TWO = [q for q in BANK if q["id"] >= "20"]


@pytest.mark.parametrize("q", PART_TWO, ids=[q["id"] for q in PART_TWO])
def test_part_two_options_have_similar_lengths(q: dict[str, Any]) -> None:
    """No option stands out by length (lessons 20-44 were rewritten for this, issue 25)."""
    widths = _by_width(q)
    assert widths[0] >= 0.7 * widths[-1], f"{q['id']}: widths {widths}"


def test_an_answer_explains_every_option() -> None:
    """After answering, the checker shows why each option is right or wrong."""
    q = PART_TWO[0]
    wrong = next(iter(q["wrong"]))
    message = check(q["id"], wrong).message
    assert f"正确的是 {q['answer']}" in message
    for letter in q["choices"]:
        reason = q["why"] if letter == q["answer"] else q["wrong"][letter]
        assert f"{letter} {'✓' if letter == q['answer'] else '✗'} {reason}" in message
