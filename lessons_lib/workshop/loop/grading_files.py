"""Grading a learner's file: a ``.py`` file or a notebook's tagged cells. Introduced in lesson 11.

``grade_file(path, function=...)`` loads the function and grades it: a step's name (for
example ``route_call``) runs that step's checker, anything else the whole-loop grader. It
returns a pure-data :class:`~lessons_lib.workshop.loop.grading.GradeReport`, so a gradebook can run one
process per submission; a file that cannot be graded raises
:class:`~lessons_lib.workshop.loop.grading.GradeInputError` with one line that says why.
"""

from __future__ import annotations

import linecache
from pathlib import Path
from typing import Any, cast

from lessons_lib.checks.checker import Learner
from lessons_lib.core.messages import t
from lessons_lib.workshop.loop.early import EARLY_NAMES, check_exercise
from lessons_lib.workshop.loop.grading import (
    DEFAULT_FUNCTION,
    GradeInputError,
    GradeReport,
    MissingFunctionError,
    grade_loop,
)
from lessons_lib.workshop.loop.steps import STEP_NAMES, check_step


def load_function(path: str | Path, function: str = DEFAULT_FUNCTION, cells: str = "exercise") -> Learner:
    """The named function from a ``.py`` file or a notebook's cells with this tag; GradeInputError if not."""
    p = Path(path)
    if not p.is_file():
        raise GradeInputError(t("grading_files.load_function.1", p=p))
    if p.suffix not in (".py", ".ipynb"):
        raise GradeInputError(t("graders.grade.not_python", name=p.name))
    try:
        source = _notebook_source(p, cells) if p.suffix == ".ipynb" else p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise GradeInputError(t("grading_files.load_function.3", name=p.name, exc=exc)) from None
    try:
        code = compile(source, str(p), "exec")
    except SyntaxError as exc:
        raise GradeInputError(
            t("grading_files.load_function.4", name=p.name, lineno=exc.lineno, msg=exc.msg)
        ) from None
    if p.suffix == ".ipynb":  # so a traceback shows the learner's line, not the notebook's JSON
        linecache.cache[str(p)] = (len(source), None, source.splitlines(True), str(p))
    namespace: dict[str, object] = {"__name__": "submission", "__file__": str(p)}
    try:
        exec(code, namespace)  # the learner's own file, run as a teacher would run it
    except Exception as exc:
        raise GradeInputError(
            t("grading_files.load_function.5", name=p.name, type_name=type(exc).__name__, exc=exc)
        ) from None
    found = namespace.get(function)
    if not callable(found):
        defined = sorted(
            k for k, v in namespace.items() if callable(v) and getattr(v, "__module__", "") == "submission"
        )
        raise MissingFunctionError(
            t(
                "grading_files.load_function.2",
                name=p.name,
                function=function,
                value=", ".join(defined) or t("grading_files.none"),
            )
        )
    return cast(Learner, found)


def _notebook_source(p: Path, tag: str) -> str:
    """The code of the cells with this tag (``exercise``: what the learner wrote, not the solutions)."""
    from lessons_lib.core.bounds import load_json_file

    nb: Any = load_json_file(p)  # bounded: size, depth, a regular file
    found = nb.get("cells") if isinstance(nb, dict) else None
    cells = [
        "".join(c.get("source", []))
        for c in (found if isinstance(found, list) else [])
        if isinstance(c, dict)
        and c.get("cell_type") == "code"
        and tag in c.get("metadata", {}).get("tags", [])
    ]
    if not cells:
        raise ValueError(t("grading_files.notebook_source.1", tag=tag))
    return "\n\n".join(cells) + "\n"


def grade_file(path: str | Path, function: str = DEFAULT_FUNCTION, cells: str = "exercise") -> GradeReport:
    """Load ``function`` from the file and grade it: a step checker for a step name, else the loop.

    The small exercises of lessons 03, 06 and 07 are graded by name too (``mcp_request``,
    ``find_ids``, ``break_chain``).

    ``cells`` is the tag of the notebook cells to run (``exercise``, or ``solution`` for the reference).
    """
    return grade_function(load_function(path, function, cells), function)


def grade_function(fn: Learner, function: str = DEFAULT_FUNCTION) -> GradeReport:
    """Grade an already loaded function by its exercise's name (the gradebook's seam). Lesson 11."""
    from lessons_lib.workshop.loop.grading_cases import FUNCTION_CASES

    step = STEP_NAMES.get(function)
    lesson = EARLY_NAMES.get(function)
    if function not in FUNCTION_CASES and (lesson is not None or step is not None):  # a step, not a loop
        result = check_exercise(lesson, fn) if lesson is not None else check_step(step or 0, fn)
        return GradeReport(
            result.passed,
            result.lines,
            result.hint,
            result.unfinished,
            result.title,
            link=None if result.passed else function,
        )
    return grade_loop(fn, function if function in FUNCTION_CASES else DEFAULT_FUNCTION)
