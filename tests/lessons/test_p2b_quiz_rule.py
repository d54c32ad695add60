"""The quiz rule of issue 38, point 8, for lessons 40-52 (helper p2b): in each lesson the right
option is the longest in at most a third of its questions, no length strategy (longest, shortest,
middle) finds every right option, the right positions vary, and no sequence of right positions is
shared by more than two lessons of the bank. Lesson 50 failed the second (the shortest was always
right) and lessons 50 and 51 the last (B, C, A, as lessons 00 and 11)."""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from importlib import resources
from typing import Any

import pytest

LESSONS = ("40", "41", "42", "43", "44", "50", "51", "52")


def _lesson(number: str) -> list[dict[str, Any]]:
    entry = resources.files("lessons_lib.course") / "quiz_bank" / f"lesson_{number}.json"
    return json.loads(entry.read_text(encoding="utf-8"))


def _all_sequences() -> Counter[str]:
    folder = resources.files("lessons_lib.course") / "quiz_bank"
    found: Counter[str] = Counter()
    for entry in folder.iterdir():
        if entry.name.startswith("lesson_") and entry.name.endswith(".json"):
            found["".join(q["answer"] for q in json.loads(entry.read_text(encoding="utf-8")))] += 1
    return found


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _hits(q: dict[str, Any]) -> dict[str, bool]:
    widths = sorted(_width(text) for text in q["choices"].values())
    right = _width(q["choices"][q["answer"]])
    return {
        "longest": right == widths[-1],
        "shortest": right == widths[0],
        "middle": right == widths[len(widths) // 2],
    }


@pytest.mark.parametrize("lesson", LESSONS)
def test_no_length_strategy_gets_a_lesson_right(lesson: str) -> None:
    quiz = _lesson(lesson)
    hits = [_hits(q) for q in quiz]
    assert sum(h["longest"] for h in hits) <= len(quiz) / 3, "the longest option is right too often"
    for strategy in ("longest", "shortest", "middle"):
        assert not all(h[strategy] for h in hits), f"always the {strategy} option is right in {lesson}"


@pytest.mark.parametrize("lesson", LESSONS)
def test_right_positions_vary_and_are_not_a_shared_sequence(lesson: str) -> None:
    answers = "".join(q["answer"] for q in _lesson(lesson))
    assert len(set(answers)) > 1, answers
    assert _all_sequences()[answers] <= 2, f"{answers} is the sequence of more than two lessons"
