"""The live cell (lessons_lib.course.live.try_live): offline line without a key, a checked live run with one.

The "live" runs talk to the shared fake OpenAI-compatible server (``tests/_fake_openai.py``) on
127.0.0.1. Its replies come from the offline stand-in's rule program (so the bodies have the
real API's shapes), or a 401 like the real API's, which echoes the key it was given.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from _fake_openai import FAKE_KEY, FAKE_SECRET, FakeOpenAI, api_error

KEY = FAKE_KEY


def _stand_in(n: int, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    from lessons_lib.apis.responses.standin import OfflineModel

    return 200, OfflineModel(turns=n).respond(body)


def _unauthorised(n: int, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    # The whole key in the message (the real API masks part of it), to prove it is redacted.
    return api_error(
        401,
        f"Incorrect API key provided: {KEY}. You can find your API key at the dashboard.",
        code="invalid_api_key",
    )


@pytest.fixture
def stand_in_api() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(_stand_in) as api:
        yield api


@pytest.fixture
def no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "LESSONS_MODEL"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def with_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.delenv("LESSONS_MODEL", raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")


def _shown(result: Any) -> str:
    bundle = result._repr_mimebundle_()
    return bundle["text/plain"] + "\n" + bundle["text/html"] + "\n" + repr(result)


def test_without_key_one_deterministic_line(no_key: None) -> None:
    from lessons_lib.course.live import try_live
    from lessons_lib.engine.models import enable_live_hint, live_status

    result = try_live()
    bundle = result._repr_mimebundle_()
    assert result.mode == "offline"
    assert bundle["text/plain"] == enable_live_hint() == live_status()
    assert "\n" not in bundle["text/plain"]
    assert bundle["text/html"].count("<p>") == 1 and "\n" not in bundle["text/html"]
    assert try_live(head=5)._repr_mimebundle_() == bundle
    assert str(result) == enable_live_hint()
    assert repr(result) == "LiveResult(mode='offline', status='offline')"


def test_with_key_runs_live_and_checks_the_trace(
    with_key: None, stand_in_api: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lessons_lib.course.live import try_live

    monkeypatch.setenv("OPENAI_BASE_URL", stand_in_api.base_url)
    result = try_live(head=5)
    shown = _shown(result)
    assert result.mode == "live" and result.status == "answered", result.text()
    # The run really went over HTTP to the endpoint, with the key in the header only.
    assert len(stand_in_api.bodies) == 2
    assert stand_in_api.authorizations == [f"Bearer {KEY}"] * 2
    assert stand_in_api.bodies[0]["input"][0]["content"] == "请读取 /workspace/notes.txt 的前 5 行。"
    assert result.trace.model["mode"] == "live"
    titles = [title for title, _ in result.sections]
    assert titles[0] == "实时运行的消息记录" and "核对两轮往返（verify_roundtrip）" in titles
    assert "tools/call id=3 read_text_file" in shown
    assert "isError=false 5 行" in shown
    verdict = dict(result.sections)["核对两轮往返（verify_roundtrip）"]
    assert "结论：全部通过。" in verdict and "FAIL" not in verdict
    assert KEY not in shown and "Traceback" not in shown
    assert "<script" not in result._repr_mimebundle_()["text/html"]


def test_http_401_shows_the_reason_never_the_key(with_key: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from lessons_lib.course.live import try_live

    with FakeOpenAI(_unauthorised) as api:
        monkeypatch.setenv("OPENAI_BASE_URL", api.base_url)
        result = try_live()
    shown = _shown(result)
    assert api.authorizations == [f"Bearer {KEY}"]
    assert result.status == "error"
    assert result.headline.startswith("实时运行没有得到答复（error）：模型接口回答了 HTTP 401")
    assert "Incorrect API key provided" in shown
    assert FAKE_SECRET not in shown and KEY[:8] not in shown
    sections = dict(result.sections)
    assert "核对两轮往返（verify_roundtrip）" not in sections
    assert "http_error_1: HTTP 错误：Incorrect API key provided" in sections["实时运行的消息记录"]
    assert "诊断（diagnose）" in sections
    assert "Traceback" not in shown


def test_no_network_shows_the_reason(with_key: None, monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    from lessons_lib.course.live import try_live

    with socket.socket() as probe:  # a port nobody listens on once the probe is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{port}/v1")
    result = try_live()
    shown = _shown(result)
    assert result.status == "error"
    assert "连不上模型接口" in result.headline
    assert KEY not in shown and "Traceback" not in shown


def test_a_crash_becomes_one_line(with_key: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from lessons_lib.course.live import try_live
    from lessons_lib.engine import host

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise OSError(f"socket exploded while sending {KEY}")

    monkeypatch.setattr(host, "run_chain", broken)
    result = try_live()
    shown = _shown(result)
    assert result.status == "error"
    assert result.headline == "实时运行没有完成：OSError: socket exploded while sending ***"
    assert KEY not in shown and "Traceback" not in shown


def test_html_escapes_what_the_model_wrote(with_key: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from lessons_lib.course.live import LiveResult

    result = LiveResult("live", "<b>x</b>", (("t", "<script>alert(1)</script>"),), "answered")
    page = result._repr_mimebundle_()["text/html"]
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert " at 0x" not in repr(result)
