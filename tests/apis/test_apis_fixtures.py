"""The fixtures of lessons 20-29: ``data/chat/`` and ``data/anthropic/``.

Re-recorded byte for byte; Chat messages valid under the official OpenAI description, Anthropic
messages valid under the ``anthropic`` SDK's types in strict mode; a hand-broken copy of each
fails; the MCP pair is the same bytes as part one's; the rule is the same object everywhere.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from _apis_support import anthropic_errors, api_fixture, chat_errors
from _engine_support import DATA_DIR

APIS = ("chat", "anthropic")
MODEL_FILES = ("request_1.json", "response_1.json", "request_2.json", "response_2.json")


def errors(api: str, name: str, body: dict[str, Any]) -> list[str]:
    check = chat_errors if api == "chat" else anthropic_errors
    return check(request=body) if name.startswith("request") else check(response=body)


def test_record_reproduces_the_api_fixtures_byte_for_byte(tmp_path: Path) -> None:
    from lessons_lib.apis.record import FILES, record_api_fixtures

    written = record_api_fixtures(tmp_path)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in written) == sorted(
        f"{api}/{name}" for api in APIS for name in FILES
    )
    for api in APIS:
        committed = sorted(p.name for p in (DATA_DIR / api).iterdir())
        assert committed == sorted(FILES), f"data/{api}/ should hold exactly {FILES}"
        changed = [n for n in FILES if (DATA_DIR / api / n).read_bytes() != (tmp_path / api / n).read_bytes()]
        assert changed == [], f"re-recording changed data/{api}/{changed}: run python -m lessons_lib record"


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("name", MODEL_FILES)
def test_model_messages_validate(api: str, name: str) -> None:
    assert errors(api, name, api_fixture(api, name)) == []


@pytest.mark.parametrize("api", APIS)
def test_fixtures_are_cut_from_the_trace(api: str) -> None:
    trace = api_fixture(api, "trace.json")
    assert trace["model"]["api"] == api
    bodies = {e["label"]: e["body"] for e in trace["events"] if e["channel"] == "model"}
    for name in MODEL_FILES:
        assert api_fixture(api, name) == bodies[name[:-5]]
    roundtrip = api_fixture(api, "roundtrip.json")
    assert roundtrip["api"] == api and roundtrip["request_2"] == bodies["request_2"]


@pytest.mark.parametrize("api", APIS)
def test_the_mcp_pair_is_part_ones_byte_for_byte(api: str) -> None:
    for name in ("mcp_request.json", "mcp_response.json"):
        assert (DATA_DIR / api / name).read_bytes() == (DATA_DIR / name).read_bytes()


def test_the_rule_is_the_same_object_in_all_three_apis() -> None:
    from lessons_lib.core.fieldkinds.kinds import kind_of

    mcp_list = next(
        e["body"]
        for e in json.loads((DATA_DIR / "trace.json").read_text("utf-8"))["events"]
        if e["label"] == "tools/list" and "result" in e["body"]
    )
    places = {
        "mcp inputSchema": (mcp_list, "result.tools[0].inputSchema"),
        "responses parameters": (
            json.loads((DATA_DIR / "request_1.json").read_text("utf-8")),
            "tools[0].parameters",
        ),
        "chat function.parameters": (api_fixture("chat", "request_1.json"), "tools[0].function.parameters"),
        "anthropic input_schema": (api_fixture("anthropic", "request_1.json"), "tools[0].input_schema"),
    }
    rules = {}
    for where, (message, path) in places.items():
        node: Any = message
        for part in path.replace("[0]", ".0").split("."):
            node = node[int(part)] if part.isdigit() else node[part]
        rules[where] = node
        assert kind_of(message, path) == "rule", where
        assert kind_of(message, path + ".properties.head.type") == "rule", where
    first = rules["mcp inputSchema"]
    assert first["properties"]["head"]["type"] == "number"
    assert all(rule == first for rule in rules.values()), rules


def test_hand_broken_copies_fail() -> None:
    """Negative controls: one field broken by hand in each API's messages, caught by the validator."""
    chat_response = copy.deepcopy(api_fixture("chat", "response_1.json"))
    call = chat_response["choices"][0]["message"]["tool_calls"][0]
    call["function"]["arguments"] = json.loads(call["function"]["arguments"])  # object, not text
    assert chat_errors(response=chat_response)
    chat_request = copy.deepcopy(api_fixture("chat", "request_2.json"))
    del chat_request["messages"][2]["tool_call_id"]
    assert any("tool_call_id" in e for e in chat_errors(request=chat_request))
    chat_request = copy.deepcopy(api_fixture("chat", "request_1.json"))
    chat_request["tools"][0]["function"].pop("name")
    assert chat_errors(request=chat_request)

    anthropic_response = copy.deepcopy(api_fixture("anthropic", "response_1.json"))
    block = anthropic_response["content"][0]
    block["input"] = json.dumps(block["input"])  # text, not object
    assert any("input" in e for e in anthropic_errors(response=anthropic_response))
    anthropic_request = copy.deepcopy(api_fixture("anthropic", "request_2.json"))
    del anthropic_request["messages"][2]["content"][0]["tool_use_id"]
    assert anthropic_errors(request=anthropic_request)
    anthropic_request = copy.deepcopy(api_fixture("anthropic", "request_1.json"))
    anthropic_request["max_tokens"] = "1024"
    assert anthropic_errors(request=anthropic_request)


