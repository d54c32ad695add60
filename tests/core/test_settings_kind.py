"""Request settings are not rules (issue 13, point 2): ``tool_choice: "required"`` is a setting
of this request, the schema's ``required: ["path"]`` is a rule for the arguments; and a refused
JSON-RPC request produced no result."""

from __future__ import annotations

import json

import pytest

from lessons_lib.core.fieldkinds.kinds import kind_of, walk
from lessons_lib.core.glossary import KINDS
from lessons_lib.core.paths import DATA_DIR
from lessons_lib.views.fieldtree import field_tree

SETTINGS = (
    "model", "temperature", "top_p", "store", "truncation", "reasoning", "parallel_tool_calls",
    "max_output_tokens", "tool_choice",
)  # fmt: skip


def _load(name: str) -> object:
    return json.loads((DATA_DIR / name).read_text(encoding="utf-8"))


def test_setting_is_a_kind_of_its_own() -> None:
    assert KINDS["setting"].zh == "设置"
    assert KINDS["setting"].colour not in {s.colour for k, s in KINDS.items() if k != "setting"}


@pytest.mark.parametrize("path", SETTINGS)
def test_responses_settings_are_settings(path: str) -> None:
    assert kind_of(_load("response_1.json"), path) == "setting"


@pytest.mark.parametrize(
    ("name", "path"),
    [
        ("request_1.json", "model"),
        ("request_1.json", "tool_choice"),
        ("chat/request_1.json", "model"),
        ("chat/request_1.json", "tool_choice"),
        ("anthropic/request_1.json", "model"),
        ("anthropic/request_1.json", "max_tokens"),
        ("anthropic/request_1.json", "tool_choice.type"),
    ],
)
def test_every_api_labels_its_settings(name: str, path: str) -> None:
    assert kind_of(_load(name), path) == "setting"


def test_tool_choice_required_and_schema_required_are_different_kinds() -> None:
    request = _load("request_1.json")
    assert isinstance(request, dict)
    request = {**request, "tool_choice": "required"}
    assert kind_of(request, "tool_choice") == "setting"
    assert kind_of(request, "tools[0].parameters.required[0]") == "rule"


def test_trees_and_legends_show_the_setting_kind() -> None:
    tree = field_tree(_load("response_1.json"))
    page = tree.html() or ""
    assert "设置" in page and KINDS["setting"].colour in page
    assert "设置" in tree.text()


def test_a_refused_request_has_no_result() -> None:
    err = {"jsonrpc": "2.0", "id": 8, "error": {"code": -32602, "message": "Unknown tool", "data": {"x": 1}}}
    kinds = {f.path_text: f.kind for f in walk(err)}
    assert "result" not in kinds.values(), kinds
