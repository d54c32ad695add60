"""Lesson 06 true to the schemas and drawn once (issue 37, point 3).

Each test failed on the lesson before this change: [6] said the schema cannot express the
head/tail exclusion; [8] cited ``FunctionToolParam``'s sentence and name pattern for a
top-level tool; [12] said the two MCP revisions behave the same; the declaration was drawn in
about seven stored outputs (175 KB of outputs); ``field_tree`` had no ``fold``.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import pytest

from lessons_lib import field_tree, load_fixture
from lessons_lib.core.specfields import spec_definition

ROOT = Path(__file__).resolve().parents[2]
EDITIONS = [
    ROOT / "notebooks" / "06_fields_and_objects.ipynb",
    ROOT / "notebooks" / "en" / "06_fields_and_objects.ipynb",
]
DESCRIPTION = "Read the complete contents of a file"  # the tool's description: one per drawn declaration


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _source(cell: dict) -> str:
    return "".join(cell["source"])


def _outputs(cell: dict) -> str:
    return json.dumps(cell.get("outputs", []), ensure_ascii=False)


def test_fold_draws_a_subtree_as_one_marked_row() -> None:
    whole = field_tree(load_fixture("response_2.json"))
    folded = field_tree(load_fixture("response_2.json"), fold="tools")
    assert any(f.path_text.startswith("tools[0]") for f in whole.fields)
    assert not any(f.path_text.startswith("tools[") for f in folded.fields)
    assert "tools" in folded.kinds() and folded.kinds()["tools"] == "rule"
    line = next(x for x in folded.text().splitlines() if x.startswith("├── tools:"))
    assert "已折叠" in line
    assert "已折叠" in folded.html() and DESCRIPTION not in folded.html()
    assert len(folded.html()) < len(whole.html()) * 0.75
    assert "fold='tools'" in repr(folded)
    with pytest.raises(ValueError, match="fold 'nothing_here' matches no field"):
        field_tree(load_fixture("response_2.json"), fold="nothing_here")


def test_a_top_level_function_tool_requires_strict_and_has_no_name_pattern() -> None:
    tool = spec_definition("openai", "FunctionTool")
    assert "strict" in tool["required"] and "pattern" not in tool["properties"]["name"]
    assert "If omitted" not in json.dumps(tool)
    with pytest.raises(ValueError, match="no definition"):
        spec_definition("openai", "NoSuchTool")
    # the SDK's names: FunctionToolParam is the top-level request type, ToolFunction the nested one
    from openai.types.responses.function_tool_param import FunctionToolParam
    from openai.types.responses.namespace_tool_param import ToolFunction

    assert "strict: Required[Optional[bool]]" in inspect.getsource(FunctionToolParam)
    assert "strict: Optional[bool]" in inspect.getsource(ToolFunction)  # not Required
    assert "If omitted" in inspect.getsource(ToolFunction)


@pytest.mark.parametrize("path", EDITIONS, ids=["zh", "en"])
def test_lesson_06_says_what_the_schemas_say(path: Path) -> None:
    cells = _cells(path)
    assert "表达不出来" not in _source(cells[6]) and "cannot express it" not in _source(cells[6])
    assert '"not": {"required": ["head", "tail"]}' in _source(cells[6])
    shown = _outputs(cells[7])  # the exclusion rejects both, keeps head alone, and is a valid Tool
    assert "True" in shown and "False | " in shown
    assert "'2025-06-18': True, '2025-11-25': True, '2026-07-28': True" in shown
    assert "FunctionTool" in _source(cells[8]) and "If omitted" not in _source(cells[8])
    assert "省略 `strict` 时" not in _source(cells[8])
    assert "`ToolFunction`" in _source(cells[8]) and "`FunctionToolParam`" in _source(cells[8])
    assert "['type', 'name', 'strict', 'parameters']" in _outputs(cells[9])
    assert "43" in _source(cells[12]) and (
        "协议错误" in _source(cells[12]) or "protocol error" in _source(cells[12])
    )


@pytest.mark.parametrize("path", EDITIONS, ids=["zh", "en"])
def test_lesson_06_draws_the_declaration_at_most_four_times(path: Path) -> None:
    cells = _cells(path)
    drawn = [i for i, c in enumerate(cells) if DESCRIPTION in _outputs(c)]
    assert drawn == [5, 9, 17], drawn  # tools/list, the side-by-side, request_1; later trees fold it
    total = sum(len(_outputs(c)) for c in cells)
    assert total < 170_000, total  # 185,000 (zh) and 190,000 (en) before
