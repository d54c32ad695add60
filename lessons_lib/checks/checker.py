"""What every exercise checker shares: the blank detector and the checker runner. Lesson 03.

``run_checker`` turns any outcome of a learner's function into a
:class:`~lessons_lib.core.verdict.Verdict` drawn as a ``step``: a blank
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
from typing import Any, Final, TypeAlias, cast

from lessons_lib.checks.jsoncheck import Fail, show
from lessons_lib.core.messages import t
from lessons_lib.core.verdict import Verdict


def unfinished_word() -> str:
    """``还没有完成`` / ``Not finished yet``, in the current language (lesson 03)."""
    return t("exercises.base.unfinished")


def blank_text() -> str:
    """What a checker says of a starter blank left open, in the current language (lesson 03)."""
    return t("exercises.base.blank")


Learner: TypeAlias = "Callable[..., Any]"
"""A function the learner wrote: what it takes and returns is what the checker finds out."""


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


def step_verdict(title: str, passed: bool, message: str, hint: str = "", unfinished: bool = False) -> Verdict:
    """A step checker's verdict: one finding under the exercise's title (lessons 03-11)."""
    return Verdict(passed, (message,), hint, unfinished, title, "step")


def run_checker(title: str, hint: str, checker: Callable[[Learner], str], fn: object) -> Verdict:
    """Run one checker on a learner function; every outcome is a Verdict, never an exception."""
    if not callable(fn):
        return step_verdict(title, False, t("exercises.base.not_callable", got=show(fn)), hint)
    if has_blank(fn):
        return step_verdict(title, False, blank_text(), hint, True)
    try:
        return step_verdict(title, True, checker(cast(Learner, fn)))
    except Fail as wrong:
        return step_verdict(title, False, str(wrong), hint)
    except Exception as exc:  # the learner's code raised: say what and keep going
        detail = str(exc).splitlines()[0][:160] if str(exc) else ""
        return step_verdict(
            title, False, t("exercises.base.raised", name=type(exc).__name__, detail=detail), hint
        )
