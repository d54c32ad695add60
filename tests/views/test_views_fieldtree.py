"""Field trees and side-by-side views: text, HTML, highlight, links, CLI (lessons 03 and 05)."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from lessons_lib import field_tree, side_by_side
from lessons_lib.cli.tree import main
from lessons_lib.core.glossary import KINDS
from lessons_lib.core.paths import DATA_DIR
from lessons_lib.core.traces.trace import load_trace
from lessons_lib.views.fieldtree import FieldTree

DEEP = "tools[0].parameters.properties.path.type"


def _row(html_text: str, path: str) -> str:
    """The HTML row of one field: from its ``data-path`` span to the next row."""
    start = html_text.index(f' data-path="{path}"')
    end = html_text.find(" data-path=", start + 1)
    return html_text[html_text.rindex("<span", 0, start) : end if end > 0 else None]


def test_text_tree_shows_path_value_and_kind() -> None:
    text = field_tree("response_1").text()
    lines = text.splitlines()
    assert lines[0] == "字段树：response_1（Responses 响应）"
    assert "规则 rule" in lines[1] and "未分类 unclassified" in lines[1]
    call_id = next(ln for ln in lines if ln.rstrip().endswith("output[0].call_id"))
    assert '"call_offline_001_1"' in call_id and " 标识 " in call_id and "call_id:" in call_id
    args = next(ln for ln in lines if ln.rstrip().endswith("output[0].arguments"))
    assert "‹JSON 文本›" in args and " 值 " in args
    assert any(ln.startswith("│   └── [0]: {6 个键}") for ln in lines)
    assert "at 0x" not in repr(field_tree("response_1"))


def test_highlight_opens_and_marks_the_field() -> None:
    plain = field_tree("request_1")
    tree = field_tree("request_1", highlight=DEEP)
    assert tree.highlighted == [("tools", 0, "parameters", "properties", "path", "type")]
    line = next(ln for ln in tree.text().splitlines() if DEEP in ln)
    assert line.endswith("◀ 高亮") and "规则" in line
    html_hl, html_plain = tree.html(), plain.html()
    assert "◀ 高亮" in _row(html_hl, DEEP) and "background:#FFF3B0" in _row(html_hl, DEEP)
    # the parameters subtree is closed by default and opened by the highlight
    assert html_plain.count("<details open>") < html_hl.count("<details open>")
    params = html_hl.index(' data-path="tools[0].parameters"')
    assert html_hl.rindex("<details", 0, params) == html_hl.rindex("<details open>", 0, params)
    params = html_plain.index(' data-path="tools[0].parameters"')
    assert html_plain.rindex("<details", 0, params) == html_plain.rindex("<details>", 0, params)


def test_only_shows_a_part_with_its_full_paths_and_kinds() -> None:
    whole = field_tree("request_2")
    part = field_tree("request_2", only="input[2]", highlight="input[2].call_id")
    assert [f.path_text for f in part.fields] == [
        "input[2]",
        "input[2].type",
        "input[2].call_id",
        "input[2].output",
    ]
    assert part.kinds() == {p: k for p, k in whole.kinds().items() if p.startswith("input[2]")}
    lines = part.text().splitlines()
    assert lines[0] == "字段树：request_2（Responses 请求（POST /v1/responses）；只显示 input[2]）"
    assert lines[2].startswith("input[2]: {3 个键}") and lines[-1].startswith("└── output:")
    assert not any("tool_choice" in ln or "input[0]" in ln for ln in lines)
    html_part = part.html()
    assert "只显示 <code>input[2]</code>" in html_part and 'data-path="model"' not in html_part
    assert "◀ 高亮" in _row(html_part, "input[2].call_id")
    # open_depth counts from the part's root: depth 1 opens the part, not what lies below it
    deep = field_tree("request_1", only="tools[0]", open_depth=1).html()
    assert deep.startswith('<div class="lessons-fieldtree"') and "<details open><summary><span" in deep
    params = deep.index(' data-path="tools[0].parameters"')
    assert deep.rindex("<details", 0, params) == deep.rindex("<details>", 0, params)
    # two parts, and a part inside another is shown once
    two = field_tree("request_1", only=["tool_choice", "tools[0]", "tools[0].parameters"])
    assert two.roots == [("tool_choice",), ("tools", 0)]
    assert "only='tool_choice、tools[0]'" in repr(two)
    with pytest.raises(ValueError, match="only 'input\\[9\\]' matches no field of request_2"):
        field_tree("request_2", only="input[9]")
    with pytest.raises(ValueError, match="highlight 'model' matches no field"):
        field_tree("request_2", only="input[2]", highlight="model")


def test_side_by_side_keeps_a_part_given_as_a_field_tree() -> None:
    whole = side_by_side("response_1", "mcp_request")
    part = side_by_side(field_tree("response_1", only="output[0].arguments"), "mcp_request")
    assert [f.path_text for f in part.left.fields] == ["output[0].arguments"]
    assert [(k.left, k.right, k.parsed) for k in part.shared] == [
        (("output", 0, "arguments"), ("params", "arguments"), "left")
    ]
    assert (
        len(whole.left.fields) == len(field_tree("response_1").fields)
        and 'data-path="model"' not in part.html()
    )
    assert "只显示 output[0].arguments" in part.text()
    assert [f.path_text for f in part.right.fields] == [f.path_text for f in whole.right.fields]


def test_highlight_accepts_patterns_and_lists_and_rejects_unknown_paths() -> None:
    tree = field_tree("request_2", highlight=["input[*].call_id", "model"])
    assert tree.highlighted == [("input", 1, "call_id"), ("input", 2, "call_id"), ("model",)]
    with pytest.raises(ValueError, match="matches no field of request_2"):
        field_tree("request_2", highlight="input[7].call_id")


def test_html_has_legend_colours_and_escapes_user_text() -> None:
    tree = field_tree({"model": "m", "input": "<script>alert(1)</script> & 读"})
    page = tree.html()
    assert "<script>" not in page and "&lt;script&gt;" in page
    for style in KINDS.values():
        assert style.colour in page and style.zh in page
    assert page.count("<details") == page.count("</details>")
    standalone = tree.page()
    assert standalone.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in standalone


def test_accepts_json_text_trace_events_and_traces() -> None:
    trace = load_trace(DATA_DIR / "trace.json")
    event = trace.events[7]
    tree = field_tree(event)
    assert tree.message_type == "mcp_request/tools/call" and tree.title.startswith("[08] tools/call")
    assert field_tree(json.dumps(event["body"])).kinds()["params.arguments"] == "value"
    assert field_tree(trace).message_type == "trace"
    with pytest.raises(ValueError, match="not valid JSON"):
        field_tree("{not json")
    with pytest.raises(ValueError, match="no message file"):
        field_tree("no_such_fixture")


def test_mimebundle_has_plain_and_html() -> None:
    bundle = field_tree("mcp_request")._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert bundle["text/plain"] == str(field_tree("mcp_request"))


def test_side_by_side_links_arguments_text_to_mcp_object() -> None:
    view = side_by_side("response_1", "mcp_request")
    assert [(k.left, k.right, k.kind, k.parsed) for k in view.shared] == [
        (("output", 0, "arguments"), ("params", "arguments"), "value", "left")
    ]
    text = view.text()
    assert "⇄1  值  output[0].arguments  =  params.arguments（左侧是 JSON 文本，解析后相等）" in text
    assert re.search(r"output\[0\]\.arguments\s+⇄1", text)
    html_text = view.html()
    ids = set(re.findall(r' id="(ft[0-9a-f]{8}-[lr]-\d+)"', html_text))
    targets = re.findall(r'href="#(ft[0-9a-f]{8}-[lr]-\d+)"', html_text)
    assert len(targets) == 2 and set(targets) <= ids
    assert "at 0x" not in repr(view) and set(view._repr_mimebundle_()) == {"text/plain", "text/html"}


def test_side_by_side_links_mcp_result_text_to_feedback_output() -> None:
    view = side_by_side("mcp_response", "request_2")
    pairs = {(k.left, k.right) for k in view.shared}
    assert (("result", "content", 0, "text"), ("input", 2, "output")) in pairs
    same = side_by_side("request_1", "request_2")
    kept = {(k.left, k.right) for k in same.shared}
    assert (("tools",), ("tools",)) in kept  # the rule travels unchanged: one link, not one per field
    assert not any(
        k.left[:1] == ("tools",) and len(k.left) > 1 and k.right[:1] == ("tools",) for k in same.shared
    )
    assert all(k.kind != "envelope" for k in same.shared)


def test_side_by_side_highlight_must_match_a_side() -> None:
    view = side_by_side("response_1", "mcp_request", highlight="params.arguments.head")
    assert view.right.highlighted and not view.left.highlighted
    with pytest.raises(ValueError, match="either side"):
        side_by_side("response_1", "mcp_request", highlight="nope")


def _digest_in_subprocess() -> str:
    code = (
        "import hashlib, lessons_lib as L;"
        "t = L.field_tree('request_2', highlight='input[2].output');"
        "s = L.side_by_side('response_1', 'mcp_request');"
        "print(hashlib.sha256((t.text() + t.html() + s.text() + s.html()).encode()).hexdigest())"
    )
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_output_is_byte_stable_across_processes() -> None:
    t = field_tree("request_2", highlight="input[2].output")
    s = side_by_side("response_1", "mcp_request")
    here = hashlib.sha256((t.text() + t.html() + s.text() + s.html()).encode()).hexdigest()
    assert _digest_in_subprocess() == here == _digest_in_subprocess()


# ---------------------------------------------------------------- command line
def test_cli_prints_tree_and_lists_trace_events(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["request_1", "--highlight", DEEP]) == 0
    assert "◀ 高亮" in capsys.readouterr().out
    assert main([str(DATA_DIR / "trace.json")]) == 0
    listing = capsys.readouterr().out
    assert "用 --event 选一条" in listing and "response_1" in listing and "tools/call" in listing
    # messages are numbered from 1, as in every lesson: [07] is response_1, [08] the tools/call
    row = next(line for line in listing.splitlines() if line.endswith("  tools/call"))
    assert row.split()[0] == "[08]", listing
    for number in ("8", "08", "[08]"):
        assert main(["trace", "--event", number]) == 0
        assert "params.arguments.head" in capsys.readouterr().out
    assert main(["trace", "--event", "7"]) == 0
    assert "output[0].arguments" in capsys.readouterr().out
    assert main(["trace", "--event", "response_2"]) == 0
    assert "output[0].content[0].text" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nope.json"], "no message file"),
        (["trace", "--event", "request_9"], "no event 'request_9'"),
        (["trace", "--event", "0"], "no event '0'"),
        (["request_1", "--event", "3"], "needs a trace file"),
        (["request_1", "--highlight", "zzz"], "matches no field"),
    ],
)
def test_cli_bad_input_is_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_cli_html_export(tmp_path: Path) -> None:
    out = tmp_path / "slide.html"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "lessons_lib",
            "tree",
            "response_1",
            "--highlight",
            "output[0].call_id",
            "--html",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "种类：" in page and "◀ 高亮" in page
    assert isinstance(FieldTree, type)
