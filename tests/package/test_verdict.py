"""One exercise verdict type (issue 22): every ``check_*`` and ``grade_*`` of the facade returns a
:class:`~lessons_lib.core.verdict.Verdict`, on a blank and on a wrong answer, so a sixth verdict
type cannot appear unnoticed; and each layout draws the form the stored outputs hold."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import lessons_lib
from lessons_lib.core.verdict import Verdict

EXCLUDED = {
    "check_calls": "lesson 31's many-call check of a trace (a list of broken rules), not an exercise",
}
"""Facade names that match ``check_*``/``grade_*`` but judge no learner answer."""


def blank_loop(
    task: str, model: Any, fs: Any, max_rounds: int = 4
) -> Any: ...  # the starter blank, as a learner gets it


def wrong_loop(task: str, model: Any, fs: Any, max_rounds: int = 4) -> Any:
    return "x"  # no call at all


def blank_build(root: Any) -> Any: ...


def blank_function(*args: Any) -> Any: ...


def _file(tmp: Path, name: str, body: str) -> Path:
    path = tmp / name
    path.write_text(body, encoding="utf-8")
    return path


LOOP_BLANK = "def app_loop(task, model, fs, max_rounds=4):\n    ...\n"
LOOP_WRONG = "def app_loop(task, model, fs, max_rounds=4):\n    return 'x'\n"
Call = Callable[[Path], object]

CASES: dict[str, tuple[Call | None, Call]] = {
    # name: (the call on a blank, the call on a wrong answer)
    "check_step": (
        lambda _: lessons_lib.check_step(1, blank_function),
        lambda _: lessons_lib.check_step(2, print),
    ),
    "check_exercise": (
        lambda _: lessons_lib.check_exercise(3, blank_function),
        lambda _: lessons_lib.check_exercise(3, lambda text, rid: {"jsonrpc": "2.0"}),
    ),
    "grade_loop": (
        lambda _: lessons_lib.grade_loop(blank_loop),
        lambda _: lessons_lib.grade_loop(wrong_loop),
    ),
    "grade_file": (
        lambda tmp: lessons_lib.grade_file(_file(tmp, "blank.py", LOOP_BLANK)),
        lambda tmp: lessons_lib.grade_file(_file(tmp, "wrong.py", LOOP_WRONG)),
    ),
    "grade_server": (
        lambda _: lessons_lib.grade_server(blank_build),
        lambda _: lessons_lib.grade_server(lambda root: 1 / 0),
    ),
    "grade_server_file": (
        lambda tmp: lessons_lib.grade_server_file(_file(tmp, "blank.py", "...\n"), timeout=2.0),
        lambda tmp: lessons_lib.grade_server_file(_file(tmp, "wrong.py", "print('hello')\n"), timeout=2.0),
    ),
    "grade_course_server": (None, lambda _: lessons_lib.grade_course_server("noisy")),
    "check_feedback_message": (
        lambda _: lessons_lib.check_feedback_message("anthropic", ...),
        lambda _: lessons_lib.check_feedback_message("anthropic", {"role": "user", "content": "x"}),
    ),
    "check_declaration": (
        lambda _: lessons_lib.check_declaration(None),
        lambda _: lessons_lib.check_declaration({"type": "function", "function": {"name": "x"}}),
    ),
    "check_named_choice": (
        lambda _: lessons_lib.check_named_choice(...),
        lambda _: lessons_lib.check_named_choice("required"),
    ),
    "check_chained_request": (
        lambda _: lessons_lib.check_chained_request(...),
        lambda _: lessons_lib.check_chained_request([]),
    ),
    "check_layer_choice": (
        lambda _: lessons_lib.check_layer_choice(...),
        lambda _: lessons_lib.check_layer_choice({"one_app": "mcp", "rest_docs": "mcp", "shared": "mcp"}),
    ),
    "check_resource_and_prompt": (
        lambda _: lessons_lib.check_resource_and_prompt(..., ...),
        lambda _: lessons_lib.check_resource_and_prompt({"name": "notes"}, {"name": "summarize"}),
    ),
    "check_new_revision_call": (
        lambda _: lessons_lib.check_new_revision_call(...),
        lambda _: lessons_lib.check_new_revision_call({"method": "tools/call"}),
    ),
    "check_output_schema": (
        lambda _: lessons_lib.check_output_schema(..., ...),
        lambda _: lessons_lib.check_output_schema({"type": "object"}, {"path": "/workspace/notes.txt"}),
    ),
    "check_waybill_schema": (
        lambda _: lessons_lib.check_waybill_schema(...),
        lambda _: lessons_lib.check_waybill_schema({"type": "object"}),
    ),
    "check_pairing": (
        lambda _: lessons_lib.check_pairing(...),
        lambda _: lessons_lib.check_pairing([{}, {}]),
    ),
    "check_intent_key": (
        lambda _: lessons_lib.check_intent_key(...),
        lambda _: lessons_lib.check_intent_key(lambda order, reason: "k"),
    ),
    "check_confirm": (
        lambda _: lessons_lib.check_confirm(...),
        lambda _: lessons_lib.check_confirm(lambda request: True),
    ),
    "check_fingerprint": (
        lambda _: lessons_lib.check_fingerprint(...),
        lambda _: lessons_lib.check_fingerprint(lambda tool: "same"),
    ),
    "check_screen": (
        lambda _: lessons_lib.check_screen(...),
        lambda _: lessons_lib.check_screen(lambda task, alias, arguments: None),
    ),
    "check_allowed": (
        lambda _: lessons_lib.check_allowed(None),
        lambda _: lessons_lib.check_allowed(lambda names: {"type": "allowed_tools", "tools": []}),
    ),
}
"""``grade_course_server`` grades the course's own servers by name: there is no blank to leave.
``grade_server_file`` runs the file in its own process and cannot see a blank: a file that is only
``...`` is a server that never answers (a failed verdict, not an unfinished one)."""


def test_every_checker_and_grader_of_the_facade_is_covered() -> None:
    named = {n for n in lessons_lib.__all__ if n.startswith(("check_", "grade_"))}
    assert named - set(EXCLUDED) == set(CASES), "a new check_/grade_ function needs a case here"


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_blank_and_a_wrong_answer_get_a_verdict(name: str, tmp_path: Path) -> None:
    blank, wrong = CASES[name]
    if blank is not None:
        verdict = blank(tmp_path)
        assert isinstance(verdict, Verdict), type(verdict)
        assert not verdict.passed and verdict.text()
        assert verdict.unfinished or name == "grade_server_file", verdict.text()
    verdict = wrong(tmp_path)
    assert isinstance(verdict, Verdict), type(verdict)
    assert not verdict.passed and not verdict.unfinished and verdict.text(), verdict.text()


def test_the_only_kinds_of_verdict_are_the_graders_reports() -> None:
    from lessons_lib.workshop.server.grading import ServerReport

    def below(cls: type) -> set[str]:
        subs = cls.__subclasses__()
        return {c.__name__ for c in subs} | {n for c in subs for n in below(c)}

    assert ServerReport and below(Verdict) == {"GradeReport", "ServerReport"}


def test_each_layout_draws_its_form() -> None:
    lessons_lib.set_language("zh")
    try:
        step = Verdict(False, ("还差一点",), "看 call_id", title="第 1 步", layout="step")
        assert step.text() == "✗ 第 1 步：还差一点\n提示：看 call_id"
        assert 'data-status="fail"' in str(step.html())
        open_step = Verdict(False, ("空白",), "h", True, "第 1 步", "step")
        assert open_step.text().startswith("… ") and 'data-status="unchecked"' in str(open_step.html())
        found = Verdict(False, ("空白",), "填上", True, layout="findings")
        assert found.text() == "还没有完成\n空白\n提示：填上"
        assert found.html() == "<p><b>还没有完成</b></p><ul><li>空白</li><li>提示：填上</li></ul>"
        plain = Verdict(False, ("还差一点：", "a"), "h")
        assert plain.text() == "还差一点：\na\nh" and plain.html() is None
        assert plain._repr_mimebundle_() == {"text/plain": plain.text()}
        passed = Verdict(True, ("完成了！",), "never shown")
        assert passed.text() == "完成了！" and repr(passed) == "Verdict(passed=True, unfinished=False)"
    finally:
        lessons_lib.set_language(None)
