"""Live mode against a misbehaving OpenAI-compatible endpoint on 127.0.0.1 (issue 11, points 1-4).

Every reply below comes from a local HTTP server that each test starts and stops; every run
has a small time bound, and the test checks that the run ended within it, with one clear
line as its outcome, never a traceback, and never the key.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _engine_support import clean_env, cli, stable
from _fake_openai import FAKE_KEY, FAKE_SECRET, FakeOpenAI, Raw, Reply, function_call, message, response_body

from lessons_lib.core.traces.trace import Trace
from lessons_lib.engine.host import Limits, run_chain
from lessons_lib.engine.models import MAX_REPLY_BYTES

BOUND = Limits(call_timeout=2, total_timeout=6)
SLACK = 3.0  # seconds allowed beyond the run's own bound (process and thread scheduling)
ARGS = json.dumps({"path": "/workspace/notes.txt", "head": 3})


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    """One offline run first, so the timed runs below do not pay for importing the SDKs."""
    import openai  # noqa: F401  (the live client's first import costs about 1 s)

    run_chain()


@pytest.fixture
def live_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    for name in ("LESSONS_MODEL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    yield monkeypatch


def timed_run(script: list[Reply], monkeypatch: pytest.MonkeyPatch, **kw: Any) -> tuple[Trace, float]:
    limits = kw.pop("limits", BOUND)
    with FakeOpenAI(script) as api:
        monkeypatch.setenv("OPENAI_BASE_URL", api.base_url)
        start = time.monotonic()
        trace = run_chain(live=True, limits=limits, **kw)
        elapsed = time.monotonic() - start
    assert elapsed < limits.total_timeout + SLACK, f"the run took {elapsed:.1f} s"
    return trace, elapsed


def one_line(reason: str) -> None:
    assert reason and "\n" not in reason and len(reason) < 300 and "Traceback" not in reason, reason


# --- point 1: long text, huge or endless replies -----------------------------------------------


def test_a_long_answer_line_is_answered_within_the_bound(live_env: pytest.MonkeyPatch) -> None:
    long_line = "长" * 1_000 + "x" * 60_000  # a run of key-like characters made the old redact quadratic
    trace, _ = timed_run([function_call(1, ARGS), message(2, long_line)], live_env)
    assert trace.outcome["status"] == "answered", trace.outcome
    assert trace.answer == long_line


def test_a_long_tool_result_line_is_fed_back_within_the_bound(
    live_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "notes.txt").write_text("x" * 200_000 + "\n", encoding="utf-8")
    trace, _ = timed_run([function_call(1, ARGS), message(2, "ok")], live_env, services={"fs": tmp_path})
    assert trace.outcome["status"] == "answered", trace.outcome
    request = trace.body("request_2") or {}
    assert request["input"][-1]["output"] == "x" * 200_000


@pytest.mark.parametrize(
    "reply",
    [
        Raw(b"x" * 65_536, repeat=None, length=None),  # endless, no Content-Length
        Raw(b"{" + b" " * 65_535, repeat=200),  # 13 MB, honest Content-Length
        Raw(b"{}", length=100_000_000),  # announces 100 MB
    ],
    ids=["endless", "13MB", "announced-100MB"],
)
def test_a_reply_over_the_size_cap_is_refused(live_env: pytest.MonkeyPatch, reply: Raw) -> None:
    trace, elapsed = timed_run([reply], live_env)
    assert trace.outcome["status"] == "error", trace.outcome
    assert f"more than {MAX_REPLY_BYTES} bytes" in trace.outcome["reason"]
    one_line(trace.outcome["reason"])
    assert elapsed < 4


def test_a_trickling_reply_is_stopped_by_the_call_bound(live_env: pytest.MonkeyPatch) -> None:
    trace, elapsed = timed_run([Raw(b" ", repeat=None, pause=0.2, length=None)], live_env)
    assert stable(trace.outcome) == {"status": "stopped", "reason": "the model API did not answer within 2 s"}
    assert elapsed < 4


# --- point 2: the key is hidden everywhere --------------------------------------------------------


def _echo_replies() -> list[Reply]:
    echoed_args = json.dumps({"path": f"/workspace/{FAKE_KEY}.txt", "head": 2})
    calls = [
        function_call(1, echoed_args)[1]["output"][0],
        {**function_call(1, ARGS)[1]["output"][0], "call_id": "call_b", "name": f"fs__{FAKE_SECRET}"},
    ]
    answer = (
        f"your key is {FAKE_KEY}; again {FAKE_SECRET[:6]}...{FAKE_SECRET[-6:]}, "
        f"a piece {FAKE_SECRET[10:19]} and {FAKE_KEY[:10]}…{FAKE_KEY[-5:]}"
    )
    return [(200, response_body(1, calls)), message(2, answer)]


def assert_no_key(text: str) -> None:
    assert FAKE_SECRET[:6] + "." not in text and "." + FAKE_SECRET[-6:] not in text
    for start in range(len(FAKE_SECRET) - 7):
        assert FAKE_SECRET[start : start + 8] not in text, f"key fragment at {start} leaked"


def test_a_key_echoed_into_answer_arguments_and_tool_name_is_hidden(live_env: pytest.MonkeyPatch) -> None:
    from lessons_lib.views.narrate import narrate

    trace, _ = timed_run(_echo_replies(), live_env)
    assert trace.outcome["status"] == "answered", trace.outcome
    assert_no_key(trace.to_json())
    assert_no_key(narrate(trace))
    assert "***" in (trace.answer or "") and "***" in trace.links[1]["alias"]
    request, _ = trace.mcp_pair()
    assert "***" in request["params"]["arguments"]["path"]


def test_no_key_in_cli_output_or_in_any_file_the_run_writes(tmp_path: Path) -> None:
    with FakeOpenAI(_echo_replies() + _echo_replies()) as api:
        env = clean_env(OPENAI_API_KEY=FAKE_KEY, OPENAI_BASE_URL=api.base_url)
        runs = [
            cli("run", "--live", "--json", env=env, cwd=tmp_path),
            cli("run", "--live", env=env, cwd=tmp_path),
        ]
    for done in runs:
        assert "Traceback" not in done.stderr
        assert_no_key(done.stdout + done.stderr)
    for written in tmp_path.rglob("*"):
        if written.is_file():
            assert_no_key(written.read_text(encoding="utf-8", errors="replace"))


def test_the_live_cell_trace_holds_no_key(live_env: pytest.MonkeyPatch) -> None:
    from lessons_lib.course.live import try_live

    with FakeOpenAI(_echo_replies()) as api:
        live_env.setenv("OPENAI_BASE_URL", api.base_url)
        result = try_live()
    assert result.mode == "live" and result.trace is not None
    assert_no_key(result.trace.to_json())
    assert_no_key(result.text())
    assert_no_key(json.dumps(result._repr_mimebundle_(), ensure_ascii=False))


# --- point 3: replies that are not a Response; a bad OPENAI_BASE_URL -------------------------------

NOT_A_RESPONSE: dict[str, Reply] = {
    "invalid-json": Raw(b'{"id": "resp_1", "output": [', content_type="application/json"),
    "html": Raw(b"<html><body>502 Bad Gateway</body></html>", content_type="text/html"),
    "json-list": (200, [1, 2, 3]),  # type: ignore[dict-item]
    "no-output": (200, {k: v for k, v in response_body(1, []).items() if k != "output"}),
    "output-null": (200, {**response_body(1, []), "output": None}),
    "output-text": (200, {**response_body(1, []), "output": "oops"}),
    "output-junk-items": (200, {**response_body(1, []), "output": [1, "x", None, {"type": 7}]}),
    "empty-body": Raw(b""),
}


@pytest.mark.parametrize("case", sorted(NOT_A_RESPONSE))
def test_a_reply_that_is_not_a_response_is_one_error_line(live_env: pytest.MonkeyPatch, case: str) -> None:
    trace, _ = timed_run([NOT_A_RESPONSE[case]], live_env)
    assert trace.outcome["status"] == "error", trace.outcome
    one_line(trace.outcome["reason"])


@pytest.mark.parametrize("case", ["html", "output-text", "json-list"])
def test_cli_exits_1_on_a_reply_that_is_not_a_response(case: str, tmp_path: Path) -> None:
    with FakeOpenAI([NOT_A_RESPONSE[case]]) as api:
        env = clean_env(OPENAI_API_KEY=FAKE_KEY, OPENAI_BASE_URL=api.base_url)
        done = cli("run", "--live", env=env, cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("\n") <= 2


@pytest.mark.parametrize(
    "url", ["not a url", "http://[::1", "ftp://example.org/v1", "http://127.0.0.1:99999/v1"]
)
def test_a_malformed_base_url_is_bad_configuration(url: str, tmp_path: Path) -> None:
    env = clean_env(OPENAI_API_KEY=FAKE_KEY, OPENAI_BASE_URL=url)
    done = cli("run", "--live", env=env, cwd=tmp_path)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == "" and done.stderr.count("\n") == 1 and "OPENAI_BASE_URL" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_malformed_base_url_in_python_is_one_value_error(live_env: pytest.MonkeyPatch) -> None:
    live_env.setenv("OPENAI_BASE_URL", "http://[::1")
    with pytest.raises(ValueError, match="OPENAI_BASE_URL") as info:
        run_chain(live=True)
    assert "\n" not in str(info.value)


# --- point 4: a call that cannot be paired, too many calls ----------------------------------------


def test_cli_exits_1_when_a_call_has_no_call_id(tmp_path: Path) -> None:
    item = {k: v for k, v in function_call(1, ARGS)[1]["output"][0].items() if k != "call_id"}
    with FakeOpenAI([(200, response_body(1, [item])), message(2, "never")]) as api:
        env = clean_env(OPENAI_API_KEY=FAKE_KEY, OPENAI_BASE_URL=api.base_url)
        done = cli("run", "--live", "--json", env=env, cwd=tmp_path)
    trace = json.loads(done.stdout)
    assert done.returncode == 1 and len(api.bodies) == 1
    assert trace["outcome"]["status"] == "error" and "no call_id" in trace["outcome"]["reason"]
    assert not [e for e in trace["events"] if e["label"] == "tools/call"]


def test_500_calls_in_one_reply_are_not_run(live_env: pytest.MonkeyPatch) -> None:
    many = [{**function_call(1, ARGS)[1]["output"][0], "call_id": f"c{n}"} for n in range(500)]
    trace, _ = timed_run([(200, response_body(1, many))], live_env)
    assert trace.outcome["status"] == "stopped" and "Limits.max_calls=16" in trace.outcome["reason"]
    assert trace.find("tools/call") == []
