"""``replay`` asks the API's registry entry for its SDK client (issue 22): no API name is compared.

A fourth API planted in the registry, with the Chat stand-in and its own ``replay_client``, is
replayed through that client; the Anthropic entry names its folder's client, the OpenAI ones the
default.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from lessons_lib.apis.replay import openai_client, replay
from lessons_lib.core.apiregistry import REGISTRY

DATA = Path(__file__).resolve().parents[1] / "data"
USED: list[str] = []


def toy_client(http: Any) -> tuple[Any, tuple[type[BaseException], ...]]:
    """The planted API's replay client: the OpenAI SDK's, noting that it was asked."""
    USED.append("toy")
    return openai_client(http)


def test_a_planted_api_is_replayed_through_its_own_entrys_client(monkeypatch: pytest.MonkeyPatch) -> None:
    toy = dataclasses.replace(REGISTRY["chat"], replay_client=f"{__name__}:toy_client")
    monkeypatch.setitem(REGISTRY, "toy", toy)
    body = json.loads((DATA / "chat" / "request_2.json").read_text(encoding="utf-8"))
    USED.clear()
    reply = replay("toy", body)
    assert USED == ["toy"] and reply.ok and reply.body["object"] == "chat.completion"
    broken = {**body, "messages": [m for m in body["messages"] if m.get("role") != "assistant"]}
    assert replay("toy", broken).status == 400 and USED == ["toy", "toy"]


def test_each_entry_names_its_sdks_replay_client() -> None:
    assert REGISTRY["anthropic"].replay_client == "lessons_lib.apis.anthropic.adapter:replay_client"
    assert {REGISTRY[a].replay_client for a in ("responses", "chat")} == {
        "lessons_lib.apis.replay:openai_client"
    }
    body = json.loads((DATA / "anthropic" / "request_2.json").read_text(encoding="utf-8"))
    reply = replay("anthropic", body)
    assert reply.ok and reply.body["type"] == "message"
