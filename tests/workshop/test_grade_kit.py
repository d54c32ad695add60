"""The workbench the lesson-11 learner and the grader stand on (``lessons_lib.workshop.loop.kit``).

Real pieces: ``bench.model`` is the ``openai`` SDK's own client, ``bench.fs`` a real ``mcp``
session whose frames, and the learner's own ``tools/call`` frames, go over JSON-RPC text and
land in the trace; the trace passes the format's one shape check.
"""

from __future__ import annotations

import pytest

from lessons_lib import MODEL_NAME, TASK, workbench
from lessons_lib.core.traces.queries import mcp_exchanges, model_rounds
from lessons_lib.core.traces.tracetypes import check_trace
from lessons_lib.engine.standins.rules import Script


def frame(request_id: object, arguments: object, name: str = "read_text_file") -> dict[str, object]:
    params = {"name": name, "arguments": arguments}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def test_real_clients_and_every_message_recorded() -> None:
    from mcp_types import ListToolsResult
    from openai import OpenAI

    with workbench() as bench:
        assert isinstance(bench.model, OpenAI)
        listed = bench.fs.list_tools()
        assert isinstance(listed, ListToolsResult) and listed.tools[0].name == "read_text_file"
        request_id = bench.fs.next_id()
        reply = bench.fs.send(frame(request_id, {"path": "/workspace/notes.txt", "head": 2}), call_id="c1")
        response = bench.model.responses.create(
            model=MODEL_NAME, input=[{"role": "user", "content": TASK}], tools=bench.course_tools()
        )
        trace = bench.finish("shown")
    assert reply["id"] == request_id and reply["result"]["isError"] is False
    assert reply["result"]["content"][0]["text"].count("\n") == 1  # two lines
    assert [x.request["method"] for x in mcp_exchanges(trace, None)] == [
        "initialize",
        "tools/list",
        "tools/call",
        "tools/list",  # course_tools() lists again, with the next id
    ]
    assert request_id == 3  # initialize and tools/list used 1 and 2 on this connection
    assert [r.n for r in model_rounds(trace)] == [1]
    assert response.output[0].type == "function_call"
    assert trace.links == [
        {
            "call_id": "c1",
            "alias": "fs__read_text_file",
            "service": "fs",
            "tool": "read_text_file",
            "mcp_id": 3,
        }
    ]
    assert trace.tools == [{"alias": "fs__read_text_file", "service": "fs", "name": "read_text_file"}]
    check_trace(trace.to_dict())


def test_a_frame_that_is_not_jsonrpc_is_refused_in_one_sentence() -> None:
    with workbench() as bench:
        with pytest.raises(ValueError, match="JSON-RPC 请求"):
            bench.fs.send({"id": 5, "method": "tools/call", "params": {}})  # no "jsonrpc"
        with pytest.raises(ValueError, match="JSON-RPC 请求 dict"):
            bench.fs.send({"jsonrpc": "2.0", "method": "tools/call"})  # a notification: no reply to wait for
        with pytest.raises(ValueError, match="不能写成 JSON"):
            bench.fs.send(frame(6, {"path": object()}))
        # the connection is still usable after the refusals
        assert "result" in bench.fs.send(frame(bench.fs.next_id(), {"path": "/workspace/notes.txt"}))


def test_arguments_as_text_reach_the_real_server_and_come_back_as_an_error() -> None:
    with workbench() as bench:
        reply = bench.fs.send(frame(bench.fs.next_id(), '{"path": "/workspace/notes.txt"}'))
    assert "error" in reply or reply["result"]["isError"] is True


def test_request_cap_stops_a_runaway_loop() -> None:
    import openai

    with workbench(script=Script(endless=True), max_requests=2) as bench:
        tools = bench.course_tools()
        items: list[dict[str, object]] = [{"role": "user", "content": TASK}]
        for _ in range(2):
            bench.model.responses.create(model=MODEL_NAME, input=items, tools=tools)
        assert not bench.runaway
        with pytest.raises(openai.RateLimitError):
            bench.model.responses.create(model=MODEL_NAME, input=items, tools=tools)
        assert bench.runaway
        trace = bench.finish(None)
    assert trace.outcome["status"] == "stopped"


def test_an_error_inside_the_bench_surfaces_as_itself() -> None:
    with pytest.raises(KeyError, match="mine"), workbench():
        raise KeyError("mine")
