"""The grader of lesson 11: run a learner's application loop offline and name the first broken link.

Introduced in lesson 11. ``grade_loop(app_loop)`` runs the learner's function
``app_loop(task, model, fs, max_rounds)`` on a :func:`lessons_lib.engine.kit.workbench` (a real
``openai`` client on the offline stand-in, a real MCP session on the file service) for the
example and for every variation in ``grading_cases.CASES``. Each run is recorded as a
``lessons_lib.trace/1`` trace and judged, in this order: the grader's own frame checks, the
chain doctor (``diagnose``), then ``verify_roundtrip``. The first problem ends the grading.

``grading_files.grade_file(path, function=...)`` does the same for a ``.py`` file or the
``exercise`` cells of a notebook, and returns the same pure-data :class:`GradeReport`.
"""

from __future__ import annotations

import linecache
import traceback
from dataclasses import asdict, dataclass, field
from typing import Final, cast

from lessons_lib.core.display import Displayable
from lessons_lib.core.htmltable import verdict_box
from lessons_lib.core.trace import Trace
from lessons_lib.course.exercises_base import Learner
from lessons_lib.course.grading_cases import (
    CASES,
    MAX_ROUNDS,
    WHERE,
    Broken,
    Case,
    check_every_call_sent,
    check_frames,
    check_stop,
)

DEFAULT_FUNCTION: Final = "app_loop"
PASS_TEXT: Final = "通过：你的应用循环在示例和全部 {n} 个没见过的情形里都走通了整条链路。"


FIRST_ITEM: Final = (
    "：你把一个 message 项（模型的文字）当成了 function_call，"
    "假定了 output 的第一项就是调用；要按 type 找调用"
)


class GradeInputError(ValueError):
    """The file cannot be graded (missing, not Python, no such function): one line says why."""


@dataclass(frozen=True)
class CaseResult:
    """One run of the loop: which case, and whether it passed."""

    key: str
    title: str
    passed: bool


@dataclass(frozen=True, repr=False)
class GradeReport(Displayable):
    """The grader's verdict, plain data: passed, the first broken link, where to look."""

    passed: bool
    message: str
    case: str | None = None
    link: str | None = None
    hint: str = ""
    cases: tuple[CaseResult, ...] = field(default_factory=tuple)
    title: str = "应用循环评分（离线，真实 SDK）"

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: for a gradebook row."""
        data = asdict(self)
        data["cases"] = list(data["cases"])
        return data

    def text(self) -> str:
        lines = [self.title]
        lines += [f"  {'✓' if c.passed else '✗'} {c.title}" for c in self.cases]
        lines.append(("✓ " if self.passed else "✗ ") + self.message)
        if self.hint:
            lines.append(f"去看：{self.hint}")
        return "\n".join(lines)

    __str__ = text

    def html(self) -> str:
        return verdict_box(self.text(), "pass" if self.passed else "fail")

    def summary(self) -> str:
        return f"passed={self.passed}, case={self.case!r}, link={self.link!r}"


LINK_ZH: Final = {
    "arguments_text": "参数表示",
    "alias": "路由目标",
    "id_reused": "关联标识",
    "hard_coded": "参数的值",
    "no_limit": "轮数上限",
    "stop_message": "轮数上限",
    "crashed": "程序出错",
    "first_item": "模型响应",
    "unexecuted": "执行",
    "roundtrip": "两轮往返",
}


def _fail(case: Case, key: str, evidence: str, done: list[CaseResult]) -> GradeReport:
    from lessons_lib.checks.doctor import STEP_ZH

    name = STEP_ZH.get(key) or LINK_ZH.get(key, key)
    message = f"在「{case.title}」这个情形里，第一个断开的环节是「{name}」：{evidence}"
    if case.hint:
        message += f"\n这个情形考的是：{case.hint}"
    results = (*done, CaseResult(case.key, case.title, False))
    return GradeReport(False, message, case.key, key, WHERE.get(key, ""), results)


def _crash_text(exc: BaseException, fn: Learner) -> str:
    """The exception in one line, with the learner's own line that raised it."""
    code = getattr(fn, "__code__", None)
    own = code.co_filename if code is not None else None
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == own]
    where = ""
    if frames:
        last = frames[-1]
        line = (last.line or linecache.getline(last.filename, last.lineno or 0)).strip()
        where = f"；出错的一行：{line}" if line else ""
    detail = str(exc).splitlines()[0] if str(exc) else ""
    return f"你的代码抛出了 {type(exc).__name__}" + (f"（{detail[:160]}）" if detail else "") + where


def run_case(fn: Learner, case: Case) -> tuple[Trace, object, Exception | None, bool]:
    """Run the learner's loop once: (trace, answer, exception or None, runaway)."""
    from lessons_lib.engine.kit import workbench

    with workbench(case.task, script=case.script) as bench:
        answer, error = None, None
        try:
            answer = fn(case.task, bench.model, bench.fs, max_rounds=MAX_ROUNDS)
        except Exception as exc:  # the learner's code: report it, never let it escape
            error = exc
        return bench.finish(answer), answer, error, bench.runaway


def judge(fn: Learner, case: Case) -> tuple[str, str] | None:
    """The first problem of one run as (key, evidence), or None when the run is whole."""
    from lessons_lib.checks.doctor import diagnose
    from lessons_lib.checks.verify import verify_roundtrip

    trace, answer, error, runaway = run_case(fn, case)
    try:
        if case.expect == "stop" or runaway:
            check_stop(trace, answer, runaway)
        check_frames(trace)
    except Broken as broken:
        return broken.key, str(broken)
    if error is not None:
        if isinstance(error, AttributeError) and "ResponseOutputMessage" in str(error):
            return "first_item", _crash_text(error, fn) + FIRST_ITEM
        return "crashed", _crash_text(error, fn)
    try:
        check_every_call_sent(trace)
    except Broken as broken:
        return broken.key, str(broken)
    if case.expect == "stop":
        return None
    found = diagnose(trace).broken
    if found is not None:
        return found.key, found.evidence
    failed = verify_roundtrip(trace, sabotage=False).failed
    if failed:
        return "roundtrip", f"verify_roundtrip 的「{failed[0].name}」没有通过：{failed[0].reason}"
    return None


def grade_loop(fn: object, cases: tuple[Case, ...] = CASES) -> GradeReport:
    """Grade a learner's ``app_loop(task, model, fs, max_rounds)`` on every case. Lesson 11."""
    if not callable(fn):
        return GradeReport(False, f"要评分的应当是一个函数，收到的是 {type(fn).__name__}", link="crashed")
    from lessons_lib.course.exercises_base import BLANK_TEXT, has_blank

    if has_blank(fn):
        return GradeReport(False, BLANK_TEXT, link="unfinished", hint=WHERE["unfinished"])
    done: list[CaseResult] = []
    for case in cases:
        problem = judge(cast(Learner, fn), case)
        if problem is not None:
            return _fail(case, *problem, done)
        done.append(CaseResult(case.key, case.title, True))
    return GradeReport(True, PASS_TEXT.format(n=len(cases) - 1), cases=tuple(done))
