"""The one verdict every exercise checker and grader of the course returns. Lesson 03.

A :class:`Verdict` says four things, each under one name: ``passed`` (it passed), ``lines``
(what the checker found, one line each), ``hint`` (where to look next; shown only with a verdict
that did not pass) and ``unfinished`` (a starter blank is still open). ``title`` names the
exercise where the drawing shows one. Graders return a subclass that adds the per-case record
(:class:`lessons_lib.workshop.loop.grading.GradeReport`).

Why several drawings (``layout``): the lessons' stored outputs, in both editions, were made when
five verdict types each drew themselves their own way, and stored outputs stay byte for byte. So
the one type keeps each of those drawings as a declared layout; a future refresh of the stored
outputs may merge them into one.

- ``"step"`` (lessons 03-11 step checkers): ``✓``/``✗``/``…`` title: the finding, then the hint,
  in a verdict box (an open blank is ``unchecked``);
- ``"findings"`` (lessons 21-22, 30-33, 40, 42-44, 50-52): a head word (passed, not finished
  yet, not right yet), then the lines and the hint as a list;
- ``"lines"`` (lessons 20, 41): the lines and the hint as plain text, no HTML;
- ``"cases"`` (the graders of lessons 11 and 12): the title, one mark per case
  (:meth:`Verdict.case_marks`), the marked finding and the hint, in a verdict box.

Standard library only.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Literal

from lessons_lib.core.display import Displayable
from lessons_lib.core.htmltable import verdict_box
from lessons_lib.core.messages import t

Layout = Literal["step", "findings", "lines", "cases"]
"""How a verdict draws itself: one of the forms the stored outputs hold (see the module's docstring)."""


@dataclass(frozen=True, repr=False)
class Verdict(Displayable):
    """A checker's or grader's verdict: passed, what it found, the hint, an open blank. Lesson 03."""

    passed: bool
    lines: tuple[str, ...] = ()
    """What the checker found, one line each (a line may itself hold a line break)."""
    hint: str = ""
    """Where to look next; shown only when the verdict did not pass."""
    unfinished: bool = False
    """A starter blank (``...``, ``None  # TODO``) is still open: nothing was checked."""
    title: str = ""
    """The exercise's name, in the layouts that show one (``step``, ``cases``)."""
    layout: Layout = "lines"

    def case_marks(self) -> tuple[tuple[bool, str], ...]:
        """(passed, title) of each case judged, for the ``cases`` layout; a plain verdict has none."""
        return ()

    def _hint(self) -> str:
        return self.hint if self.hint and not self.passed else ""

    def _head(self) -> str:
        """The ``findings`` layout's first line: passed, not finished yet or not right yet."""
        key = "passed" if self.passed else "todo" if self.unfinished else "wrong"
        return t(f"verdict.findings.{key}")

    def _body(self) -> list[str]:
        """The ``findings`` layout's list: the lines, then the hint."""
        hint = self._hint()
        return [*self.lines, *([t("verdict.findings.hint", hint=hint)] if hint else [])]

    def text(self) -> str:
        message, hint = "\n".join(self.lines), self._hint()
        if self.layout == "step":
            mark = "✓" if self.passed else "…" if self.unfinished else "✗"
            out = [t("verdict.step.line", mark=mark, title=self.title, message=message)]
            out += [t("verdict.step.hint", hint=hint)] if hint else []
        elif self.layout == "findings":
            out = [self._head(), *self._body()]
        elif self.layout == "cases":
            out = [self.title, *(f"  {'✓' if ok else '✗'} {title}" for ok, title in self.case_marks())]
            out.append(("✓ " if self.passed else "✗ ") + message)
            out += [t("verdict.cases.hint", hint=hint)] if hint else []
        else:
            out = [*self.lines, *([hint] if hint else [])]
        return "\n".join(out)

    def html(self) -> str | None:
        if self.layout == "findings":
            items = "".join(f"<li>{html.escape(line)}</li>" for line in self._body())
            return f"<p><b>{html.escape(self._head())}</b></p><ul>{items}</ul>"
        if self.layout == "step":
            return verdict_box(
                self.text(), "pass" if self.passed else "unchecked" if self.unfinished else "fail"
            )
        if self.layout == "cases":  # a grader's open blank is drawn as a failure, as it always was
            return verdict_box(self.text(), "pass" if self.passed else "fail")
        return None

    def repr_args(self) -> str:
        title = f", title={self.title!r}" if self.title else ""
        return f"passed={self.passed}, unfinished={self.unfinished}{title}"
