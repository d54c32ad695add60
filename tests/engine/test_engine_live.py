"""The live path without a paid key: the real SDK against a fake OpenAI-compatible server.

``OPENAI_BASE_URL`` points at a stdlib HTTP server on 127.0.0.1 and ``OPENAI_API_KEY`` holds a
fake key. Covered: a normal two-round run, HTTP 401 and 500, a server that never answers (per
call and total time bounds), ``arguments`` that are not JSON, a model that never stops calling
(``max_rounds``), and the rule that the key shows up in no trace, printout or saved file.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _engine_support import clean_env, cli, notes_lines, spy_reads, stable
from _fake_openai import FAKE_KEY, FAKE_SECRET, HANG, FakeOpenAI, api_error, function_call, message

from lessons_lib.core.traces.trace import Trace
from lessons_lib.engine.host import Limits, run_chain

ARGS_HEAD_3 = json.dumps({"path": "/workspace/notes.txt", "head": 3})
OPENAI_ECHO = (
    f"Incorrect API key provided: {FAKE_KEY[:11]}{'*' * 18}{FAKE_KEY[-4:]}. "
    "You can find your API key at https://platform.openai.com/account/api-keys."
)


@pytest.fixture
def live_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    for name in ("LESSONS_MODEL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    yield monkeypatch


def _live(api: FakeOpenAI, monkeypatch: pytest.MonkeyPatch, **kwargs: Any) -> Trace:
    monkeypatch.setenv("OPENAI_BASE_URL", api.base_url)
    return run_chain(live=True, **kwargs)


def assert_no_key(text: str) -> None:
    """Neither the key, nor any 3 characters of its secret part next to a mask or the key prefix."""
    assert FAKE_KEY not in text
    assert FAKE_SECRET[:8] not in text and FAKE_SECRET[-8:] not in text
    assert not re.search(r"sk-test-[A-Za-z0-9]", text), "the echoed key prefix survived"
    assert FAKE_SECRET[:3] + "*" not in text and "*" + FAKE_SECRET[-4:] not in text


def _mcp_calls(trace: Trace) -> list[dict[str, Any]]:
    return [e["body"] for e in trace.find("tools/call", "mcp") if "method" in e["body"]]


def test_two_rounds_against_a_fake_server(live_env: pytest.MonkeyPatch) -> None:
    with FakeOpenAI([function_call(1, ARGS_HEAD_3), message(2, "Here are the three lines.")]) as api:
        trace = _live(api, live_env)
    assert stable(trace.outcome) == {"status": "answered", "reason": "the model answered after the feedback"}
    assert trace.answer == "Here are the three lines."
    assert trace.model["mode"] == "live" and trace.model["name"] == "gpt-4.1"
    assert api.paths == ["/v1/responses", "/v1/responses"]
    assert api.authorizations == [f"Bearer {FAKE_KEY}"] * 2  # the key was used...
    assert_no_key(trace.to_json())  # ...and written nowhere
    # The trace holds exactly the bodies that went over HTTP.
    assert trace.body("request_1") == api.bodies[0] and trace.body("request_2") == api.bodies[1]
    assert trace.body("response_1", channel="model")["id"] == "resp_fake_001"  # type: ignore[index]
    (call,) = _mcp_calls(trace)
    assert call["params"]["arguments"] == {"path": "/workspace/notes.txt", "head": 3}
    feedback = [i for i in api.bodies[1]["input"] if i["type"] == "function_call_output"]
    assert feedback == [
        {"type": "function_call_output", "call_id": "call_fake_001", "output": "\n".join(notes_lines()[:3])}
    ]
    # The model's own output item goes back unchanged, before the feedback that answers it.
    assert api.bodies[1]["input"][1]["call_id"] == "call_fake_001"
    assert api.bodies[0]["tool_choice"] == "required" and api.bodies[1]["tool_choice"] == "auto"


def test_http_401_is_an_error_outcome_and_the_echoed_key_is_masked(live_env: pytest.MonkeyPatch) -> None:
    with FakeOpenAI([api_error(401, OPENAI_ECHO, code="invalid_api_key")]) as api:
        trace = _live(api, live_env)
    assert trace.outcome["status"] == "error"
    assert trace.outcome["reason"].startswith("the model API answered HTTP 401: Incorrect API key provided")
    assert trace.answer is None
    assert [e["label"] for e in trace.events if e["channel"] == "model"] == ["request_1", "http_error_1"]
    assert_no_key(trace.to_json())
    assert _mcp_calls(trace) == []


def test_http_500_is_an_error_outcome_without_retries(live_env: pytest.MonkeyPatch) -> None:
    with FakeOpenAI(
        [api_error(500, "The server had an error while processing your request.", "server_error")]
    ) as api:
        trace = _live(api, live_env)
    assert trace.outcome["status"] == "error"
    assert "HTTP 500" in trace.outcome["reason"] and "server had an error" in trace.outcome["reason"]
    assert len(api.bodies) == 1


def test_hung_server_is_stopped_by_the_call_timeout(live_env: pytest.MonkeyPatch) -> None:
    start = time.monotonic()
    with FakeOpenAI([HANG]) as api:
        trace = _live(api, live_env, limits=Limits(call_timeout=1, total_timeout=3))
    elapsed = time.monotonic() - start
    assert stable(trace.outcome) == {"status": "stopped", "reason": "the model API did not answer within 1 s"}
    assert 0.9 <= elapsed < 3
    assert len(api.bodies) == 1


def test_total_time_bound_stops_a_run(live_env: pytest.MonkeyPatch) -> None:
    start = time.monotonic()
    with FakeOpenAI([HANG]) as api:
        trace = _live(api, live_env, limits=Limits(call_timeout=20, total_timeout=1))
    assert time.monotonic() - start < 3
    assert stable(trace.outcome) == {"status": "stopped", "reason": "total time bound of 1 s reached"}


def test_invalid_arguments_json_is_fed_back_and_nothing_is_called(live_env: pytest.MonkeyPatch) -> None:
    spy = spy_reads(live_env)
    broken = '{"path": "/workspace/notes.txt", "head": 5'
    with FakeOpenAI([function_call(1, broken), message(2, "I could not read it.")]) as api:
        trace = _live(api, live_env)
    assert trace.outcome["status"] == "answered" and trace.answer == "I could not read it."
    (feedback,) = [i for i in api.bodies[1]["input"] if i["type"] == "function_call_output"]
    assert feedback["call_id"] == "call_fake_001"
    assert feedback["output"].startswith("ERROR: arguments is not valid JSON")
    assert "nothing was executed" in feedback["output"]
    assert _mcp_calls(trace) == []
    assert trace.links == [
        {
            "call_id": "call_fake_001",
            "alias": "fs__read_text_file",
            "service": "fs",
            "tool": "read_text_file",
            "mcp_id": None,
        }
    ]
    assert spy.calls == []


def test_max_rounds_stops_a_model_that_never_stops_calling(live_env: pytest.MonkeyPatch) -> None:
    with FakeOpenAI(lambda n, body: function_call(n, ARGS_HEAD_3)) as api:
        trace = _live(api, live_env, limits=Limits(max_rounds=2))
    assert trace.outcome["status"] == "stopped"
    assert "max_rounds=2" in trace.outcome["reason"]
    assert len(api.bodies) == 2
    assert len(_mcp_calls(trace)) == 2
    assert trace.answer is None


def test_cli_live_json_and_narration_never_print_the_key(tmp_path: Path) -> None:
    script = [
        function_call(1, ARGS_HEAD_3),
        message(2, "ok"),
        api_error(401, OPENAI_ECHO, code="invalid_api_key"),
    ]
    with FakeOpenAI(script) as api:
        env = clean_env(OPENAI_API_KEY=FAKE_KEY, OPENAI_BASE_URL=api.base_url)
        good = cli("run", "--live", "--json", env=env, cwd=tmp_path)
        bad = cli("run", "--live", env=env, cwd=tmp_path)
    assert good.returncode == 0, good.stderr
    trace = json.loads(good.stdout)
    assert trace["model"]["mode"] == "live" and trace["answer"] == "ok"
    assert bad.returncode == 1
    assert "HTTP 401" in bad.stdout and "Traceback" not in bad.stderr
    for text in (good.stdout, good.stderr, bad.stdout, bad.stderr):
        assert_no_key(text)
    saved = tmp_path / "trace.json"
    saved.write_text(Trace.from_dict(trace).to_json(), encoding="utf-8")
    assert_no_key(saved.read_text(encoding="utf-8"))
    assert api.authorizations[0] == f"Bearer {FAKE_KEY}"


def test_unreachable_base_url_is_a_stated_error(live_env: pytest.MonkeyPatch) -> None:
    with FakeOpenAI([]) as api:
        url = api.base_url  # the port is free again once the server is closed
    live_env.setenv("OPENAI_BASE_URL", url)
    trace = run_chain(live=True, limits=Limits(call_timeout=2, total_timeout=5))
    assert trace.outcome["status"] == "error"
    assert "cannot reach the model API" in trace.outcome["reason"]


def test_fake_responses_are_valid_sdk_responses() -> None:
    from openai.types.responses import Response

    for status, body in (function_call(1, ARGS_HEAD_3), message(2, "x")):
        assert status == 200
        Response.model_validate(body)
