"""Lesson 09's quiz follows the quiz rule (issue 38 point 8) in both languages: the right option is
the longest in at most one of three questions, no length strategy gets all right, positions vary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

BANK = Path(__file__).resolve().parents[2] / "lessons_lib" / "course" / "quiz_bank"


@pytest.mark.parametrize("folder", ["", "en"])
def test_lesson_09_quiz_has_no_winning_strategy(folder: str) -> None:
    questions = json.loads((BANK / folder / "lesson_09.json").read_text(encoding="utf-8"))
    answers = [q["answer"] for q in questions]
    assert answers != ["A", "C", "C"] and len(set(answers)) > 1
    ranked = [sorted(q["choices"], key=lambda k: len(q["choices"][k])) for q in questions]
    picks = {
        "shortest": [r[0] for r in ranked],
        "middle": [r[1] for r in ranked],
        "longest": [r[-1] for r in ranked],
    }
    for name, chosen in picks.items():
        assert chosen != answers, f"always the {name} option wins"
    assert sum(p == a for p, a in zip(picks["longest"], answers, strict=True)) <= len(questions) // 3
