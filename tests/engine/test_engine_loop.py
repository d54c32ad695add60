"""The application loop offline: scripted model moves, refusals fed back, aliases, guardrails, trace.

``Script(arguments=..., tool=...)`` makes the deterministic stand-in send exactly the move a
lesson needs; everything else (MCP frames, SDK bodies) is the real thing.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from _engine_support import NOTES, notes_lines, spy_reads

from lessons_lib.core.traces.trace import Trace, load_trace
from lessons_lib.engine.host import Limits, run_chain
from lessons_lib.engine.standins.rules import Script
from lessons_lib.views.narrate import narrate

SECRET = "SECRET-FROM-OUTSIDE-91d2"


def _feedback(trace: Trace) -> list[dict[str, Any]]:
    request = trace.body("request_2", channel="model") or {}
    return [i for i in request.get("input", []) if i.get("type") == "function_call_output"]


def _tool_calls(trace: Trace) -> list[dict[str, Any]]:
    return [e["body"] for e in trace.find("tools/call", "mcp") if "method" in e["body"]]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET, encoding="utf-8")
    (root / "notes.txt").write_bytes(NOTES.read_bytes())
    (root / "link_out.txt").symlink_to(outside / "secret.txt")
    return root


def test_default_run_walks_the_four_steps() -> None:
    trace = run_chain()
    labels = [e["label"] for e in trace.events]
    assert labels == [
        "initialize",
        "initialize",
        "notifications/initialized",
        "tools/list",
        "tools/list",
        "request_1",
        "response_1",
        "tools/call",
        "tools/call",
        "request_2",
        "response_2",
    ]
    assert [e["seq"] for e in trace.events] == list(range(len(trace.events)))
    assert trace.tools == [{"alias": "fs__read_text_file", "service": "fs", "name": "read_text_file"}]
    assert trace.outcome["status"] == "answered"
    assert "\n".join(notes_lines()[:20]) in (trace.answer or "")
    assert Trace.from_dict(json.loads(trace.to_json())).to_json() == trace.to_json()


@pytest.mark.parametrize(
    "arguments, expected",
    [
        (
            '{"path": "/workspace/notes.txt", "head": 2, "tail": 3}',
            "ERROR: Cannot specify both head and tail parameters simultaneously",
        ),
        ('{"path": "/workspace/link_out.txt"}', "ERROR: Access denied - /workspace/link_out.txt is a link"),
        ('{"path": "/etc/passwd"}', "ERROR: Access denied - path outside allowed directories: /etc/passwd"),
        (
            '{"path": "/workspace/notes.txt", "head": "5"}',
            "ERROR: Invalid arguments: 'head' must be a number",
        ),
    ],
)
def test_refusals_travel_back_as_marked_feedback(
    root: Path, monkeypatch: pytest.MonkeyPatch, arguments: str, expected: str
) -> None:
    spy = spy_reads(monkeypatch)
    trace = run_chain(services={"fs": root}, script=Script(arguments=arguments))
    (call,) = _tool_calls(trace)
    assert call["params"]["arguments"] == json.loads(arguments)  # the value passes unchanged
    _, reply = trace.mcp_pair()
    assert reply is not None and reply["result"]["isError"] is True
    (feedback,) = _feedback(trace)
    assert feedback["output"].startswith(expected)
    assert trace.outcome["status"] == "answered" and "没有读到" in (trace.answer or "")
    text = trace.to_json()
    assert SECRET not in text and str(root) not in text and str(root.resolve()) not in text
    assert spy.calls == []


@pytest.mark.parametrize(
    "arguments, expected",
    [
        ("{not json", "ERROR: arguments is not valid JSON"),
        ("[1, 2]", "ERROR: arguments must be a JSON object, got list"),
        ('"/workspace/notes.txt"', "ERROR: arguments must be a JSON object, got str"),
    ],
)
def test_bad_arguments_never_reach_the_service(
    monkeypatch: pytest.MonkeyPatch, arguments: str, expected: str
) -> None:
    spy = spy_reads(monkeypatch)
    trace = run_chain(script=Script(arguments=arguments))
    assert _tool_calls(trace) == []
    (feedback,) = _feedback(trace)
    assert feedback["output"].startswith(expected)
    assert trace.links[0]["mcp_id"] is None and trace.links[0]["service"] == "fs"
    assert spy.calls == []


def test_unknown_alias_is_fed_back_without_a_call() -> None:
    trace = run_chain(script=Script(tool="fs__write_file"))
    assert _tool_calls(trace) == []
    (feedback,) = _feedback(trace)
    assert feedback["output"] == ("ERROR: unknown tool 'fs__write_file'; declared tools: fs__read_text_file")
    assert trace.links == [
        {
            "call_id": feedback["call_id"],
            "alias": "fs__write_file",
            "service": None,
            "tool": None,
            "mcp_id": None,
        }
    ]


def test_aliases_route_to_the_right_service(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "notes.txt").write_text("docs line 1\ndocs line 2\n", encoding="utf-8")
    trace = run_chain(
        "请用 docs 服务读取 /workspace/notes.txt 的前 1 行。", services={"fs": NOTES.parent, "docs": docs}
    )
    assert [t["alias"] for t in trace.tools] == ["fs__read_text_file", "docs__read_text_file"]
    request_1 = trace.body("request_1") or {}
    assert [t["name"] for t in request_1["tools"]] == ["fs__read_text_file", "docs__read_text_file"]
    (call,) = _tool_calls(trace)
    assert [e["to"] for e in trace.events if e["body"] is call] == ["docs"]
    assert _feedback(trace)[0]["output"] == "docs line 1"
    assert trace.links[0]["service"] == "docs" and trace.links[0]["tool"] == "read_text_file"


def test_max_rounds_offline_stops_before_sending_results() -> None:
    trace = run_chain(limits=Limits(max_rounds=1))
    assert trace.outcome["status"] == "stopped"
    assert trace.outcome["reason"].startswith("max_rounds=1 reached")
    assert trace.find("request_2") == [] and trace.answer is None
    assert len(_tool_calls(trace)) == 1


def test_run_chain_works_inside_a_running_event_loop() -> None:
    """As in Jupyter, where a loop is already running."""

    async def inside() -> Trace:
        return run_chain(head=3)

    trace = asyncio.run(inside())
    assert _feedback(trace)[0]["output"] == "\n".join(notes_lines()[:3])


def test_narration_names_every_message() -> None:
    trace = run_chain(head=5)
    text = narrate(trace)
    assert text.count("\n[") == len(trace.events)
    assert "tools/call id=3 read_text_file" in text and "isError=false 5 行" in text
    assert "答复：" in text and "answered" in text


def test_load_trace_refuses_a_wrong_file(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no such file"):
        load_trace(tmp_path / "nope.json")
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    with pytest.raises(ValueError, match="cannot read .*bad.json as JSON"):
        load_trace(tmp_path / "bad.json")
    (tmp_path / "other.json").write_text('{"format": "x"}', encoding="utf-8")
    with pytest.raises(ValueError, match="not a trace"):
        load_trace(tmp_path / "other.json")
