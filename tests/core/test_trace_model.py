"""The typed trace model: one shape check where a trace is loaded, one set of queries (lesson 03)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from lessons_lib.core.jsonvalue import JSONObject, get_in
from lessons_lib.core.paths import DATA_DIR
from lessons_lib.core.plugins import apishapes
from lessons_lib.core.traces import queries as q
from lessons_lib.core.traces.trace import Trace, load_trace
from lessons_lib.core.traces.tracetypes import TraceShapeError, check_trace

TRACE = json.loads((DATA_DIR / "trace.json").read_text(encoding="utf-8"))


def test_the_recorded_trace_has_the_documented_shape() -> None:
    assert check_trace(TRACE) is TRACE
    assert Trace.from_dict(TRACE).to_dict() == TRACE


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t["events"].__setitem__(0, None), "trace.events[0] should be an object, got null"),
        (lambda t: t["events"][3].pop("body"), "trace.events[3].body should be an object, got null"),
        (lambda t: t["events"][2].__setitem__("seq", "2"), "trace.events[2].seq should be a whole number"),
        (lambda t: t["events"][1].__setitem__("channel", "http"), "trace.events[1].channel should be one of"),
        (lambda t: t["links"][0].__setitem__("mcp_id", [3]), "trace.links[0].mcp_id should be a number"),
        (lambda t: t["model"].__setitem__("api", "soap"), "trace.model.api should be one of"),
        (lambda t: t.__setitem__("tools", {}), "trace.tools should be a list, got an object"),
        (lambda t: t["outcome"].__setitem__("status", "done"), "trace.outcome.status should be one of"),
        (lambda t: t.__setitem__("answer", 3), "trace.answer should be a string or null, got a number"),
    ],
)
def test_a_malformed_trace_is_refused_with_one_line(edit: object, message: str, tmp_path: Path) -> None:
    bad = copy.deepcopy(TRACE)
    edit(bad)  # type: ignore[operator]
    with pytest.raises(TraceShapeError, match=message.replace("[", r"\[").replace("]", r"\]")) as info:
        Trace.from_dict(bad)
    assert "\n" not in str(info.value)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(ValueError, match="not a valid trace"):
        load_trace(path)


def test_queries_on_the_recorded_run() -> None:
    trace = Trace.from_dict(TRACE)
    assert q.model_api(trace) == "responses" and "api" not in trace.model  # old traces read as Responses
    assert [r.n for r in q.model_rounds(trace)] == [1, 2]
    (call,) = q.calls(trace)
    assert call.name == "fs__read_text_file" and json.loads(str(call.arguments)) == {
        "path": "/workspace/notes.txt",
        "head": 20,
    }
    exchange = q.exchange_for(trace, call.call_id)
    assert exchange is not None and exchange.service == "fs" and exchange.id == trace.links[0]["mcp_id"]
    feedback = q.feedback_for_call(trace, call.call_id)
    assert feedback is not None and feedback.text() == q.reply_text(exchange.reply)
    assert q.reply_is_error(exchange.reply) is False
    assert q.response_text(trace, 2) == trace.answer == q.final_answer(trace)
    assert [t.name for t in q.declared(trace)] == ["fs__read_text_file"]
    assert q.mcp_tool(trace, "read_text_file", "fs") == exchange_tool(trace)
    # the same queries answer on the plain dict, and on JSON of the wrong shape they answer "nothing"
    assert q.calls(TRACE) == q.calls(trace)
    for junk in (None, [], {"events": "x"}, {"events": [None, 3]}):
        assert q.calls(junk) == [] and q.mcp_exchanges(junk) == [] and q.call_records(junk) == []


def exchange_tool(trace: Trace) -> JSONObject:
    (listed,) = q.mcp_exchanges(trace, "tools/list")
    assert listed.reply is not None
    return listed.reply["result"]["tools"][0]  # type: ignore[call-overload,index,return-value]


def test_replies_pair_by_service_and_id() -> None:
    """Two services both number their first tools/call 3: each reply goes with its own request."""
    frames = []
    for n, service in enumerate(("fs", "archive")):
        frames.append(("application", service, {"jsonrpc": "2.0", "id": 3, "method": "tools/call"}))
        frames.append(
            (service, "application", {"jsonrpc": "2.0", "id": 3, "result": {"content": [], "n": n}})
        )
    trace = Trace(task="t", model={"mode": "offline", "name": "m", "label": "l"})
    # replies in the opposite order to the requests
    for sender, receiver, body in (frames[0], frames[2], frames[3], frames[1]):
        trace.add("mcp", sender, receiver, "tools/call", body)
    pairs = {x.service: get_in(x.reply, "result", "n") for x in q.mcp_exchanges(trace)}
    assert pairs == {"fs": 0, "archive": 1}
    assert q.mcp_exchange(trace, "archive", 3) == q.mcp_exchanges(trace, service="archive")[0]


# Hand-written from the APIs' own documentation (OpenAI Chat Completions, Anthropic Messages):
CHAT_RESPONSE = {
    "choices": [
        {
            "index": 0,
            "finish_reason": "tool_calls",
            "message": {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_a",
                        "type": "function",
                        "function": {"name": "fs__read_text_file", "arguments": "{}"},
                    },
                    {
                        "id": "call_b",
                        "type": "function",
                        "function": {"name": "archive__read_text_file", "arguments": "{}"},
                    },
                ],
            },
        }
    ]
}
CHAT_REQUEST = {
    "model": "m",
    "messages": [
        {"role": "user", "content": "task"},
        CHAT_RESPONSE["choices"][0]["message"],
        {"role": "tool", "tool_call_id": "call_a", "content": "one"},
        {"role": "tool", "tool_call_id": "call_b", "content": [{"type": "text", "text": "two"}]},
    ],
    "tools": [
        {"type": "function", "function": {"name": "fs__read_text_file", "parameters": {"type": "object"}}}
    ],
}
ANTHROPIC_RESPONSE = {
    "type": "message",
    "role": "assistant",
    "content": [
        {"type": "text", "text": "I will read it."},
        {
            "type": "tool_use",
            "id": "toolu_1",
            "name": "fs__read_text_file",
            "input": {"path": "/w", "head": 5},
        },
    ],
    "stop_reason": "tool_use",
}
ANTHROPIC_REQUEST = {
    "messages": [
        {"role": "user", "content": "task"},
        {"role": "assistant", "content": ANTHROPIC_RESPONSE["content"]},
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "denied", "is_error": True}
            ],
        },
    ],
    "tools": [{"name": "fs__read_text_file", "input_schema": {"type": "object"}}],
}


def test_the_other_apis_answer_the_same_questions() -> None:
    calls = apishapes.tool_calls(CHAT_RESPONSE, "chat")
    assert [(c.call_id, c.name, c.arguments) for c in calls] == [
        ("call_a", "fs__read_text_file", "{}"),
        ("call_b", "archive__read_text_file", "{}"),
    ]
    assert [(f.call_id, f.text(), f.is_error) for f in apishapes.feedback_items(CHAT_REQUEST, "chat")] == [
        ("call_a", "one", None),
        ("call_b", "two", None),
    ]
    assert apishapes.answer_text(CHAT_RESPONSE, "chat") == ""
    assert [t.name for t in apishapes.declared_tools(CHAT_REQUEST, "chat")] == ["fs__read_text_file"]
    (use,) = apishapes.tool_calls(ANTHROPIC_RESPONSE, "anthropic")
    assert (use.call_id, use.arguments) == ("toolu_1", {"path": "/w", "head": 5})  # input is an object
    found = apishapes.feedback_for(ANTHROPIC_REQUEST, "toolu_1", "anthropic")
    assert found is not None and (found.text(), found.is_error) == ("denied", True)
    assert apishapes.answer_text(ANTHROPIC_RESPONSE, "anthropic") == "I will read it."
    assert apishapes.declared_tools(ANTHROPIC_REQUEST, "anthropic")[0].schema == {"type": "object"}
    # a trace that says model.api dispatches to that API's shapes
    trace = Trace(task="t", model={"mode": "offline", "name": "m", "label": "l", "api": "anthropic"})
    trace.add("model", "application", "model", "request_1", {"messages": [{"role": "user", "content": "t"}]})
    trace.add("model", "model", "application", "response_1", ANTHROPIC_RESPONSE)
    trace.add("model", "application", "model", "request_2", ANTHROPIC_REQUEST)
    assert [c.call_id for c in q.calls(trace)] == ["toolu_1"]
    assert [f.call_id for f in q.sent_feedback(trace)] == ["toolu_1"]
    assert Trace.from_dict(trace.to_dict()).model["api"] == "anthropic"


@pytest.mark.parametrize("command", [["diagram", "trace", "--trace"], ["tree", "--event", "0"]])
@pytest.mark.parametrize("edit", ["events[0]=null", "events=7", "links[0].mcp_id=[]", "body=null"])
def test_the_cli_refuses_a_malformed_trace_in_one_line(
    command: list[str], edit: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from lessons_lib.cli import main

    bad = copy.deepcopy(TRACE)
    if edit == "events[0]=null":
        bad["events"][0] = None
    elif edit == "events=7":
        bad["events"] = 7
    elif edit == "links[0].mcp_id=[]":
        bad["links"][0]["mcp_id"] = []
    else:
        bad["events"][5]["body"] = None
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    argv = [*command, str(path)] if command[0] == "diagram" else [command[0], str(path), *command[1:]]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a valid trace" in err and "Traceback" not in err
