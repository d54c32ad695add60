"""The kind of every field of every fixture, checked against the declared tables (lesson 03)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from lessons_lib.checks.attachments import fragments_from_trace, roundtrip_from_trace
from lessons_lib.core.fieldkinds.kinds import classify, kind_of, walk
from lessons_lib.core.fieldkinds.kindtables import TYPE_TITLES, tables
from lessons_lib.core.fieldkinds.msgtype import detect_type
from lessons_lib.core.fieldpath import Pattern, format_path, parse_path
from lessons_lib.core.paths import DATA_DIR


def load(name: str) -> Any:
    path = DATA_DIR / f"{name}.json"
    if not path.is_file():
        pytest.fail(f"fixture {path.name} is missing: run python -m lessons_lib record")
    return json.loads(path.read_text(encoding="utf-8"))


# Every field of each fixture and its kind, written out by hand from GUIDE section 1 and the
# issue. Schema subtrees (below ``parameters`` / ``inputSchema``) are checked separately: all rules.
EXPECTED = {
    "request_1": """
        . envelope
        model setting
        input envelope
        input[0] envelope
        input[0].type envelope
        input[0].role envelope
        input[0].content value
        tool_choice setting
        tools rule
        tools[0] rule
        tools[0].type envelope
        tools[0].name identifier
        tools[0].description rule
        tools[0].parameters rule
        tools[0].strict rule
    """,
    "response_1": """
        . envelope
        id identifier
        object envelope
        created_at envelope
        status envelope
        error envelope
        incomplete_details envelope
        instructions rule
        max_output_tokens setting
        model setting
        output envelope
        output[0] envelope
        output[0].type envelope
        output[0].id identifier
        output[0].call_id identifier
        output[0].name identifier
        output[0].arguments value
        output[0].status envelope
        parallel_tool_calls setting
        previous_response_id identifier
        reasoning setting
        reasoning.effort setting
        reasoning.summary setting
        store setting
        temperature setting
        text setting
        text.format setting
        text.format.type setting
        tool_choice setting
        tools rule
        tools[0] rule
        tools[0].type envelope
        tools[0].name identifier
        tools[0].description rule
        tools[0].parameters rule
        tools[0].strict rule
        top_p setting
        truncation setting
        metadata envelope
    """,
    "request_2": """
        . envelope
        model setting
        input envelope
        input[0] envelope
        input[0].type envelope
        input[0].role envelope
        input[0].content value
        input[1] envelope
        input[1].type envelope
        input[1].id identifier
        input[1].call_id identifier
        input[1].name identifier
        input[1].arguments value
        input[1].status envelope
        input[2] envelope
        input[2].type envelope
        input[2].call_id identifier
        input[2].output result
        tool_choice setting
        tools rule
        tools[0] rule
        tools[0].type envelope
        tools[0].name identifier
        tools[0].description rule
        tools[0].parameters rule
        tools[0].strict rule
    """,
    "response_2": """
        . envelope
        id identifier
        object envelope
        created_at envelope
        status envelope
        error envelope
        incomplete_details envelope
        instructions rule
        max_output_tokens setting
        model setting
        output envelope
        output[0] envelope
        output[0].type envelope
        output[0].id identifier
        output[0].status envelope
        output[0].role envelope
        output[0].content value
        output[0].content[0] envelope
        output[0].content[0].type envelope
        output[0].content[0].text value
        output[0].content[0].annotations value
        output[0].content[0].logprobs value
        parallel_tool_calls setting
        previous_response_id identifier
        reasoning setting
        reasoning.effort setting
        reasoning.summary setting
        store setting
        temperature setting
        text setting
        text.format setting
        text.format.type setting
        tool_choice setting
        tools rule
        tools[0] rule
        tools[0].type envelope
        tools[0].name identifier
        tools[0].description rule
        tools[0].parameters rule
        tools[0].strict rule
        top_p setting
        truncation setting
        metadata envelope
    """,
    "mcp_request": """
        . envelope
        jsonrpc envelope
        id identifier
        method envelope
        params envelope
        params.name identifier
        params.arguments value
        params.arguments.path value
        params.arguments.head value
    """,
    "mcp_response": """
        . envelope
        jsonrpc envelope
        id identifier
        result envelope
        result.content result
        result.content[0] envelope
        result.content[0].text result
        result.content[0].type envelope
        result.isError result
    """,
}
TYPES = {
    "request_1": "responses_request",
    "response_1": "responses_response",
    "request_2": "responses_request",
    "response_2": "responses_response",
    "mcp_request": "mcp_request/tools/call",
    "mcp_response": "mcp_response/tools/call",
}


def _is_schema(path: str) -> bool:
    return ".parameters." in path or ".inputSchema." in path


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_field_of_every_fixture(name: str) -> None:
    message = load(name)
    assert detect_type(message) == TYPES[name]
    want = dict(line.split() for line in EXPECTED[name].split("\n") if line.strip())
    got = {}
    for f in walk(message):
        assert not f.match.unclassified, f"{name}: {f.path_text} is not covered by the table"
        if _is_schema(f.path_text):
            assert f.kind == "rule", f"{name}: schema field {f.path_text} must be a rule"
        else:
            got[f.path_text or "."] = f.kind
    assert got == want


@pytest.mark.parametrize(
    ("name", "path", "kind"),
    [
        ("request_1", "tools[0].parameters.properties.path.type", "rule"),
        ("request_1", "tools[0].parameters.required[0]", "rule"),
        ("request_1", "input[0].content", "value"),
        ("request_1", "tool_choice", "setting"),
        ("request_1", "tools[0].strict", "rule"),
        ("response_1", "output[0].arguments", "value"),
        ("response_1", "output[0].call_id", "identifier"),
        ("response_1", "output[0].id", "identifier"),
        ("response_1", "id", "identifier"),
        ("response_1", "status", "envelope"),
        ("response_1", "object", "envelope"),
        ("mcp_request", "params.arguments.head", "value"),
        ("mcp_request", "jsonrpc", "envelope"),
        ("mcp_request", "method", "envelope"),
        ("mcp_request", "id", "identifier"),
        ("mcp_response", "result.content[0].text", "result"),
        ("request_2", "input[2].output", "result"),
        ("request_2", "input[2].call_id", "identifier"),
        ("response_2", "output[0].content[0].text", "value"),
        ("response_2", "output[0].role", "envelope"),
    ],
)
def test_kind_of_named_fields(name: str, path: str, kind: str) -> None:
    assert kind_of(load(name), path) == kind


def test_every_trace_event_is_classified() -> None:
    trace = load("trace")
    assert detect_type(trace) == "trace"
    for f in walk(trace):
        assert not f.match.unclassified, f"trace: {f.path_text} is not covered"
    methods = {e["label"] for e in trace["events"] if e["channel"] == "mcp"}
    assert {"initialize", "tools/list", "tools/call"} <= methods
    for e in trace["events"]:
        body_type = classify(trace, ("events", e["seq"], "body")).message_type
        if e["channel"] == "model":
            assert body_type == (
                "responses_request" if e["label"].startswith("request") else "responses_response"
            )
        elif e["label"] in {"initialize", "tools/list", "tools/call"}:
            side = "mcp_request" if "method" in e["body"] else "mcp_response"
            assert body_type == f"{side}/{e['label']}"
    assert kind_of(trace, "events[4].body.result.tools[0].inputSchema.properties.path.type") == "rule"
    assert kind_of(trace, "events[0].body.params.protocolVersion") == "rule"
    assert kind_of(trace, "links[0].call_id") == "identifier"
    assert kind_of(trace, "answer") == "value"  # the model wrote it; no execution did


@pytest.mark.parametrize("name", ["field_fragments", "responses_roundtrip"])
def test_attachments_are_classified(name: str) -> None:

    trace = load("trace")
    path = DATA_DIR / f"{name}.json"
    build = fragments_from_trace if name == "field_fragments" else roundtrip_from_trace
    data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else build(trace)
    assert detect_type(data) == ("field_fragments" if name == "field_fragments" else "roundtrip")
    for f in walk(data):
        assert not f.match.unclassified, f"{name}: {f.path_text} is not covered"
    if name == "field_fragments":
        assert kind_of(data, "model_call.arguments") == "value"
        assert kind_of(data, "mcp_request.params.arguments.head") == "value"
        assert kind_of(data, "declaration.parameters.properties.path.type") == "rule"
        assert kind_of(data, "mcp_declaration.inputSchema.type") == "rule"
        assert kind_of(data, "feedback.output") == "result"
        assert kind_of(data, "link.mcp_id") == "identifier"
    else:
        assert kind_of(data, "response_1.output[0].call_id") == "identifier"
        assert kind_of(data, "mcp_response.result.content[0].text") == "result"


# ---------------------------------------------------------------- shapes built from the spec
def test_shapes_detected_from_documented_messages() -> None:
    assert detect_type({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}) == "mcp_request/tools/list"
    assert detect_type({"jsonrpc": "2.0", "method": "notifications/initialized"}) == "mcp_request"
    err = {"jsonrpc": "2.0", "id": 7, "error": {"code": -32602, "message": "Unknown tool"}}
    assert detect_type(err) == "mcp_response/error"
    assert kind_of(err, "error.code") == "envelope" and kind_of(err, "error.message") == "envelope"
    assert detect_type({"jsonrpc": "2.0", "id": 1, "result": {}}) == "mcp_response"
    assert (
        detect_type({"jsonrpc": "2.0", "id": 1, "result": {}}, label="tools/call")
        == "mcp_response/tools/call"
    )
    assert detect_type({"model": "m", "input": "读文件"}) == "responses_request"
    assert kind_of({"model": "m", "input": "读文件"}, "input") == "value"
    assert (
        detect_type({"type": "function_call_output", "call_id": "c", "output": "x"}) == "function_call_output"
    )


def test_instruction_and_assistant_items_in_input() -> None:
    request = {
        "model": "gpt-4.1",
        "input": [
            {"role": "developer", "content": "只读文件"},
            {"role": "user", "content": [{"type": "input_text", "text": "读前 5 行"}]},
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "好的"}]},
        ],
    }
    assert kind_of(request, "input[0].content") == "rule"
    assert kind_of(request, "input[1].content[0].text") == "value"
    assert kind_of(request, "input[1].content[0].type") == "envelope"
    assert kind_of(request, "input[2].content[0].text") == "value"


def test_unknown_shapes_are_labelled_unclassified() -> None:
    odd = {"hello": {"world": 1}}
    assert detect_type(odd) == "unclassified"
    match = classify(odd, "hello.world")
    assert match.unclassified and match.kind == "envelope"
    extra = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "x", "arguments": {}},
        "zzz": 1,
    }
    assert classify(extra, "zzz").unclassified
    assert not classify(extra, "params.arguments").unclassified


def test_bundle_of_fragments_uses_each_part_shape() -> None:
    bundle = {
        "parts": [
            {"type": "function_call", "call_id": "c1", "name": "fs__read_text_file", "arguments": "{}"},
            {"name": "read_text_file", "arguments": {"path": "/workspace/notes.txt"}},
            {"content": [{"type": "text", "text": "01"}], "isError": False},
        ],
        "comment": "note",
    }
    assert detect_type(bundle) == "bundle"
    assert kind_of(bundle, "parts[0].call_id") == "identifier"
    assert kind_of(bundle, "parts[1].arguments.path") == "value"
    assert kind_of(bundle, "parts[2].content[0].text") == "result"
    assert classify(bundle, "comment").unclassified


def test_missing_path_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="no field 'output\\[3\\].call_id'"):
        kind_of(load("response_1"), "output[3].call_id")
    with pytest.raises(ValueError, match="pattern, not a path"):
        kind_of(load("response_1"), "output[*].call_id")
    with pytest.raises(ValueError, match="cannot read the path"):
        parse_path("output[0]..id")


def test_patterns_wildcards_and_selectors() -> None:
    msg = {"input": [{"type": "message", "content": "t"}, {"type": "function_call", "arguments": "{}"}]}

    def hit(pattern: str, path: str) -> bool:
        from lessons_lib.core.fieldkinds.kinds import nodes_along

        p = parse_path(path)
        return Pattern.compile(pattern).matches(p, nodes_along(msg, p))

    assert hit("input[type=function_call].arguments", "input[1].arguments")
    assert not hit("input[type=function_call].arguments", "input[0].content") and not hit(
        "input[type=function_call]", "input[0]"
    )
    assert hit("input.**", "input") and hit("input.**", "input[1].arguments") and hit("**", "input[0]")
    assert hit("input[*].*", "input[0].content") and not hit("input[*].*", "input[0]")


def test_every_table_has_a_title_and_compiles() -> None:
    for name, rows in tables().items():
        assert name in TYPE_TITLES
        for row in rows:
            Pattern.compile(row[0] or "")


@given(st.lists(st.one_of(st.integers(0, 30), st.text(min_size=1, max_size=8)), max_size=6))
@example(["@\n"])  # a key with a final newline once passed for a plain key
def test_path_text_round_trips(path: list[Any]) -> None:
    assert parse_path(format_path(path)) == tuple(path)


def test_import_is_cheap() -> None:
    import subprocess
    import sys

    heavy = "('pandas', 'graphviz', 'openai', 'mcp')"
    modules = (
        "lessons_lib.core.fieldkinds.kinds, lessons_lib.views.fieldtree, lessons_lib.views.sidebyside, "
        "lessons_lib.views.diagrams"
    )
    code = f"import {modules}, sys; print([m for m in {heavy} if m in sys.modules])"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).parents[1],
    )
    assert out.stdout.strip() == "[]"
