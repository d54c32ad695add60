"""The whole check-yourself bank: every question is well formed, and neither the length nor the
position of the right option gives it away (issue 13, point 11)."""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from importlib import resources
from typing import Any

import pytest

from lessons_lib.course.quiz import check


def _bank() -> list[dict[str, Any]]:
    folder = resources.files("lessons_lib.course") / "quiz_bank"
    items: list[dict[str, Any]] = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            lesson = entry.name.removeprefix("lesson_").removesuffix(".json")
            for q in json.loads(entry.read_text(encoding="utf-8")):
                assert q["id"].split(".")[0] == lesson, f"{q['id']} is in {entry.name}"
                items.append(q)
    return items


BANK = _bank()


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


def test_the_right_option_is_not_the_longest_in_most_questions() -> None:
    longest = [
        q["id"] for q in BANK if max(q["choices"], key=lambda k: _width(q["choices"][k])) == q["answer"]
    ]
    assert len(longest) <= 0.4 * len(BANK), f"right option longest in {len(longest)}/{len(BANK)}"


def test_the_right_option_is_not_the_shortest_in_most_questions() -> None:
    shortest = [
        q["id"] for q in BANK if min(q["choices"], key=lambda k: _width(q["choices"][k])) == q["answer"]
    ]
    assert len(shortest) <= 0.5 * len(BANK), f"right option shortest in {len(shortest)}/{len(BANK)}"


def test_the_right_option_sits_at_no_single_position_in_most_questions() -> None:
    positions = Counter(q["answer"] for q in BANK)
    letter, count = positions.most_common(1)[0]
    assert count <= 0.5 * len(BANK), f"{letter} is right in {count}/{len(BANK)}"
