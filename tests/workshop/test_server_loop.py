"""Lesson 12's last step: a learner's server as a service of the course's loop, called by the
offline stand-in through its labelled search_notes rule (and no other tool's rule changed)."""

from __future__ import annotations

import json
from pathlib import Path

from lessons_lib import notes_service, run_chain
from lessons_lib.engine.standins.rules import Script, arguments_text
from lessons_lib.engine.standins.search import is_search, search_arguments
from lessons_lib.services.notes.server import build_server

TASK = "在 /workspace 的笔记里找出提到“待办”的行，最多 3 条"


def test_the_stand_in_rule_takes_the_quoted_text_and_the_limit() -> None:
    assert json.loads(search_arguments(TASK)) == {"query": "待办", "limit": 3}
    assert json.loads(search_arguments('find "deadline" at most 2')) == {"query": "deadline", "limit": 2}
    assert json.loads(search_arguments("没有引号的任务")) == {}  # the service, not the stand-in, refuses it
    assert is_search("notes__search_notes") and not is_search("fs__read_text_file")


def test_other_tools_keep_their_rule() -> None:
    task = "请读取 /workspace/notes.txt 的前 20 行"
    assert arguments_text(task, Script(), "fs__read_text_file") == arguments_text(task, Script())
    assert arguments_text(task, Script(arguments='{"x": 1}'), "notes__search_notes") == '{"x": 1}'


def test_the_reference_server_answers_inside_the_loop() -> None:
    trace = run_chain(TASK, services={"notes": notes_service(build_server)})
    assert trace.outcome["status"] == "answered", trace.outcome
    request, reply = trace.mcp_pair("tools/call")
    call = trace.body("response_1")["output"][0]  # type: ignore[index]
    assert request["params"] == {"name": "search_notes", "arguments": json.loads(call["arguments"])}
    assert reply is not None and [m["line"] for m in reply["result"]["structuredContent"]["matches"]] == [
        16,
        17,
        18,
    ]
    assert trace.answer is not None and "17 待办" in trace.answer


def test_an_unfinished_server_ends_the_run_with_one_line() -> None:
    def build_notes_server(root: Path) -> object:
        return ...

    trace = run_chain(TASK, services={"notes": notes_service(build_notes_server)})
    assert trace.outcome["status"] == "error" and "还没有完成" in trace.outcome["text"]
    assert "\n" not in trace.outcome["text"]
