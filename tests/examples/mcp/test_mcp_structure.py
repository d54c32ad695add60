"""MCP structure (tools, resources, prompts, resource_link, labelled origins) and structured results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _engine_support import notes_lines

from lessons_lib.engine.specs import frame_errors, openai_errors
from lessons_lib.examples.mcp.structure import Piece, Tour, labelled, tour_structure, uri_of
from lessons_lib.examples.mcp.structured import StructuredCall, call_structured
from lessons_lib.examples.mcp.structured import feedback_per_api as feedback_items
from lessons_lib.services.files.service import OUTPUT_SCHEMA, build_server


@pytest.fixture(scope="module")
def tour() -> Tour:
    return tour_structure(3)


@pytest.fixture(scope="module")
def structured() -> StructuredCall:
    return call_structured(3)


def test_one_server_offers_all_three_primitives(tour: Tour) -> None:
    init = tour.frame("initialize", answer=True)["result"]["capabilities"]
    assert set(init) == {"tools", "resources", "prompts"}
    tools = [t["name"] for t in tour.frame("tools/list", answer=True)["result"]["tools"]]
    assert tools == ["read_text_file", "list_workspace"]
    resources = tour.frame("resources/list", answer=True)["result"]["resources"]
    assert [r["uri"] for r in resources] == [uri_of("notes.txt")]
    prompts = tour.frame("prompts/list", answer=True)["result"]["prompts"]
    assert [p["name"] for p in prompts] == ["summarize_notes"]


def test_every_frame_is_valid_mcp(tour: Tour) -> None:
    pending: dict[object, str] = {}
    for frame in tour.frames:
        if "method" in frame and "id" in frame:
            pending[frame["id"]] = frame["method"]
        method = frame.get("method") or pending.get(frame.get("id"))
        assert frame_errors("2025-11-25", frame, method) == [], frame


def test_a_tool_result_links_a_resource_and_the_link_reads_the_same_file(tour: Tour) -> None:
    assert tour.links == [uri_of("notes.txt")]
    tool, resource, prompt = tour.pieces
    assert tool.text == "\n".join(notes_lines()[:3])
    assert resource.text.split("\n")[:-1] == notes_lines()  # the whole file, final newline kept
    assert prompt.text.endswith(tool.text) and "前 3 行" in prompt.text


def test_origin_is_labelled_before_the_model_sees_it(tour: Tour) -> None:
    texts = [labelled(p) for p in tour.pieces]
    for piece, text in zip(tour.pieces, texts, strict=True):
        first, _, rest = text.partition("\n")
        assert first.startswith("[来源：MCP ") and piece.ref in first and rest == piece.text
    assert ["工具结果" in texts[0], "资源" in texts[1], "提示模板" in texts[2]] == [True, True, True]
    with pytest.raises(KeyError):
        labelled(Piece("email", "fs", "x", "y"))


def test_structured_result_sits_beside_the_text(structured: StructuredCall) -> None:
    assert structured.declaration["outputSchema"] == OUTPUT_SCHEMA
    result = structured.result
    assert result["structuredContent"] == {"content": structured.text}
    assert structured.text == "\n".join(notes_lines()[:3])
    assert frame_errors("2025-06-18", structured.frames[-1], "tools/call") == []


def test_part_one_server_is_unchanged_without_structured() -> None:
    import anyio
    from mcp import Client

    async def main() -> dict[str, object]:
        async with Client(build_server(), mode="legacy") as client:
            tool = (await client.list_tools()).tools[0]
            result = await client.call_tool("read_text_file", {"path": "/workspace/notes.txt", "head": 2})
            return {"schema": tool.output_schema, "structured": result.structured_content}

    assert anyio.run(main) == {"schema": None, "structured": None}


def test_feedback_per_api_is_text_and_valid(structured: StructuredCall) -> None:
    plain = feedback_items(structured.result)
    assert plain["responses"]["output"] == plain["chat"]["content"] == plain["anthropic"]["content"]
    assert plain["responses"]["output"] == structured.text
    named = feedback_items(structured.result, pass_structured=True)
    assert json.loads(named["responses"]["output"]) == structured.result["structuredContent"]
    for items in (plain, named):
        assert openai_errors("FunctionCallOutputItemParam", items["responses"]) == []
        assert openai_errors("ChatCompletionRequestToolMessage", items["chat"]) == []
    broken = dict(plain["responses"], output={"content": structured.text})
    assert openai_errors("FunctionCallOutputItemParam", broken), "an object is not a valid output"
    assert plain["anthropic"]["tool_use_id"].startswith("toolu_"), "Anthropic's ids are its own"
    parts = dict(plain["responses"], output=[{"type": "input_text", "text": structured.text}])
    assert openai_errors("FunctionCallOutputItemParam", parts) == [], "a content array is valid too"
    failed = feedback_items({"content": [{"type": "text", "text": "nope"}], "isError": True})
    assert failed["responses"]["output"].startswith("ERROR: ") and failed["anthropic"]["is_error"] is True


def test_cli_mcp_structure(capsys: pytest.CaptureFixture[str]) -> None:
    from lessons_lib.cli import main

    assert main(["mcp-structure", "--lines", "2"]) == 0
    out = capsys.readouterr().out
    assert "resources/read" in out and "prompts/get" in out and out.count("[来源：MCP ") == 3
    assert main(["mcp-structure", "--lines", "0"]) == 2


def test_structured_result_matches_the_reference_node_server(tmp_path: Path) -> None:
    """Our outputSchema and structuredContent are the reference server's. Skips without node."""
    import os
    import shutil

    import anyio
    from test_engine_stdio import REFERENCE_JS, _session, _workspace

    node = shutil.which("node")
    if node is None or not REFERENCE_JS.is_file():
        if os.environ.get("LESSONS_REFERENCE_SERVER"):
            pytest.fail(f"LESSONS_REFERENCE_SERVER is set but {REFERENCE_JS} or node is missing")
        pytest.skip("reference server not installed (see tests/services/test_engine_stdio.py)")
    root = _workspace(tmp_path).resolve()
    with (tmp_path / "stderr.txt").open("w", encoding="utf-8") as errlog:
        tools, results = anyio.run(
            _session,
            node,
            [str(REFERENCE_JS), str(root)],
            tmp_path,
            [{"path": str(root / "notes.txt"), "head": 3}],
            errlog,
        )
    ref_tool = next(t for t in tools if t.name == "read_text_file")
    ref_schema = {
        k: v
        for k, v in (ref_tool.output_schema or {}).items()
        if k not in ("$schema", "additionalProperties")
    }
    assert ref_schema == OUTPUT_SCHEMA
    ours = call_structured(3).result["structuredContent"]
    assert results[0].structured_content == ours == {"content": "\n".join(notes_lines()[:3])}
