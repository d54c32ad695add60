"""What every exercise checker shares: the verdict object and the blank detector. Lesson 03.

``run_checker`` turns any outcome of a learner's function into a :class:`StepResult`: a blank
left in the starter code (``...`` or ``# TODO``) is "还没有完成" plus a hint; a wrong answer is
the checker's reason; an exception the learner's code raised is named in one line. It never
raises, so a notebook as the learner first gets it runs from top to bottom under strict nbval.
"""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeAlias, cast

from lessons_lib.checks.jsoncheck import Fail, show
from lessons_lib.core.display import Displayable
from lessons_lib.core.htmltable import verdict_box
from lessons_lib.core.messages import t


def unfinished_word() -> str:
    """``还没有完成`` / ``Not finished yet``, in the current language (lesson 03)."""
    return t("exercises.base.unfinished")


def blank_text() -> str:
    """What a checker says of a starter blank left open, in the current language (lesson 03)."""
    return t("exercises.base.blank")


Learner: TypeAlias = "Callable[..., Any]"
"""A function the learner wrote: what it takes and returns is what the checker finds out."""


@dataclass(frozen=True, repr=False)
class StepResult(Displayable):
    """A checker's verdict: passed, what it found, and a hint for the next try. Lesson 03."""

    title: str
    passed: bool
    message: str
    hint: str = ""
    unfinished: bool = False

    def text(self) -> str:
        mark = "✓" if self.passed else "…" if self.unfinished else "✗"
        lines = [t("exercises.base.line", mark=mark, title=self.title, message=self.message)]
        hint = t("exercises.base.hint", hint=self.hint)
        return "\n".join([*lines, hint] if self.hint and not self.passed else lines)

    __str__ = text

    def html(self) -> str:
        return verdict_box(self.text(), "pass" if self.passed else "unchecked" if self.unfinished else "fail")

    def summary(self) -> str:
        state = "passed" if self.passed else "unfinished" if self.unfinished else "failed"
        return f"{self.title!r}, {state}"


_NONE_TODO: Final = re.compile(r"\bNone\s*#\s*TODO\b")


def has_blank(fn: object) -> bool:
    """True when the function still holds a starter blank: a bare ``...`` or ``None  # TODO``.

    A ``...`` inside a subscript (``Callable[..., str]``) is a type, not a blank; a ``# TODO``
    comment left next to code the learner filled in is not a blank either.
    """
    try:
        source = textwrap.dedent(inspect.getsource(fn))  # type: ignore[arg-type]
    except (OSError, TypeError):
        return False
    if _NONE_TODO.search(source):
        return True
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    in_types = {id(n) for s in ast.walk(tree) if isinstance(s, ast.Subscript) for n in ast.walk(s.slice)}
    return any(
        isinstance(n, ast.Constant) and n.value is Ellipsis and id(n) not in in_types for n in ast.walk(tree)
    )


def run_checker(title: str, hint: str, checker: Callable[[Learner], str], fn: object) -> StepResult:
    """Run one checker on a learner function; every outcome is a StepResult, never an exception."""
    if not callable(fn):
        return StepResult(title, False, t("exercises.base.not_callable", got=show(fn)), hint)
    if has_blank(fn):
        return StepResult(title, False, blank_text(), hint, True)
    try:
        return StepResult(title, True, checker(cast(Learner, fn)))
    except Fail as wrong:
        return StepResult(title, False, str(wrong), hint)
    except Exception as exc:  # the learner's code raised: say what and keep going
        detail = str(exc).splitlines()[0][:160] if str(exc) else ""
        return StepResult(
            title, False, t("exercises.base.raised", name=type(exc).__name__, detail=detail), hint
        )