def test_a_fresh_run_of_each_api_with_tail_3_validates() -> None:
    from lessons_lib.engine.host import run_chain

    for api in APIS:
        trace = run_chain(api=api, head=None, tail=3)
        assert trace.outcome["status"] == "answered", (api, trace.outcome)
        for event in trace.events:
            if event["channel"] == "model":
                assert errors(api, event["label"], event["body"]) == [], (api, event["label"])


def test_sdk_parses_the_responses_back() -> None:
    from anthropic.types import Message
    from openai.types.chat import ChatCompletion

    chat = ChatCompletion.model_validate(api_fixture("chat", "response_1.json"))
    call = chat.choices[0].message.tool_calls[0]  # type: ignore[index]
    assert json.loads(call.function.arguments) == {"path": "/workspace/notes.txt", "head": 20}  # type: ignore[union-attr]
    message = Message.model_validate(api_fixture("anthropic", "response_1.json"))
    assert message.stop_reason == "tool_use"
    assert message.content[0].input == {"path": "/workspace/notes.txt", "head": 20}  # type: ignore[union-attr]


def test_chat_schema_copy_matches_shared_specs() -> None:
    """When shared/specs sits next to the repository, the Chat copy must be its reachable subset."""
    import importlib.util

    from _engine_support import SPECS_DIR

    spec = importlib.util.spec_from_file_location("_specs_extract", SPECS_DIR / "extract.py")
    assert spec is not None and spec.loader is not None
    extract = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(extract)
    copied = json.loads((SPECS_DIR / "openai" / "chat_components.json").read_text(encoding="utf-8"))
    assert copied["x-provenance"]["roots"] == list(extract.CHAT_ROOTS)
    assert {"ChatCompletionRequestToolMessage", "ChatCompletionFunctions"} <= set(
        copied["components"]["schemas"]
    )
    shared = Path(extract.DEFAULT_SHARED)
    if not (shared / "openai" / "openapi.yaml").is_file():
        pytest.skip(f"no shared/specs next to the repository ({shared}); the committed copy is used")
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with (shared / "openai" / "openapi.yaml").open(encoding="utf-8") as handle:
        schemas = yaml.load(handle, Loader=loader)["components"]["schemas"]
    assert copied["components"]["schemas"] == extract.reachable(schemas, extract.CHAT_ROOTS)
