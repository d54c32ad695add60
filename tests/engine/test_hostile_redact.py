"""The redactor cleans values only, for a key of any length (issue 40, point 4).

``OPENAI_API_KEY=a ... run --live`` once ended in a ``TraceShapeError`` traceback: the redactor
rewrote every ``a`` in the trace, keys and the ``format`` value included. Now keys and the values
that name a document's shape are never touched, and a short key is hidden where it stands as a
whole word. The canary runs go through a local OpenAI-compatible endpoint with 1- to 3-character keys.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from _fake_openai import FakeOpenAI, function_call, message

from lessons_lib.core.paths import DATA_DIR
from lessons_lib.core.traces.trace import Trace
from lessons_lib.engine.host import Limits, run_chain
from lessons_lib.engine.redact import redact, redact_json

SHORT_KEYS = ["a", "1", "ab", "sk", "abc", "1-2"]
TRACE: dict[str, Any] = json.loads((DATA_DIR / "trace.json").read_text(encoding="utf-8"))
ARGS = json.dumps({"path": "/workspace/notes.txt", "head": 1})


def _keys(value: object) -> list[str]:
    if isinstance(value, dict):
        return [k for k, v in value.items() for k in [k, *_keys(v)]]
    return [k for v in value for k in _keys(v)] if isinstance(value, list) else []


@pytest.mark.parametrize("key", [*SHORT_KEYS, "o", "e", "n", "model", "request_1", "2.0"])
def test_a_cleaned_trace_keeps_every_key_and_its_shape(key: str) -> None:
    cleaned = redact_json(TRACE, key)
    assert _keys(cleaned) == _keys(TRACE)
    Trace.from_dict(cleaned)  # still a trace: format, channels, labels untouched


@pytest.mark.parametrize("key", SHORT_KEYS)
def test_a_short_key_is_hidden_as_a_whole_word_only(key: str) -> None:
    assert redact(f"Authorization: Bearer {key}", key) == "Authorization: Bearer ***"
    assert redact(f"/workspace/{key}.txt and key={key}", key) == "/workspace/***.txt and key=***"
    word = f"x{key}y"
    assert redact(word, key) == word


@pytest.fixture
def live_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in ("LESSONS_MODEL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    return monkeypatch


@pytest.mark.parametrize("key", ["a", "ab", "sk", "1", "abc"])
def test_a_live_run_with_a_short_key_answers_and_hides_an_echo(
    key: str, live_env: pytest.MonkeyPatch
) -> None:
    live_env.setenv("OPENAI_API_KEY", key)
    with FakeOpenAI([function_call(1, ARGS), message(2, f"The first line, and your key is {key}.")]) as api:
        live_env.setenv("OPENAI_BASE_URL", api.base_url)
        trace = run_chain(live=True, limits=Limits(call_timeout=5, total_timeout=15))
    assert trace.outcome["status"] == "answered", trace.outcome
    assert trace.answer == "The first line, and your key is ***."
    assert trace.to_dict()["format"] == TRACE["format"]


def test_live_mode_without_a_network_says_so_in_one_line(live_env: pytest.MonkeyPatch) -> None:
    live_env.setenv("OPENAI_API_KEY", "a")
    live_env.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # the discard port: nothing listens
    trace = run_chain(live=True, limits=Limits(call_timeout=5, total_timeout=15))
    assert trace.outcome["status"] == "error"
    reason = trace.outcome["reason"]
    assert "cannot reach the model API" in reason and "\n" not in reason, reason


def test_a_real_key_echoed_as_an_argument_name_is_still_hidden() -> None:
    secret = "sk-test-Qz7rTn4WbX9kLm2PvS8dHc5JfY3gNa6E"
    cleaned = redact_json({"params": {"arguments": {secret: 1, "path": secret}}}, secret)
    assert cleaned == {"params": {"arguments": {"***": 1, "path": "***"}}}
    assert redact_json({"a": "a", "format": "a"}, "a") == {"a": "***", "format": "a"}
