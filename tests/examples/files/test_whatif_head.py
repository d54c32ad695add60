"""Lesson 09: head 20 -> 5 (and tail) compared field by field on real offline runs."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from lessons_lib.core.paths import WORKSPACE_DIR
from lessons_lib.examples.files.cli_whatif import main
from lessons_lib.examples.files.whatif import ANSWER, LINES, PARSED, compare_head, compare_runs, compare_tail
from lessons_lib.views.changetable import ABSENT, abbreviate
from lessons_lib.views.textwidth import text_table

NOTES = (WORKSPACE_DIR / "notes.txt").read_text(encoding="utf-8").rstrip("\n").split("\n")
N = len(NOTES)
RULE = "tools[0].parameters.properties.head.type"


@pytest.fixture(scope="module")
def table():  # type: ignore[no-untyped-def]
    return compare_head(20, 5)


def test_the_values_and_results_change(table) -> None:  # type: ignore[no-untyped-def]
    expect = {
        ("request_1", "input[0].content"): (
            "请读取 /workspace/notes.txt 的前 20 行。",
            "请读取 /workspace/notes.txt 的前 5 行。",
        ),
        ("response_1", "output[0].arguments"): (
            '{"path": "/workspace/notes.txt", "head": 20}',
            '{"path": "/workspace/notes.txt", "head": 5}',
        ),
        (PARSED, "head"): (20, 5),
        ("mcp_request", "params.arguments.head"): (20, 5),
        (LINES, "line_count"): (20, 5),
        (LINES, "last_line"): (NOTES[19], NOTES[4]),
        ("mcp_response", "result.content[0].text"): ("\n".join(NOTES[:20]), "\n".join(NOTES[:5])),
        ("request_2", "input[2].output"): ("\n".join(NOTES[:20]), "\n".join(NOTES[:5])),
    }
    for (message, path), (before, after) in expect.items():
        row = table.row(message, path)
        assert (row.before, row.after, row.changed) == (before, after, True), (message, path)
    answer = table.row(ANSWER, "answer")
    assert (
        answer.changed
        and "前 5 行" in answer.after
        and NOTES[4] in answer.after
        and NOTES[5] not in answer.after
    )
    assert table.row("response_2", "output[0].content[0].text").after == answer.after


def test_the_rules_names_and_path_do_not_change(table) -> None:  # type: ignore[no-untyped-def]
    unchanged = {
        ("request_1", RULE): "number",
        ("tools/list", "result.tools[0].inputSchema.properties.head.type"): "number",
        ("request_1", "tools[0].name"): "fs__read_text_file",
        ("response_1", "output[0].name"): "fs__read_text_file",
        ("mcp_request", "params.name"): "read_text_file",
        ("mcp_request", "params.arguments.path"): "/workspace/notes.txt",
        (PARSED, "path"): "/workspace/notes.txt",
        ("response_1", "output[0].call_id"): "call_offline_001_1",
        ("mcp_request", "id"): 3,
    }
    for (message, path), value in unchanged.items():
        row = table.row(message, path)
        assert (row.before, row.after, row.changed) == (value, value, False), (message, path)
    assert table.row("request_1", RULE).kind == "rule"
    assert not [r for r in table if r.kind == "rule" and r.changed], "a rule changed with the value"


def test_exactly_the_expected_fields_change(table) -> None:  # type: ignore[no-untyped-def]
    changed = {(r.message, r.path) for r in table.changed()}
    assert changed == {
        ("request_1", "input[0].content"),
        ("response_1", "output[0].arguments"),
        (PARSED, "head"),
        ("mcp_request", "params.arguments.head"),
        ("mcp_response", "result.content[0].text"),
        (LINES, "line_count"),
        (LINES, "last_line"),
        ("request_2", "input[0].content"),
        ("request_2", "input[1].arguments"),
        ("request_2", "input[2].output"),
        ("response_2", "output[0].content[0].text"),
        (ANSWER, "answer"),
    }
    kinds = {r.kind for r in table.changed()}
    assert kinds == {"value", "result"}


def test_steps_and_kinds_label_every_row(table) -> None:  # type: ignore[no-untyped-def]
    steps = [r.step for r in table]
    assert steps == sorted(steps, key=["declaration", "call", "execution", "feedback"].index)
    assert table.row("mcp_request", "params.arguments.head").step == "execution"
    assert table.row("request_1", "input[0].content").kind == "value"
    assert table.row("response_1", "output[0].call_id").kind == "identifier"
    assert table.row("mcp_request", "jsonrpc").kind == "envelope"
    assert table.row("request_2", "input[2].output").kind == "result"
    df = table.df
    assert list(df.columns) == ["step", "message", "path", "kind", "before", "after", "changed"]
    assert len(df) == len(table) and int(df["changed"].sum()) == 12


@pytest.mark.parametrize("head", range(1, N + 1))
def test_every_head_from_one_to_the_line_count(head: int) -> None:
    t = compare_head(20, head)
    assert t.row("mcp_request", "params.arguments.head").after == head
    assert t.row(PARSED, "head").after == head
    assert t.row(LINES, "line_count").after == head
    assert t.row(LINES, "last_line").after == NOTES[head - 1]
    assert t.row("request_2", "input[2].output").after == "\n".join(NOTES[:head])
    assert t.row("request_1", RULE).after == "number"
    assert bool(t.changed().rows) == (head != 20)


@pytest.mark.parametrize("after", [1, 3, 5, N - 1, N])
def test_tail(after: int) -> None:
    t = compare_tail(20, after)
    assert t.labels == ("tail=20", f"tail={after}")
    assert t.row("mcp_request", "params.arguments.tail").after == after
    assert t.row(LINES, "first_line").after == NOTES[-after]
    assert t.row(LINES, "last_line").after == NOTES[-1]  # no empty last line (the reference server's bug)
    assert t.row("request_2", "input[2].output").after == "\n".join(NOTES[-after:])
    assert not t.row("request_1", "tools[0].parameters.properties.tail.type").changed


def test_head_against_tail_shows_fields_present_on_one_side_only() -> None:
    from lessons_lib.examples.files.whatif import cached_run

    t = compare_runs(cached_run(20), cached_run(None, 5))
    head = t.row("mcp_request", "params.arguments.head")
    tail = t.row("mcp_request", "params.arguments.tail")
    assert (head.before, head.after, head.changed) == (20, ABSENT, True)
    assert (tail.before, tail.after, tail.changed) == (ABSENT, 5, True)
    assert "—" in t.text()


def test_bad_counts_are_refused() -> None:
    for bad in (0, -1, True, 2.5, "5"):
        with pytest.raises(ValueError, match="at least 1"):
            compare_head(20, bad)  # type: ignore[arg-type]


def test_display_is_abbreviated_deterministic_and_escaped(table) -> None:  # type: ignore[no-untyped-def]
    key = table.key()
    assert key.view == "key" and key.title().startswith("关键字段") and len(key) < 25
    text = table.changed().text()
    assert '"01 项目笔记' in text and "〔20 行〕" in text and "〔5 行〕" in text
    assert max(len(line) for line in text.splitlines()) < 200
    bundle = table._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert bundle == compare_head(20, 5)._repr_mimebundle_()
    for out in (bundle["text/plain"], bundle["text/html"], repr(table)):
        assert not re.search(r"0x[0-9a-f]{6,}|/work/|/tmp/|/root/", out)
    assert '{"path"' not in bundle["text/html"] and "{&quot;path&quot;" in bundle["text/html"]
    assert repr(table) == "ChangeTable('head=20' -> 'head=5', rows=148, changed=12)"


def test_abbreviate_and_text_table() -> None:
    assert abbreviate(20) == "20" and abbreviate(ABSENT) == "—" and abbreviate("number") == '"number"'
    long = "".join(NOTES)
    assert abbreviate(long) == abbreviate(long) and "…" in abbreviate(long)
    assert abbreviate("a\nb") == '"a⏎b"〔2 行〕'
    assert text_table(["值", "x"], [["中文", "1"]]).splitlines()[2] == "中文  1"


def test_cli_prints_the_same_table() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "lessons_lib", "whatif", "--head", "20", "--vs", "5", "--all"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == compare_head(20, 5).text()


def test_cli_views_and_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--head", "20", "--vs", "5", "--changed"]) == 0
    assert capsys.readouterr().out == compare_head(20, 5).changed().text()
    assert main(["--tail", "20", "--vs", "3", "--key"]) == 0
    out = capsys.readouterr().out
    assert "params.arguments.tail" in out and "tail=3" in out
    assert main(["--head", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("whatif: head must be") and "Traceback" not in err and len(err.splitlines()) == 1
    assert main(["--head", "five"]) == 2
    assert "invalid int value" in capsys.readouterr().err
    assert main(["--head", "3", "--tail", "3"]) == 2


def test_trace_json_is_plain_data(table) -> None:  # type: ignore[no-untyped-def]
    from lessons_lib.examples.files.whatif import cached_run

    json.dumps(cached_run(5).to_dict())
    assert cached_run(5) is cached_run(5)
