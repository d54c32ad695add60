"""``replay`` and ``api_of_body`` ask the API's registry entry (issue 22): no API name is compared.

A fourth API planted in the registry (an entry named in ``LESSONS_LIB_APIS``), with the Chat
stand-in and its own ``replay_client``, is replayed through that client, with its own
``is_body`` its bodies are recognised, and with its own ``tables`` and ``detectors`` (this
module's ``TABLES`` and ``DETECTORS``) its messages get their types and field kinds; the three
real APIs' fixtures are each recognised as their own API.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from lessons_lib.apis.replay import openai_client, replay
from lessons_lib.core.fieldkinds.kindrows import ID, SET, Detector, E, S, V
from lessons_lib.core.plugins.apiregistry import ApiEntry, api_entry

DATA = Path(__file__).resolve().parents[2] / "data"
USED: list[str] = []
PLANTED: list[str] = []


def plant(monkeypatch: pytest.MonkeyPatch, **parts: Any) -> ApiEntry:
    """A fourth API, the Chat entry with ``parts`` replaced, named ``toy`` in ``LESSONS_LIB_APIS``."""
    entry = dataclasses.replace(api_entry("chat"), name="toy", order=9, **parts)
    name = f"planted_toy_api_{len(PLANTED)}"  # a new name each time: the registry caches by the names
    module = types.ModuleType(name)
    module.ENTRY = entry  # type: ignore[attr-defined]
    PLANTED.append(name)
    monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.setenv("LESSONS_LIB_APIS", name)
    return entry


def toy_client(http: Any) -> tuple[Any, tuple[type[BaseException], ...]]:
    """The planted API's replay client: the OpenAI SDK's, noting that it was asked."""
    USED.append("toy")
    return openai_client(http)


def test_a_planted_api_is_replayed_through_its_own_entrys_client(monkeypatch: pytest.MonkeyPatch) -> None:
    plant(monkeypatch, replay_client=toy_client)
    body = json.loads((DATA / "chat" / "request_2.json").read_text(encoding="utf-8"))
    USED.clear()
    reply = replay("toy", body)
    assert USED == ["toy"] and reply.ok and reply.body["object"] == "chat.completion"
    broken = {**body, "messages": [m for m in body["messages"] if m.get("role") != "assistant"]}
    assert replay("toy", broken).status == 400 and USED == ["toy", "toy"]


def test_each_entry_holds_its_sdks_replay_client() -> None:
    from lessons_lib.apis import anthropic, openaisdk

    assert api_entry("anthropic").replay_client is anthropic.replay_client
    assert {api_entry(a).replay_client for a in ("responses", "chat")} == {openaisdk.replay_client}
    body = json.loads((DATA / "anthropic" / "request_2.json").read_text(encoding="utf-8"))
    reply = replay("anthropic", body)
    assert reply.ok and reply.body["type"] == "message"


def toy_shape(body: Any) -> bool:
    """The planted API's shape: its replies say ``object: "toy.reply"``."""
    return body.get("object") == "toy.reply"


def test_api_of_body_asks_each_entrys_shape_in_the_registrys_order(monkeypatch: pytest.MonkeyPatch) -> None:
    from lessons_lib.checks.apis.view import api_of, api_of_body

    expected = {"": "responses", "chat": "chat", "anthropic": "anthropic"}
    for folder, api in expected.items():
        for name in ("request_1", "response_1", "request_2", "response_2"):
            body = json.loads((DATA / folder / f"{name}.json").read_text(encoding="utf-8"))
            assert api_of_body(body) == api, (folder, name)
    bare = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    assert api_of_body(bare) == "chat"  # a messages list without Anthropic's marks
    assert api_of_body({**bare, "tools": [{"name": "t", "input_schema": {}}]}) == "anthropic"
    assert api_of_body({"object": "toy.reply"}) is None and api_of_body([]) is None
    plant(monkeypatch, is_body=toy_shape)
    assert api_of_body({"object": "toy.reply"}) == "toy"
    assert api_of({"request_1": {"object": "toy.reply"}}) == "toy"


# The planted API's kinds module is this one: a reply marked by its ``object``, and a request that
# is also a ``messages`` list, so it says "narrow" to be tried before Chat's broad messages test.
TABLES = {
    "toy_reply": [("", E), ("object", E), ("id", ID), ("answer", S)],
    "toy_request": [("", E), ("model", SET), ("toy_mode", SET), ("messages", E), ("messages[*].**", V)],
}
DETECTORS = [
    Detector("toy_reply", "marked", lambda m: isinstance(m, dict) and m.get("object") == "toy.reply"),
    Detector("toy_request", "narrow", lambda m: isinstance(m, dict) and "toy_mode" in m and "messages" in m),
]


def test_a_planted_apis_kinds_are_found_through_its_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    from lessons_lib.core.fieldkinds.kinds import classify, kind_of
    from lessons_lib.core.fieldkinds.msgtype import detect_type
    from lessons_lib.views.fieldtree import field_tree

    reply = {"object": "toy.reply", "id": "r1", "answer": "01 ..."}
    request = {"model": "m", "toy_mode": "fast", "messages": [{"role": "user", "content": "hi"}]}
    assert detect_type(reply) == "unclassified" and detect_type(request) == "chat_request"
    plant(monkeypatch, tables=TABLES, detectors=DETECTORS)
    assert detect_type(reply) == "toy_reply" and detect_type(request) == "toy_request"
    assert [kind_of(reply, p) for p in ("id", "answer", "object")] == ["identifier", "result", "envelope"]
    assert kind_of(request, "messages[0].content") == "value" and kind_of(request, "toy_mode") == "setting"
    assert classify(request, "messages[0]").pattern == "messages[*].**"
    assert "toy_reply" in field_tree(reply).text()  # a type without a catalogue title shows its name
    chat = json.loads((DATA / "chat" / "request_2.json").read_text(encoding="utf-8"))
    assert detect_type(chat) == "chat_request"  # the real APIs' messages keep their types
    monkeypatch.delenv("LESSONS_LIB_APIS")
    assert detect_type(reply) == "unclassified" and detect_type(request) == "chat_request"
