"""The quick reference of lesson 10: real values from data/, kinds from the field tables, commands in step."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import REPO_ROOT

from lessons_lib import cli
from lessons_lib.core.plugins.commands import command_table
from lessons_lib.course import cheatsheet, record
from lessons_lib.course.cheatsheet import command_list, preview, quick_reference

EXAMPLES = {name: command.example for name, command in command_table().items()}
"""Each command's example in the cheat sheet (its row in the command table)."""


@pytest.fixture(scope="module")
def ref() -> cheatsheet.QuickReference:
    return quick_reference()


def _rows(ref: cheatsheet.QuickReference, field: str) -> list[cheatsheet.RefRow]:
    return [r for r in ref.rows if r.field == field]


def test_each_point_has_its_kind(ref: cheatsheet.QuickReference) -> None:
    kinds = {r.field: r.kind for r in ref.rows}
    assert kinds["inputSchema"] == kinds["parameters"] == "rule"
    assert kinds["arguments"] == kinds["params.arguments"] == "value"
    assert kinds["content"] == kinds["isError"] == kinds["output"] == "result"
    assert kinds["call_id"] == kinds["id（MCP）"] == "identifier"


def test_values_come_from_the_recorded_messages(ref: cheatsheet.QuickReference) -> None:
    (arguments,) = _rows(ref, "arguments")
    (params,) = _rows(ref, "params.arguments")
    assert isinstance(arguments.value, str), "the model's arguments must stay JSON text"
    assert (
        json.loads(arguments.value)
        == params.value
        == record.load_fixture("mcp_request.json")["params"]["arguments"]
    )
    (content,) = _rows(ref, "content")
    (output,) = _rows(ref, "output")
    assert content.value == output.value and content.value.count("\n") == 19  # the first 20 lines
    assert _rows(ref, "isError")[0].value is False
    mcp_ids = {r.value for r in _rows(ref, "id（MCP）")}
    call_ids = {r.value for r in _rows(ref, "call_id")}
    assert len(mcp_ids) == 1 and len(call_ids) == 1 and mcp_ids != call_ids
    assert {r.value for r in _rows(ref, "inputSchema") + _rows(ref, "parameters")} == {"number"}


def test_views_are_escaped_and_stable(ref: cheatsheet.QuickReference) -> None:
    bundle = ref._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert "<td " in bundle["text/html"] and "&quot;" in bundle["text/html"]
    assert '"head": 20' not in bundle["text/html"]  # quotes escaped
    assert "at 0x" not in repr(ref) and "at 0x" not in repr(command_list())
    assert bundle == quick_reference()._repr_mimebundle_()
    assert "/work/" not in bundle["text/plain"] and "/tmp/" not in bundle["text/plain"]


def test_preview_keeps_short_values_and_counts_lines() -> None:
    assert preview(3) == "3"
    assert preview({"head": 5}) == '{"head": 5}'
    long = "\n".join(f"{n:02d} 一行比较长的中文文本" for n in range(1, 21))
    shown = preview(long)
    assert shown.endswith("（共 20 行）") and "…" in shown and len(shown) < len(long)


def test_missing_data_gives_one_clear_message(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(record, "DATA_DIR", tmp_path)
    with pytest.raises(ValueError, match="python -m lessons_lib record"):
        quick_reference()


ORDER = ["serve", "run", "record", "verify-fields", "verify-roundtrip", "verify-calls", "diagnose", "tree"]
ORDER += ["diagram", "whatif", "grade", "grade-server", "conformance", "mcp-revisions", "mcp-structure"]
ORDER += ["openapi", "tool-replay", "tool-catalogue", "injection", "trust", "refresh", "edition"]


def test_every_command_has_one_example_in_the_order_lesson_10_shows() -> None:
    listed = command_list()
    assert [r[0] for r in listed.rows] == list(EXAMPLES) == ORDER
    assert all(example.split()[0] == name for name, example in EXAMPLES.items())
    assert "python -m lessons_lib whatif --head 20 --vs 5 --changed" in listed.text()


# serve waits for a client; conformance needs the npm suite
# (tests/examples/network/test_net_conformance.py runs it)
SKIPPED = {"serve", "record", "refresh", "edition", "conformance"}


@pytest.mark.parametrize("name", [n for n in EXAMPLES if n not in SKIPPED])
def test_examples_run(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path))  # trust signs into a scratch database
    monkeypatch.chdir(REPO_ROOT)  # examples name files relative to the repository root
    assert cli.main(EXAMPLES[name].split()) == 0
    assert capsys.readouterr().out.strip()


def test_record_example_runs_into_another_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([*EXAMPLES["record"].split(), "--out", str(tmp_path)]) == 0
    assert (tmp_path / "request_1.json").is_file()
    assert json.loads((tmp_path / "request_1.json").read_text(encoding="utf-8")) == record.load_fixture(
        "request_1"
    )


def test_serve_example_is_a_real_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main([*EXAMPLES["serve"].split(), "--help"])
    assert exc.value.code == 0
    assert "--root" in capsys.readouterr().out
