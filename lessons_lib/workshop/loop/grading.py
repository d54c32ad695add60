"""The grader of lesson 11: run a learner's application loop offline and name the first broken link.

Introduced in lesson 11. ``grade_loop(app_loop)`` runs the learner's function on a
:func:`lessons_lib.workshop.loop.kit.workbench` (a real ``openai`` client on the offline stand-in, real
MCP sessions on the services) for the example and every hidden case of ``grading_cases``
(``app_loop``: stage 2; ``app_loop_many``: stage 3, two services). Each run becomes a
:class:`~lessons_lib.workshop.loop.grading_traffic.RunRecord` of what the trusted side saw, and
:func:`~lessons_lib.workshop.loop.grading_judge.judge_run` finds its first broken link. The first
problem ends the grading. ``report_from`` does the same for records made elsewhere (a gradebook
worker); see GRADER_API.md.

``grading_files.grade_file(path, function=...)`` does the same for a ``.py`` file or the
``exercise`` cells of a notebook, and returns the same pure-data :class:`GradeReport` (the
course's one :class:`~lessons_lib.core.verdict.Verdict`, with the per-case record added).
"""

from __future__ import annotations

import linecache
import traceback
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Final, cast

from lessons_lib.checks.checker import Learner
from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.messages import t
from lessons_lib.core.verdict import Layout, Verdict
from lessons_lib.workshop.loop.grading_cases import Case, cases_for, link_name, where
from lessons_lib.workshop.loop.grading_judge import Problem, judge_run
from lessons_lib.workshop.loop.grading_traffic import RunRecord

__all__ = ["GradeInputError", "GradeReport", "MissingFunctionError", "grade_loop", "report_from", "run_local"]

DEFAULT_FUNCTION: Final = "app_loop"


class GradeInputError(ValueError):
    """The file cannot be graded (missing, not Python, no such function): one line says why."""


class MissingFunctionError(GradeInputError):
    """The file runs but defines no function of the graded name (the gradebook's ``no_function``)."""


@dataclass(frozen=True)
class CaseResult:
    """One run of the loop: which case, and whether it passed."""

    key: str
    title: str
    passed: bool


@dataclass(frozen=True, repr=False)
class GradeReport(Verdict):
    """The grader's verdict, plain data: a :class:`Verdict` plus the first broken link and the cases.

    ``lines`` holds the one finding (it may span lines), ``case`` the failing case, ``link`` the
    first broken link (``"unfinished"`` for an open blank), ``cases`` every case judged so far.
    """

    case: str | None = None
    link: str | None = None
    cases: tuple[CaseResult, ...] = field(default_factory=tuple)
    title: str = field(default_factory=lambda: t("grading.title"))
    layout: Layout = "cases"

    def case_marks(self) -> tuple[tuple[bool, str], ...]:
        return tuple((c.passed, c.title) for c in self.cases)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready, for a gradebook row: the keys GRADER_API.md documents, in this order."""
        return {
            "passed": self.passed,
            "message": "\n".join(self.lines),
            "case": self.case,
            "link": self.link,
            "hint": self.hint,
            "cases": [asdict(c) for c in self.cases],
            "title": self.title,
        }


def _fail(case: Case, problem: Problem, done: list[CaseResult]) -> GradeReport:
    name = link_name(problem.key)
    message = t("grading.fail.1", title=case.title, name=name, evidence=problem.evidence)
    if case.hint:
        message += t("grading.fail.2", hint=case.hint)
    results = (*done, CaseResult(case.key, case.title, False))
    return GradeReport(False, (message,), where(problem.key), case=case.key, link=problem.key, cases=results)


def crash_text(exc: BaseException, fn: Learner) -> str:
    """The exception in one line, with the learner's own line that raised it."""
    code = getattr(fn, "__code__", None)
    own = code.co_filename if code is not None else None
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == own]
    at = ""
    if frames:
        last = frames[-1]
        line = (last.line or linecache.getline(last.filename, last.lineno or 0)).strip()
        at = t("grading.crash_text.1", line=line) if line else ""
    detail = str(exc).splitlines()[0] if str(exc) else ""
    return (
        t("grading.crash_text.2", exc_type=type(exc).__name__)
        + (t("grading.crash_text.3", detail=detail[:160]) if detail else "")
        + at
    )


def run_local(fn: Learner, case: Case) -> RunRecord:
    """Run the learner's loop once in this process; the record holds what the bench's transports saw."""
    from lessons_lib.workshop.loop.kit import workbench

    with workbench(case.task, **case.bench_options()) as bench:
        answer, raised = None, None
        try:
            answer = case.call(fn, bench)
        except Exception as exc:  # the learner's code: report it, never let it escape
            raised = crash_text(exc, fn)
        events = tuple(cast(JSONObject, dict(e)) for e in bench.trace.events)
        return RunRecord(events, bench.runaway, answer, raised)


def report_from(function: str, pairs: Iterable[tuple[Case, RunRecord]]) -> GradeReport:
    """The report for records made elsewhere (a gradebook worker), pulled one case at a time.

    Stops at the first problem (the next pair is not pulled). ``function`` names the graded loop.
    """
    done: list[CaseResult] = []
    for case, record in pairs:
        problem = judge_run(case, record)
        if problem is not None:
            return _fail(case, problem, done)
        done.append(CaseResult(case.key, case.title, True))
    if not done:
        return GradeReport(False, (t("grading.report_from.1", function=function),), link="crashed")
    hidden = sum(1 for c in done if c.key != "example")
    return GradeReport(True, (t("grading.passed", n=len(done), m=hidden),), cases=tuple(done))


def grade_loop(fn: object, cases: str | tuple[Case, ...] = "app_loop") -> GradeReport:
    """Grade a learner's loop on every hidden case: ``app_loop`` (stage 2) or ``app_loop_many``. Lesson 11."""
    if not callable(fn):
        return GradeReport(False, (t("grading.grade_loop.1", got=type(fn).__name__),), link="crashed")
    from lessons_lib.checks.checker import blank_text, has_blank

    if has_blank(fn):
        return GradeReport(False, (blank_text(),), where("unfinished"), True, link="unfinished")
    chosen = cases_for(cases) if isinstance(cases, str) else cases
    learner = cast(Learner, fn)
    name = cases if isinstance(cases, str) else DEFAULT_FUNCTION
    return report_from(name, ((case, run_local(learner, case)) for case in chosen))
