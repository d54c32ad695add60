"""The host's extension points: adapters, several services, several calls in one reply, pairing.

A service can be any low-level MCP server (``services={"desk": factory}``); the calls of one
reply run concurrently and each is answered exactly once, by its ``call_id``, in the calls'
order; a call without a ``call_id`` or too many calls stop the run before anything runs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from _engine_support import NOTES, cli, notes_lines, spy_reads, stable
from _fake_openai import FAKE_KEY, FakeOpenAI, message, response_body

from lessons_lib.apis.responses.adapter import ResponsesAdapter
from lessons_lib.core.plugins.apiregistry import names
from lessons_lib.core.traces.trace import Trace
from lessons_lib.engine.adapters import ModelAdapter
from lessons_lib.engine.apis import make_adapter
from lessons_lib.engine.host import Limits, run_chain


@pytest.fixture
def live_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    for name in ("LESSONS_MODEL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    yield monkeypatch


def call_item(n: int, name: str, arguments: object, call_id: str | None = "default") -> dict[str, Any]:
    item: dict[str, Any] = {"type": "function_call", "id": f"fc_{n}", "name": name, "arguments": arguments}
    if call_id is not None:
        item["call_id"] = f"call_{n}" if call_id == "default" else call_id
    item["status"] = "completed"
    return item


def barrier_server(parties: int) -> Any:
    """A factory for a server whose ``meet`` tool answers only once ``parties`` calls are inside."""
    import mcp_types as types
    from mcp.server import Server

    def factory(name: str) -> Any:
        inside = 0
        everyone = anyio.Event()
        tool = types.Tool(
            name="meet", input_schema={"type": "object", "properties": {"tag": {"type": "string"}}}
        )

        async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
            return types.ListToolsResult(tools=[tool])

        async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
            nonlocal inside
            inside += 1
            if inside == parties:
                everyone.set()
            with anyio.move_on_after(3):
                await everyone.wait()
            tag = (params.arguments or {}).get("tag")
            text = f"met {tag}" if everyone.is_set() else f"alone {tag}"
            return types.CallToolResult(content=[types.TextContent(type="text", text=text)])

        return Server(name, on_list_tools=on_list_tools, on_call_tool=on_call_tool)

    return factory


def _outputs(api: FakeOpenAI, n: int) -> list[dict[str, Any]]:
    return [i for i in api.bodies[n]["input"] if i.get("type") == "function_call_output"]


def test_the_responses_adapter_meets_the_protocol() -> None:
    adapter: ModelAdapter = make_adapter("responses")
    assert isinstance(adapter, ResponsesAdapter) and names() == ("responses", "chat", "anthropic")
    with pytest.raises(ValueError, match="unknown model API 'nope'; known: responses, chat, anthropic"):
        make_adapter("nope")
    with pytest.raises(ValueError, match="unknown model API"):
        run_chain(api="nope")


def test_calls_of_one_reply_run_concurrently_and_are_answered_in_order(live_env: pytest.MonkeyPatch) -> None:
    calls = [call_item(n, "desk__meet", json.dumps({"tag": f"t{n}"})) for n in (1, 2, 3)]
    with FakeOpenAI([(200, response_body(1, calls)), message(2, "done")]) as api:
        live_env.setenv("OPENAI_BASE_URL", api.base_url)
        trace = run_chain("meet", live=True, services={"desk": barrier_server(3)})
    assert trace.outcome["status"] == "answered", trace.outcome
    # each call answered once, by its call_id, in the calls' order; all three were inside at once
    assert _outputs(api, 1) == [
        {"type": "function_call_output", "call_id": f"call_{n}", "output": f"met t{n}"} for n in (1, 2, 3)
    ]
    requests = [e for e in trace.find("tools/call", "mcp") if "method" in e["body"]]
    assert [e["body"]["params"]["arguments"]["tag"] for e in requests] == ["t1", "t2", "t3"]
    assert [link["mcp_id"] for link in trace.links] == [e["body"]["id"] for e in requests]
    assert [link["call_id"] for link in trace.links] == ["call_1", "call_2", "call_3"]
    # the model's output goes back before the feedback, exactly as received
    assert api.bodies[1]["input"][1:4] == calls


def test_two_kinds_of_service_in_one_run(live_env: pytest.MonkeyPatch) -> None:
    calls = [
        call_item(1, "fs__read_text_file", json.dumps({"path": "/workspace/notes.txt", "head": 1})),
        call_item(2, "desk__meet", json.dumps({"tag": "x"})),
    ]
    with FakeOpenAI([(200, response_body(1, calls)), message(2, "done")]) as api:
        live_env.setenv("OPENAI_BASE_URL", api.base_url)
        trace = run_chain("both", live=True, services={"fs": NOTES.parent, "desk": barrier_server(1)})
    assert [t["alias"] for t in trace.tools] == ["fs__read_text_file", "desk__meet"]
    assert [o["output"] for o in _outputs(api, 1)] == [notes_lines()[0], "met x"]
    assert [(link["service"], link["mcp_id"]) for link in trace.links] == [("fs", 3), ("desk", 3)]


@pytest.mark.parametrize("missing", [None, ""])
def test_a_call_without_call_id_stops_the_run_and_runs_nothing(
    live_env: pytest.MonkeyPatch, missing: str | None
) -> None:
    spy = spy_reads(live_env)
    good = call_item(1, "fs__read_text_file", json.dumps({"path": "/workspace/notes.txt"}))
    bad = call_item(2, "fs__read_text_file", json.dumps({"path": "/workspace/notes.txt"}), call_id=missing)
    with FakeOpenAI([(200, response_body(1, [good, bad])), message(2, "never")]) as api:
        live_env.setenv("OPENAI_BASE_URL", api.base_url)
        trace = run_chain(live=True)
    assert stable(trace.outcome) == {
        "status": "error",
        "reason": "tool call 2 of response_1 has no call_id, so its result could not be paired; "
        "nothing was executed",
    }
    assert len(api.bodies) == 1 and spy.calls == [] and trace.find("tools/call") == []


def test_a_repeated_call_id_stops_the_run(live_env: pytest.MonkeyPatch) -> None:
    args = json.dumps({"path": "/workspace/notes.txt"})
    twice = [call_item(1, "fs__read_text_file", args, "c"), call_item(2, "fs__read_text_file", args, "c")]
    with FakeOpenAI([(200, response_body(1, twice))]) as api:
        live_env.setenv("OPENAI_BASE_URL", api.base_url)
        trace = run_chain(live=True)
    assert trace.outcome["status"] == "error" and "call_id c appears twice" in trace.outcome["reason"]
    assert trace.find("tools/call") == []


def test_too_many_calls_in_one_reply_stop_with_the_cap_stated(live_env: pytest.MonkeyPatch) -> None:
    spy = spy_reads(live_env)
    args = json.dumps({"path": "/workspace/notes.txt"})
    many = [call_item(n, "fs__read_text_file", args) for n in range(500)]
    with FakeOpenAI([(200, response_body(1, many))]) as api:
        live_env.setenv("OPENAI_BASE_URL", api.base_url)
        trace = run_chain(live=True, limits=Limits(max_calls=16))
    assert stable(trace.outcome) == {
        "status": "stopped",
        "reason": "response_1 asks for 500 tool calls; the cap is Limits.max_calls=16 per reply, "
        "so none was executed",
    }
    assert spy.calls == [] and trace.find("tools/call") == []


def test_run_chain_has_typed_keywords_and_checks_lines_once() -> None:
    import inspect

    params = inspect.signature(run_chain).parameters
    assert not any(p.kind is p.VAR_KEYWORD for p in params.values())
    assert {"path", "head", "tail", "services", "live", "api", "limits"} <= set(params)
    with pytest.raises(TypeError):
        run_chain(heads=5)  # type: ignore[call-arg]
    for bad in ("5", 2.5, True):
        with pytest.raises(ValueError, match="must be a whole number of lines or None"):
            run_chain(head=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/etc/passwd", "Access denied - path outside allowed directories: /etc/passwd not in /workspace"),
        ("/workspace/a b.txt", "File not found: /workspace/a b.txt"),
    ],
)
def test_run_path_reaches_the_call_unchanged(path: str, expected: str) -> None:
    done = cli("run", "--path", path, "--json")
    trace = Trace.from_dict(json.loads(done.stdout))
    request, reply = trace.mcp_pair()
    assert request["params"]["arguments"]["path"] == path
    assert reply is not None and reply["result"]["content"][0]["text"] == expected
    assert done.returncode == 1


@pytest.mark.parametrize("extra", [["--head", "5"], ["--tail", "2"], ["--path", "/workspace/x.txt"]])
def test_run_refuses_task_with_head_tail_or_path(extra: list[str]) -> None:
    done = cli("run", "--task", "读点东西", *extra)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().count("\n") == 0 and "--task" in done.stderr and extra[0] in done.stderr
