"""Every part-two lesson has a 动手 exercise whose checker can fail (issue 25, point 6).

The starter (``exercise`` cell) gets "还没有完成" and a hint, never an exception; a right answer
passes; a typical mistake from the lesson is named. nbval runs the cells themselves.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from _engine_support import REPO_ROOT

from lessons_lib.course.exercises import parttwo as ex

LESSONS = ("20", "21", "22", "30", "31", "32", "33", "40", "41", "42", "43", "44")


@pytest.mark.parametrize("lesson", LESSONS)
def test_each_part_two_lesson_has_a_tagged_exercise_and_a_folded_solution(lesson: str) -> None:
    (path,) = (REPO_ROOT / "notebooks").glob(f"{lesson}_*.ipynb")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    tags = [tag for c in cells for tag in c["metadata"].get("tags", [])]
    assert "exercise" in tags and "solution" in tags, path.name


def test_an_open_blank_is_unfinished_with_a_hint() -> None:
    for result in (
        ex.check_named_choice(...),
        ex.check_chained_request(...),
        ex.check_layer_choice(...),
        ex.check_resource_and_prompt(..., ...),
        ex.check_new_revision_call(...),
        ex.check_output_schema(..., ...),
    ):
        assert not result.passed and result.text().startswith("还没有完成") and "提示：" in result.text()


def test_layer_choice_names_the_wrong_pick() -> None:
    right = {"one_app": "function", "rest_docs": "openapi", "shared": "mcp"}
    assert ex.check_layer_choice(right).passed
    wrong = ex.check_layer_choice(dict(right, one_app="mcp"))
    assert not wrong.passed and "选了 'mcp'" in wrong.text()


def test_resource_and_prompt_are_checked_by_the_mcp_types() -> None:
    resource = {"uri": "file:///workspace/notes.txt", "name": "notes", "mimeType": "text/plain"}
    prompt: dict[str, Any] = {"name": "summarize", "arguments": [{"name": "lines", "required": True}]}
    assert ex.check_resource_and_prompt(resource, prompt).passed
    assert not ex.check_resource_and_prompt({"name": "notes"}, prompt).passed  # no uri
    assert not ex.check_resource_and_prompt(resource, {"name": "summarize"}).passed  # no argument


def test_output_schema_is_tried_on_unseen_bad_results() -> None:
    good = {
        "type": "object",
        "properties": {"path": {"type": "string"}, "lines": {"type": "integer"}},
        "required": ["path", "lines"],
    }
    result = {"path": "/workspace/notes.txt", "lines": 5}
    assert ex.check_output_schema(good, result).passed
    assert not ex.check_output_schema({"type": "object"}, result).passed  # accepts anything
    loose = dict(good, properties={"path": {"type": "string"}, "lines": {"type": "number"}})
    assert not ex.check_output_schema(loose, result).passed  # 5.5 lines passes


def test_new_revision_call_needs_the_required_meta() -> None:
    call = {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"name": "read_text_file", "arguments": {"path": "/workspace/notes.txt", "head": 5}},
    }
    assert not ex.check_new_revision_call(call).passed
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    assert ex.check_new_revision_call(dict(call, params=dict(call["params"], _meta=meta))).passed


def test_named_choice_and_chained_request_run_through_the_stand_in() -> None:
    from lessons_lib.course.record import load_fixture

    assert ex.check_named_choice({"type": "function", "function": {"name": "fs__read_text_file"}}).passed
    assert not ex.check_named_choice("required").passed  # both services get called
    first = load_fixture("request_1.json")
    feedback = [i for i in load_fixture("request_2.json")["input"] if i["type"] == "function_call_output"]
    chained = {"model": first["model"], "previous_response_id": "resp_offline_001", "input": feedback}
    assert ex.check_chained_request(chained).passed
    assert not ex.check_chained_request(load_fixture("request_2.json")).passed  # resends everything
