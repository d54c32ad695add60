"""Every live path of the course against a misbehaving endpoint on 127.0.0.1 (issue 22).

The paths: read_text_file through Responses, Chat Completions and Anthropic Messages, the
order desk, and the OpenAPI-routed call (lesson 40's generated tools and router; all through the
one loop, ``engine/host``). The endpoint (``tests/_fake_openai``)
either echoes the key back -- in the answer, in a call's arguments, in a tool name -- or
answers an HTTP error that quotes the key's end, or sends JSON cut in the middle. Each run is
the command line in this process (``lessons_lib.cli.main``, its output captured) in an empty
working folder: no fragment of the key (8 characters or more) may show in stdout, stderr or any
file the run writes; a bad reply is one line and exit 1 or 2, never a traceback.
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from _fake_openai import (
    FAKE_KEY,
    FAKE_SECRET,
    FakeOpenAI,
    Raw,
    Reply,
    api_error,
    function_call,
    message,
    response_body,
)

from lessons_lib.cli import main
from lessons_lib.engine import host
from lessons_lib.engine.host import Limits
from lessons_lib.examples.orders import run as orders_run
from lessons_lib.examples.orders.guards import Guards

ARGS = json.dumps({"path": "/workspace/notes.txt", "head": 3})
ECHOED = json.dumps({"path": f"/workspace/{FAKE_KEY}.txt", "head": 2})
ANSWER = f"your key is {FAKE_KEY}; again {FAKE_SECRET[:6]}...{FAKE_SECRET[-6:]}, a piece {FAKE_SECRET[10:19]}"
ERROR = f"Incorrect API key provided: sk-test-****{FAKE_SECRET[-8:]}"
TRUNCATED = Raw(b'{"id": "resp_cut", "object": "resp')


def _responses(n: int, body: dict[str, Any]) -> Reply:
    if n > 1:
        return message(n, ANSWER)
    calls = [
        function_call(1, ECHOED)[1]["output"][0],
        {**function_call(1, ARGS)[1]["output"][0], "call_id": "call_b", "name": f"fs__{FAKE_SECRET}"},
    ]
    return 200, response_body(1, calls)


def _orders(n: int, body: dict[str, Any]) -> Reply:
    if n > 1:
        return message(n, ANSWER)
    calls = [
        function_call(1, json.dumps({"order_id": FAKE_KEY}), "orders__get_order")[1]["output"][0],
        {**function_call(1, "{}")[1]["output"][0], "call_id": "call_b", "name": f"orders__{FAKE_SECRET}"},
    ]
    return 200, response_body(1, calls)


def _openapi(n: int, body: dict[str, Any]) -> Reply:
    if n > 1:
        return message(n, ANSWER)
    calls = [
        function_call(1, json.dumps({"order_id": FAKE_KEY}), "get_order")[1]["output"][0],
        {**function_call(1, "{}")[1]["output"][0], "call_id": "call_b", "name": FAKE_SECRET},
    ]
    return 200, response_body(1, calls)


def _chat(n: int, body: dict[str, Any]) -> Reply:
    message_: dict[str, Any] = {"role": "assistant", "content": ANSWER, "refusal": None}
    if n == 1:
        message_["content"] = None
        message_["tool_calls"] = [
            {
                "id": "call_a",
                "type": "function",
                "function": {"name": "fs__read_text_file", "arguments": ECHOED},
            },
            {
                "id": "call_b",
                "type": "function",
                "function": {"name": f"fs__{FAKE_SECRET}", "arguments": ARGS},
            },
        ]
    choice = {
        "index": 0,
        "finish_reason": "tool_calls" if n == 1 else "stop",
        "logprobs": None,
        "message": message_,
    }
    return 200, {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": 0,
        "model": "gpt-4.1",
        "choices": [choice],
    }


def _anthropic(n: int, body: dict[str, Any]) -> Reply:
    content: list[dict[str, Any]] = [{"type": "text", "text": ANSWER}]
    if n == 1:
        content = [
            {"type": "tool_use", "id": "toolu_a", "name": "fs__read_text_file", "input": json.loads(ECHOED)},
            {"type": "tool_use", "id": "toolu_b", "name": f"fs__{FAKE_SECRET}", "input": json.loads(ARGS)},
        ]
    return 200, {
        "id": f"msg_{n}",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": content,
        "stop_reason": "tool_use" if n == 1 else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


# path -> (command line, the echoing script, the key's and the base URL's variables)
PATHS: dict[str, tuple[list[str], Any, str, str]] = {
    "responses": (["run", "--live", "--json"], _responses, "OPENAI_API_KEY", "OPENAI_BASE_URL"),
    "chat": (["run", "--live", "--api", "chat", "--json"], _chat, "OPENAI_API_KEY", "OPENAI_BASE_URL"),
    "anthropic": (
        ["run", "--live", "--api", "anthropic", "--json"],
        _anthropic,
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
    ),
    "orders": (
        ["run", "--example", "orders", "--scenario", "parallel", "--live", "--json"],
        _orders,
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
    ),
    "openapi": (
        ["run", "--example", "openapi", "--way", "openapi", "--live", "--json"],
        _openapi,
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
    ),
}
LIVE_VARIABLES = (
    "LESSONS_MODEL",
    "OPENAI_ORG_ID",
    "OPENAI_PROJECT_ID",
    "OPENAI_BASE_URL",
    "ANTHROPIC_BASE_URL",
)


def assert_no_key(text: str, where: str) -> None:
    for start in range(len(FAKE_SECRET) - 7):
        assert FAKE_SECRET[start : start + 8] not in text, f"key fragment at {start} leaked in {where}"


def _run(
    path: str,
    script: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, str, str]:
    argv, _, key_variable, url_variable = PATHS[path]
    for name in LIVE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(key_variable, FAKE_KEY)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.chdir(tmp_path)
    # The bounds hold as they are; only their defaults are raised, so a loaded CI machine still
    # reaches the answer (the time bounds have their own tests in test_hardening_live).
    monkeypatch.setattr(host, "Limits", partial(Limits, call_timeout=60, total_timeout=240))
    monkeypatch.setattr(orders_run, "Guards", partial(Guards, call_timeout=60, total_timeout=240))
    with FakeOpenAI(script) as api:
        base = api.base_url.removesuffix("/v1") if path == "anthropic" else api.base_url
        monkeypatch.setenv(url_variable, base)
        code = main(argv)
    out, err = capsys.readouterr()
    assert_no_key(out, "stdout")
    assert_no_key(err, "stderr")
    for written in tmp_path.rglob("*"):
        if written.is_file():
            assert_no_key(written.read_text(encoding="utf-8", errors="replace"), str(written))
    assert "Traceback" not in out + err
    return code, out, err


@pytest.mark.parametrize("path", list(PATHS))
def test_a_key_echoed_in_answer_arguments_and_tool_name_never_shows(
    path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(path, PATHS[path][1], tmp_path, monkeypatch, capsys)
    trace = json.loads(out)
    assert trace["outcome"]["status"] == "answered", trace["outcome"]
    assert "***" in trace["answer"], "the echoed key was cleaned, not dropped"
    assert code in (0, 1)


def _error(n: int, body: dict[str, Any]) -> Reply:
    return api_error(401, ERROR, "authentication_error")


@pytest.mark.parametrize("reply", ["error", "truncated"])
@pytest.mark.parametrize("path", list(PATHS))
def test_a_bad_reply_is_one_line_and_exit_1_or_2(
    path: str, reply: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _error if reply == "error" else [TRUNCATED]
    code, out, _ = _run(path, script, tmp_path, monkeypatch, capsys)
    outcome = json.loads(out)["outcome"]
    assert code in (1, 2) and outcome["status"] in ("error", "stopped"), outcome
    reason = outcome["reason"]
    assert reason and "\n" not in reason and len(reason) < 300, reason


def test_the_openapi_account_in_text_is_clean_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The account quotes the hops (tool names, the order id in the URL): cleaned like the trace."""
    argv = [a for a in PATHS["openapi"][0] if a != "--json"]
    monkeypatch.setitem(PATHS, "text", (argv, *PATHS["openapi"][1:]))
    code, out, _ = _run("text", _openapi, tmp_path, monkeypatch, capsys)
    assert "执行经过" in out and code in (0, 1)
