"""Lesson 09: bad values, the layer that stops each one, and what the model receives as feedback."""

from __future__ import annotations

import re

import pytest

from lessons_lib.core.example import FAILURE_PREFIX
from lessons_lib.core.traces import queries as q
from lessons_lib.examples.files.badvalues import BAD_VALUES, LAYERS, bad_values_table, run_bad_value


def mcp_pairs(t: object) -> list[tuple[dict, dict | None, str]]:
    """Each tools/call request with its reply and service, through the one set of trace queries."""
    return [(x.request, x.reply, x.service) for x in q.mcp_exchanges(t)]


# name -> (layer, feedback after "ERROR: ", schema check, diagnose's first broken link or None when whole)
EXPECTED = {
    "head_text": (
        "input",
        "Invalid arguments: 'head' must be a number, got str",
        "不通过：'five' is not of type 'number'",
        "parse",
    ),
    "head_negative": ("input", "Invalid arguments: 'head' must be at least 1, got -1", "通过", None),
    "head_zero": ("input", "Invalid arguments: 'head' must be at least 1, got 0", "通过", None),
    "head_and_tail": ("input", "Cannot specify both head and tail parameters simultaneously", "通过", None),
    "unknown_alias": (
        "route",
        "unknown tool 'fs__nope'; declared tools: fs__read_text_file",
        "无法检查：没有名为 fs__nope 的工具声明",
        "route",
    ),
    "unknown_mcp_tool": ("protocol", "protocol error -32602: Unknown tool: nope", "通过", "route"),
    "invalid_json": (
        "parse",
        "arguments is not valid JSON (Expecting ',' delimiter: line 1 column 44 (char 43)); "
        "nothing was executed",
        "无法检查：arguments 不是合法的 JSON 文本",
        "parse",
    ),
    "outside_path": (
        "access",
        "Access denied - path outside allowed directories: /workspace/../etc/passwd not in /workspace",
        "通过",
        None,
    ),
}


def test_the_list_covers_the_brief() -> None:
    assert set(BAD_VALUES) == set(EXPECTED)
    assert {e[0] for e in EXPECTED.values()} == set(LAYERS) - {"schema", "none"}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_bad_value(name: str) -> None:
    layer, message, schema, broken = EXPECTED[name]
    r = run_bad_value(name)
    assert r.layer == layer, r.text()
    assert r.feedback == FAILURE_PREFIX + message
    assert r.schema == schema
    assert not r.file_read
    pairs = mcp_pairs(r.trace)
    if layer in {"parse", "route"}:
        assert pairs == [], "the application must stop it before any MCP request"
    elif layer == "protocol":
        ((request, reply, _),) = pairs
        assert request["params"]["name"] == "nope"
        assert reply is not None and reply["error"]["code"] == -32602 and "result" not in reply
    else:
        ((request, reply, _),) = pairs
        assert reply is not None and reply["result"]["isError"] is True
        assert reply["result"]["content"][0]["text"] == message
    # the model receives the failure and the answer reports it, never a file content
    fed = [
        i["output"]
        for i in (r.trace.body("request_2") or {})["input"]
        if i.get("type") == "function_call_output"
    ]
    assert fed == [r.feedback]
    assert (
        r.trace.answer is not None
        and "没有读到" in r.trace.answer
        and message.split(" (")[0] in r.trace.answer
    )
    diagnosis = dict(r.reports)["diagnose"]
    assert diagnosis.broken_link == broken, diagnosis.text()
    if broken is None:
        assert diagnosis.tool_failed


def test_table() -> None:
    table = bad_values_table()
    assert [r.bad.name for r in table.results] == list(BAD_VALUES)
    assert table.layer_of("head_text") == "input" and table.layer_of("unknown_mcp_tool") == "protocol"
    df = table.df
    assert list(df.index) == list(BAD_VALUES) and df.loc["head_zero", "拦下它的层"] == "服务：输入检查"
    bundle = table._repr_mimebundle_()
    assert "strict: false" in bundle["text/plain"] and "jsonschema" in bundle["text/html"]
    assert bundle == bad_values_table()._repr_mimebundle_()
    assert "&#x27;five&#x27;" in bundle["text/html"]
    for out in (*bundle.values(), repr(table), run_bad_value("head_zero")._repr_mimebundle_()["text/plain"]):
        assert not re.search(r"0x[0-9a-f]{6,}|/work/|/tmp/|/root/", out)
    with pytest.raises(ValueError, match="choose one of"):
        run_bad_value("nope")
