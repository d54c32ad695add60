"""Check-yourself questions (自测) with an offline checker that explains every option once answered.

Introduced in lesson 00. Each lesson's questions live in ``quiz_bank/lesson_NN.json``, their English
in ``quiz_bank/en/lesson_NN.json`` (the same ids, answers and keys; ``tests/lessons/test_quiz_parity.py``)::

    [{"id": "01.1", "prompt": "...", "choices": {"A": "...", "B": "...", "C": "..."},
      "answer": "B", "why": "why B is right", "wrong": {"A": "why A is wrong", "C": "..."}}]

In a notebook: ``questions(1)`` shows them; ``check("01.1", "B")`` answers one. The bank and the
checker's words follow the notebook's language (``lessons_lib.core.messages``); a lesson without an
English bank yet shows its Chinese one (``python -m lessons_lib edition en status`` lists them).
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

from lessons_lib.core.display import Displayable
from lessons_lib.core.htmltable import verdict_box
from lessons_lib.core.messages import Language, language, t


@dataclass(frozen=True)
class Question:
    """One multiple-choice question with an explanation for every choice."""

    id: str
    prompt: str
    choices: dict[str, str]
    answer: str
    why: str
    wrong: dict[str, str]


def bank_file(lesson: int, lang: Language) -> Traversable:
    """Where a lesson's questions are kept in ``lang`` (the file may not exist yet)."""
    folder = resources.files("lessons_lib.course") / "quiz_bank"
    return (folder / "en" if lang == "en" else folder) / f"lesson_{lesson:02d}.json"


def _bank(lesson: int) -> tuple[Question, ...]:
    return _bank_in(lesson, language())


@cache
def _bank_in(lesson: int, lang: Language) -> tuple[Question, ...]:
    name = f"lesson_{lesson:02d}.json"
    path = bank_file(lesson, lang)
    if lang != "zh" and not path.is_file():  # not translated yet: the Chinese bank
        path = bank_file(lesson, "zh")
    if not path.is_file():
        raise ValueError(f"no questions for lesson {lesson:02d} (looked for quiz_bank/{name})")
    return tuple(Question(**q) for q in json.loads(path.read_text(encoding="utf-8")))


def _find(question_id: str) -> Question:
    try:
        lesson = int(question_id.split(".")[0])
        return next(q for q in _bank(lesson) if q.id == question_id)
    except (ValueError, StopIteration):
        raise ValueError(f"unknown question {question_id!r}; ids look like '01.1'") from None


@dataclass(frozen=True, repr=False)
class QuestionList(Displayable):
    """The questions of one lesson, for display."""

    lesson: int
    items: tuple[Question, ...]

    def text(self) -> str:
        lines = []
        for q in self.items:
            lines.append(f"[{q.id}] {q.prompt}")
            lines += [f"    {k}. {v}" for k, v in sorted(q.choices.items())]
        lines.append(t("quiz.how_to", example=self.items[0].id))
        return "\n".join(lines)

    def html(self) -> str:
        parts = ['<div class="lessons-quiz">']
        for q in self.items:
            choices = "".join(
                f"<li><b>{html.escape(k)}.</b> {html.escape(v)}</li>" for k, v in sorted(q.choices.items())
            )
            parts.append(f"<p><b>[{html.escape(q.id)}]</b> {html.escape(q.prompt)}</p><ul>{choices}</ul>")
        code = f"<code>check(&quot;{html.escape(self.items[0].id)}&quot;, &quot;A&quot;)</code>"
        parts.append(f"<p>{t('quiz.how_to_html', code=code)}</p></div>")
        return "".join(parts)

    def repr_args(self) -> str:
        return f"lesson={self.lesson}, questions={[q.id for q in self.items]}"


@dataclass(frozen=True, repr=False)
class Feedback(Displayable):
    """The checker's verdict on one answer."""

    question: str
    given: str | None
    correct: bool
    message: str

    def text(self) -> str:
        return self.message

    def html(self) -> str:
        # not answered yet is an open question, not a wrong answer
        return verdict_box(
            self.message, "pass" if self.correct else "unchecked" if self.given is None else "fail"
        )

    def repr_args(self) -> str:
        return f"{self.question!r}, given={self.given!r}, correct={self.correct}"


def questions(lesson: int) -> QuestionList:
    """The check-yourself questions of a lesson (e.g. ``questions(1)``)."""
    return QuestionList(lesson, _bank(lesson))


def check(question_id: str, answer: str | None) -> Feedback:
    """Check one answer offline; a wrong answer gets the reason it is wrong."""
    q = _find(question_id)
    letters = "/".join(sorted(q.choices))
    if answer is None or not str(answer).strip():
        return Feedback(q.id, None, False, t("quiz.unanswered", id=q.id, letters=letters))
    given = str(answer).strip().upper()
    if given not in q.choices:
        return Feedback(q.id, given, False, t("quiz.no_option", id=q.id, given=given, letters=letters))
    if given == q.answer:
        verdict = t("quiz.right", id=q.id, given=given)
    else:
        verdict = t("quiz.wrong", id=q.id, given=given, answer=q.answer)
    return Feedback(q.id, given, given == q.answer, verdict + "\n" + _every_option(q))


def _every_option(q: Question) -> str:
    """After an answer, every option with the reason it is right or wrong."""
    lines = [t("quiz.every_option")]
    for letter in sorted(q.choices):
        mark, reason = ("✓", q.why) if letter == q.answer else ("✗", q.wrong.get(letter, ""))
        lines.append(f"  {letter} {mark} {reason}")
    return "\n".join(lines)
