"""One task, three model APIs: the loop, the stand-ins, tool_choice, state and the real APIs' 400s.

Each chain runs once per session (``runs``); the stand-ins are reached only through the real
``openai`` and ``anthropic`` SDKs.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from _engine_support import clean_env, cli

from lessons_lib.core.traces.trace import Trace

APIS = ("responses", "chat", "anthropic")


@pytest.fixture(scope="session")
def runs() -> dict[str, Trace]:
    from lessons_lib.engine.host import run_chain

    return {api: run_chain(api=api, head=5) for api in APIS}


def tools_call_frames(trace: Trace | dict[str, Any]) -> list[Any]:
    data = trace.to_dict() if isinstance(trace, Trace) else trace
    return [e["body"] for e in data["events"] if e["channel"] == "mcp" and e["label"] == "tools/call"]


def test_every_api_reaches_the_same_answer_through_the_same_mcp_frames(runs: dict[str, Trace]) -> None:
    frames = tools_call_frames(runs["responses"])
    assert frames[0]["params"] == {
        "name": "read_text_file",
        "arguments": {"path": "/workspace/notes.txt", "head": 5},
    }
    for api in ("chat", "anthropic"):
        assert runs[api].outcome["status"] == "answered"
        assert tools_call_frames(runs[api]) == frames
        assert runs[api].answer == runs["responses"].answer
        assert runs[api].model["api"] == api
        assert "离线替身模型" in runs[api].model["label"] and "不是语言模型" in runs[api].model["label"]
    assert "api" not in runs["responses"].model  # part one's traces stay as they were


@pytest.mark.parametrize("api", ["chat", "anthropic"])
def test_cli_run_json_is_accepted_by_verify_roundtrip_and_diagnose(
    api: str, tmp_path: Any, runs: dict[str, Trace]
) -> None:
    from lessons_lib.cli import main

    done = cli("run", "--api", api, "--head", "5", "--json")
    assert done.returncode == 0, done.stderr
    # the Responses run of the same task (python -m lessons_lib run --head 5 --json, in this process)
    assert tools_call_frames(json.loads(done.stdout)) == tools_call_frames(runs["responses"])
    path = tmp_path / "trace.json"
    path.write_text(done.stdout, encoding="utf-8")
    checked = cli("verify-roundtrip", str(path))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "全部通过" in checked.stdout
    assert main(["diagnose", str(path)]) == 0


def test_live_without_the_api_key_is_bad_input() -> None:
    done = cli("run", "--api", "anthropic", "--live", env=clean_env(ANTHROPIC_API_KEY=""))
    assert done.returncode == 2
    assert "ANTHROPIC_API_KEY" in done.stderr and "Traceback" not in done.stderr
    from lessons_lib.engine.host import run_chain

    with pytest.raises(RuntimeError, match="ANTHROPIC_API_KEY"):
        run_chain(api="anthropic", live=True) if not __import__("os").environ.get("ANTHROPIC_API_KEY") else (
            pytest.skip("a real ANTHROPIC_API_KEY is set")
        )
    # Responses takes a first-request tool_choice too (lesson 08): "none" means no call at all.
    none = run_chain(tool_choice="none")
    assert none.body("request_1")["tool_choice"] == "none" and not none.find("tools/call", channel="mcp")


def test_live_setting_reads_its_own_key_and_the_trace_never_shows_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from lessons_lib.engine.apis import open_api

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-Qz7SECRETVALUE42")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    adapter, setting, public = open_api("anthropic", live=True)
    assert setting.key == "sk-ant-test-Qz7SECRETVALUE42" and setting.mode == "live"
    assert "SECRET" not in json.dumps(public) and public["api"] == "anthropic"
    with pytest.raises(RuntimeError, match="OPENAI_API_KEY"):
        open_api("chat", live=True)


def _messages_of(trace: Trace, label: str) -> Any:
    return trace.body(label, channel="model")


def test_chat_tool_choice_none_means_no_call_and_named_forces_one() -> None:
    from lessons_lib.engine.host import run_chain
    from lessons_lib.engine.standins.rules import NO_TOOL_TEXT

    none = run_chain(api="chat", tool_choice="none")
    assert tools_call_frames(none) == [] and none.answer == NO_TOOL_TEXT
    assert _messages_of(none, "request_1")["tool_choice"] == "none"
    named = {"type": "function", "function": {"name": "fs__read_text_file"}}
    forced = run_chain(api="chat", tool_choice=named)
    assert forced.outcome["status"] == "answered"
    assert [f["params"]["name"] for f in tools_call_frames(forced) if "method" in f] == ["read_text_file"]
    assert _messages_of(forced, "request_1")["tool_choice"] == named
    assert _messages_of(forced, "request_2")["tool_choice"] == "auto"  # the override is the first request's


@pytest.mark.parametrize(("api", "forcing"), [("chat", "required"), ("anthropic", {"type": "any"})])
def test_a_forcing_tool_choice_never_lets_the_model_answer(api: str, forcing: Any) -> None:
    from _apis_support import api_fixture

    from lessons_lib.apis.replay import replay

    request = dict(api_fixture(api, "request_2.json"), tool_choice=forcing)
    reply = replay(api, request)
    if api == "chat":
        assert reply.body["choices"][0]["finish_reason"] == "tool_calls"
    else:
        assert reply.body["stop_reason"] == "tool_use"


def test_anthropic_tool_choice_and_disable_parallel_tool_use(tmp_path: Any) -> None:
    from lessons_lib.engine.host import run_chain

    assert tools_call_frames(run_chain(api="anthropic", tool_choice={"type": "none"})) == []
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "notes.txt").write_text("x\n", encoding="utf-8")
    services = {"fs": tmp_path / "a", "backup": tmp_path / "a"}
    task = "用 fs 和 backup 读取 /workspace/notes.txt 的前 1 行。"
    both = run_chain(task, api="anthropic", services=services)
    one = run_chain(
        task,
        api="anthropic",
        services=services,
        tool_choice={"type": "any", "disable_parallel_tool_use": True},
    )
    uses = [b for b in _messages_of(both, "response_1")["content"] if b["type"] == "tool_use"]
    assert [b["name"] for b in uses] == ["fs__read_text_file", "backup__read_text_file"]
    assert len([b for b in _messages_of(one, "response_1")["content"] if b["type"] == "tool_use"]) == 1


def test_anthropic_answers_400_when_a_tool_use_has_no_tool_result() -> None:
    from _apis_support import api_fixture

    from lessons_lib.apis.replay import replay

    request = api_fixture("anthropic", "request_2.json")
    assert replay("anthropic", request).status == 200
    no_result = dict(request, messages=request["messages"][:2] + [{"role": "user", "content": "继续"}])
    reply = replay("anthropic", no_result)
    assert reply.status == 400 and reply.body["type"] == "error"
    assert "`tool_use` ids were found without `tool_result` blocks immediately after" in str(
        reply.error_message
    )
    no_use = dict(request, messages=[request["messages"][0], request["messages"][2]])
    assert "unexpected `tool_use_id`" in str(replay("anthropic", no_use).error_message)
    as_assistant = json.loads(json.dumps(request))
    as_assistant["messages"][2]["role"] = "assistant"
    assert replay("anthropic", as_assistant).status == 400


def test_chat_and_responses_refuse_feedback_without_its_call() -> None:
    from _apis_support import api_fixture

    from lessons_lib.apis.replay import replay

    chat = api_fixture("chat", "request_2.json")
    no_id = json.loads(json.dumps(chat))
    del no_id["messages"][2]["tool_call_id"]
    assert "tool_call_id" in str(replay("chat", no_id).error_message)
    no_call = dict(chat, messages=[chat["messages"][0], chat["messages"][2]])
    assert "must be a response to a preceeding message with 'tool_calls'" in str(
        replay("chat", no_call).error_message
    )
    from _engine_support import DATA_DIR

    responses = json.loads((DATA_DIR / "request_2.json").read_text("utf-8"))
    assert replay("responses", responses).ok
    dropped = dict(responses, input=[i for i in responses["input"] if i.get("type") != "function_call"])
    assert "No tool call found for function call output" in str(replay("responses", dropped).error_message)


def test_previous_response_id_carries_the_context_on_the_server() -> None:
    from _engine_support import DATA_DIR

    from lessons_lib.apis.replay import replay, replay_all

    first = json.loads((DATA_DIR / "request_1.json").read_text("utf-8"))
    full = json.loads((DATA_DIR / "request_2.json").read_text("utf-8"))
    feedback = [i for i in full["input"] if i["type"] == "function_call_output"]
    one, two = replay_all(
        "responses",
        [
            first,
            {
                "model": first["model"],
                "previous_response_id": "resp_offline_001",
                "input": feedback,
                "tools": first["tools"],
            },
        ],
    )
    assert one.ok and two.ok and two.body["previous_response_id"] == "resp_offline_001"
    resent = replay_all("responses", [first, full])[1]
    assert two.body["output"] == resent.body["output"]  # same answer, a shorter request
    unknown = replay("responses", {"model": "m", "previous_response_id": "resp_nope", "input": feedback})
    assert unknown.status == 400 and "resp_nope" in str(unknown.error_message)
    error = unknown.body["error"]  # the documented Error: the parameter and a code are named
    assert (error["param"], error["code"]) == ("previous_response_id", "previous_response_not_found")
    chained = {"model": first["model"], "previous_response_id": "resp_offline_001", "input": feedback}
    unstored = replay_all("responses", [dict(first, store=False), chained])
    assert unstored[0].body["store"] is False and unstored[1].status == 400  # only stored ones chain


class _Spy:
    """An httpx2 transport that records request headers and hands the request to a stand-in."""

    def __init__(self, inner: Any, seen: list[dict[str, str]]) -> None:
        self.inner, self.seen = inner, seen

    async def handle_async_request(self, request: Any) -> Any:
        self.seen.append({k.lower(): v for k, v in request.headers.items()})
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        return None


@pytest.mark.parametrize(
    ("api", "variable", "header"),
    # anthropic 2.14 sends the key as "Authorization: Bearer" (see its _api_key_auth), like openai
    [("anthropic", "ANTHROPIC_API_KEY", "authorization"), ("chat", "OPENAI_API_KEY", "authorization")],
)
def test_live_mode_sends_its_own_key_and_never_writes_it(
    api: str, variable: str, header: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Live mode is the same code path: only the transport (a spy around the stand-in) and the key differ."""
    import httpx2

    from lessons_lib.apis.anthropic.standin import OfflineAnthropic
    from lessons_lib.apis.chat.standin import OfflineChat
    from lessons_lib.engine.host import run_chain

    secret = "sk-live-test-Qz7SECRETVALUE42abcdef"
    seen: list[dict[str, str]] = []
    stand_in = OfflineAnthropic() if api == "anthropic" else OfflineChat()
    for name in ("ANTHROPIC_BASE_URL", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(variable, secret)
    monkeypatch.setattr(httpx2, "AsyncHTTPTransport", lambda *a, **k: _Spy(stand_in, seen))
    trace = run_chain(api=api, live=True, head=5)
    assert trace.outcome["status"] == "answered" and trace.model["mode"] == "live"
    assert seen and all(secret in h.get(header, "") for h in seen)
    assert "SECRETVALUE" not in trace.to_json()


def test_the_deprecated_functions_shape_is_served_and_documented() -> None:
    from _apis_support import api_fixture, chat_errors

    from lessons_lib.apis.replay import replay

    rule = api_fixture("chat", "request_1.json")["tools"][0]["function"]
    task = [{"role": "user", "content": "请读取 /workspace/notes.txt 的前 3 行。"}]
    legacy = {"model": "gpt-4.1", "messages": task, "functions": [rule], "function_call": "auto"}
    assert chat_errors(request=legacy) == []
    old = replay("chat", legacy)
    assert chat_errors(response=old.body) == []
    choice = old.body["choices"][0]
    assert choice["finish_reason"] == "function_call" and "id" not in choice["message"]["function_call"]
    call = choice["message"]["function_call"]
    back = dict(
        legacy,
        messages=[
            *task,
            {"role": "assistant", "content": None, "function_call": call},
            {"role": "function", "name": call["name"], "content": "01\n02\n03"},
        ],
    )
    assert chat_errors(request=back) == []
    assert replay("chat", back).body["choices"][0]["message"]["content"].endswith("01\n02\n03")
