"""The lesson-11 judge on a catalogue of loops: four correct styles pass, every wrong loop is named.

The loops live in ``tests/loop_catalogue/``: ``ok_*.py`` are correct loops in four styles (a
``for`` loop with everything inline, a ``while`` loop with helpers, recursion, a class over
several services); ``wrong_loops.WRONG`` types one mistake into one of them. The grader must
reject each wrong loop in the case that first exposes it, naming that mistake's link. The verdict
comes from the traffic the trusted side recorded: a loop that forges its own trace gains nothing.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import pytest

from lessons_lib.workshop.loop.grading import GradeReport, grade_loop, report_from, run_local
from lessons_lib.workshop.loop.grading_cases import LOOP_CASES, MANY_CASES, WHERE, cases_for
from lessons_lib.workshop.loop.grading_files import grade_file, load_function
from lessons_lib.workshop.loop.grading_traffic import RunRecord

CATALOGUE = Path(__file__).parents[1] / "loop_catalogue"
sys.path.insert(0, str(CATALOGUE))
from wrong_loops import WRONG  # noqa: E402

STYLES = ("ok_inline", "ok_while", "ok_recursion", "ok_class")


@cache
def graded(label: str, tmp: str) -> GradeReport:
    wrong = WRONG[label]
    source = (CATALOGUE / f"{wrong.base}.py").read_text(encoding="utf-8")
    assert source.count(wrong.old) == 1, f"{label}: {wrong.base}.py no longer holds {wrong.old!r} once"
    path = Path(tmp) / f"wrong_{abs(hash(label))}.py"
    path.write_text(source.replace(wrong.old, wrong.new), encoding="utf-8")
    return grade_file(path, function=wrong.function)


@pytest.mark.parametrize("style", STYLES)
def test_a_correct_loop_passes_whatever_its_style(style: str) -> None:
    report = grade_file(CATALOGUE / f"{style}.py")
    assert report.passed, report.text()
    assert [c.key for c in report.cases] == [c.key for c in LOOP_CASES]


def test_the_class_style_drives_two_services() -> None:
    report = grade_file(CATALOGUE / "ok_class.py", function="app_loop_many")
    assert report.passed, report.text()
    assert [c.key for c in report.cases] == [c.key for c in MANY_CASES]


def test_the_catalogue_is_broad() -> None:
    assert len(WRONG) >= 25
    assert len({w.link for w in WRONG.values()}) >= 18  # distinct links, not one catch-all
    assert {w.base for w in WRONG.values()} == set(STYLES)
    assert {w.link for w in WRONG.values()} <= set(WHERE)


@pytest.mark.parametrize("label", list(WRONG))
def test_a_wrong_loop_is_rejected_naming_its_first_broken_link(
    label: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    wrong = WRONG[label]
    report = graded(label, str(tmp_path_factory.getbasetemp()))
    assert not report.passed, f"{label}: the grader let it pass"
    assert (report.link, report.case) == (wrong.link, wrong.case), report.text()
    assert report.hint and "第一个断开的环节" in report.lines[0]


def test_links_and_a_copied_answer_without_the_work_fail() -> None:
    """A loop that only writes pairing records and returns a good run's answer fails on the traffic.

    (In one process the learner's code can still rewrite the bench's events wholesale: the
    gradebook's worker, with the stand-in and services in the parent, is what closes that.)
    """
    case = cases_for("app_loop")[0]
    honest = run_local(load_function(CATALOGUE / "ok_inline.py"), case)

    def forger(task: object, model: object, fs: object, max_rounds: int = 3) -> str:
        trace = fs._trace  # type: ignore[attr-defined]  # what a learner could reach
        trace.links.append(
            {"call_id": "x", "alias": None, "service": "fs", "tool": "read_text_file", "mcp_id": 3}
        )
        return str(honest.answer)

    report = grade_loop(forger)
    assert not report.passed and report.link == "request"
    # the same record judged out of process, as a gradebook would: plain data both ways
    again = RunRecord.from_dict(honest.to_dict())
    assert report_from("app_loop", [(case, again)]).passed


def test_records_travel_as_json_and_claims_only_fail() -> None:
    case = cases_for("app_loop")[0]
    record = run_local(load_function(CATALOGUE / "ok_while.py"), case)
    crashed = RunRecord(record.events, record.runaway, record.answer, "你的代码抛出了 RuntimeError")
    assert report_from("app_loop", [(case, record)]).passed
    assert report_from("app_loop", [(case, crashed)]).link == "crashed"
    lied = RunRecord(record.events, record.runaway, "文件的前 20 行是……", None)
    assert report_from("app_loop", [(case, lied)]).link == "answer"
