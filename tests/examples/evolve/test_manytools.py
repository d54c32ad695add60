"""Lesson 51: the catalogue, token counts, and every fewer-tools request against the official shapes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lessons_lib.examples.evolve.catalogue import catalogue, token_count
from lessons_lib.examples.evolve.manytools_requests import (
    TOOL_SEARCH_BETA,
    anthropic_search,
    anthropic_type_errors,
    chat_allowed,
    input_tokens_request,
    openai_shape_errors,
    responses_allowed,
    responses_deferred,
)

SPECS = Path(__file__).resolve().parents[2] / "specs" / "openai"
TASK = "帮我查一下退款申请 R-2001 的详情"
NAMES = ["refunds_get_refund", "refunds_list_refund"]


def _whole(file: str, component: str, instance: object) -> list[str]:
    """Errors against a whole request schema of the tests' own copy of the API description."""
    import jsonschema
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    doc = json.loads((SPECS / file).read_text(encoding="utf-8"))
    registry = Registry().with_resource(
        "urn:t", Resource.from_contents(doc, default_specification=DRAFT202012)
    )
    validator = jsonschema.Draft202012Validator(
        {"$ref": f"urn:t#/components/schemas/{component}"}, registry=registry
    )
    return [e.message[:120] for e in validator.iter_errors(instance)]


def test_catalogue_sizes_and_names() -> None:
    big = catalogue(500)
    assert len({t["name"] for t in big}) == 500 and big[0]["name"] == "get_order"
    assert all(len(t["name"]) <= 64 for t in big)
    assert catalogue(50) == big[:50]
    with pytest.raises(ValueError):
        catalogue(9999)


def test_tokens_grow_with_the_catalogue() -> None:
    assert token_count(catalogue(50)) < token_count(catalogue(200)) < token_count(catalogue(500))


@pytest.fixture(scope="module")
def requests() -> dict[str, dict[str, Any]]:
    tools = catalogue(50)
    return {
        "responses": responses_allowed(TASK, tools, NAMES),
        "chat": chat_allowed(TASK, tools, NAMES),
        "deferred": responses_deferred(TASK, tools),
        "anthropic": anthropic_search(TASK, tools),
        "count": input_tokens_request(TASK, tools[:3]),
    }


def test_allowed_tools_requests_match_the_official_description(requests: dict[str, dict[str, Any]]) -> None:
    body = requests["responses"]["body"]
    assert openai_shape_errors("ToolChoiceAllowed", body["tool_choice"]) == []
    assert _whole("responses_components.json", "CreateResponse", body) == []
    chat = requests["chat"]["body"]
    assert openai_shape_errors("ChatCompletionAllowedToolsChoice", chat["tool_choice"]) == []
    assert _whole("chat_components.json", "CreateChatCompletionRequest", chat) == []
    assert [t["name"] for t in body["tool_choice"]["tools"]] == NAMES


def test_deferred_request_matches_the_official_description(requests: dict[str, dict[str, Any]]) -> None:
    body = requests["deferred"]["body"]
    assert body["tools"][0] == {"type": "tool_search"}
    assert all(f["defer_loading"] is True for space in body["tools"][1:] for f in space["tools"])
    assert all(openai_shape_errors("NamespaceToolParam", s) == [] for s in body["tools"][1:])
    assert _whole("responses_components.json", "CreateResponse", body) == []


def test_the_checks_can_fail() -> None:
    assert openai_shape_errors(
        "ToolChoiceAllowed", {"type": "allowed_tools", "mode": "sometimes", "tools": []}
    )
    assert openai_shape_errors("NamespaceToolParam", {"type": "namespace", "name": "x", "tools": []})
    assert anthropic_type_errors({"name": "x", "input_schema": {"type": "object"}, "defer_loadin": True})
    assert anthropic_type_errors({"type": "tool_search_tool_regex_20251119", "name": "wrong"})


def test_anthropic_tool_search_matches_the_sdk_types(requests: dict[str, dict[str, Any]]) -> None:
    sent = requests["anthropic"]
    assert sent["path"].endswith("/v1/messages") and sent["beta"] == TOOL_SEARCH_BETA
    assert all(anthropic_type_errors(t) == [] for t in sent["body"]["tools"])
    assert all(t.get("defer_loading") for t in sent["body"]["tools"][1:])


def test_input_tokens_request(requests: dict[str, dict[str, Any]]) -> None:
    sent = requests["count"]
    assert sent["method"] == "POST" and sent["path"] == "/v1/responses/input_tokens"
    assert openai_shape_errors("TokenCountsBody", sent["body"]) == []
    assert sent["reply"]["object"] == "response.input_tokens"


def test_the_spec_subset_regenerates_unchanged(tmp_path: Path) -> None:
    shared = Path(__file__).resolve().parents[4] / "shared" / "specs"
    if not (shared / "openai" / "openapi.yaml").is_file():
        pytest.skip("no shared/specs next to the repository")
    import importlib.util

    spec = importlib.util.spec_from_file_location("extract_manytools", SPECS.parent / "extract_manytools.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    before = module.OUT.read_bytes()
    module.OUT = tmp_path / "again.json"
    assert module.main([str(shared)]) == 0
    assert module.OUT.read_bytes() == before


def test_selection_table_and_exercise() -> None:
    from lessons_lib.course.exercises.manytools import check_allowed
    from lessons_lib.examples.evolve.selection import (
        SELECTION_TASKS,
        pick,
        search_tools,
        selection_table,
        shown,
    )

    table = selection_table((50,))
    assert len(table.rows) == 4 and all(r[2].endswith(f"/{len(SELECTION_TASKS)}") for r in table.rows)
    assert len(shown("routed", TASK, 500)) < len(shown("flat", TASK, 500))
    assert pick(TASK, search_tools(TASK, 500)) == "refunds_get_refund"
    assert check_allowed(...).text().startswith("还没有完成")
    good = check_allowed(
        lambda n: {
            "type": "allowed_tools",
            "mode": "auto",
            "tools": [{"type": "function", "name": x} for x in n],
        }
    )
    assert good.passed
    assert not check_allowed(lambda n: {"type": "allowed_tools", "mode": "auto", "tools": []}).passed
    assert not check_allowed(lambda n: {"type": "allowed", "tools": n}).passed


def test_cli_tool_catalogue(capsys: pytest.CaptureFixture[str]) -> None:
    from lessons_lib.cli import main

    assert main(["tool-catalogue", "--size", "50", "--task", TASK]) == 0
    out = capsys.readouterr().out
    assert "50 个工具的声明" in out and "refunds_get_refund" in out
    assert main(["tool-catalogue", "--size", "9999"]) == 2
