"""Lesson 12's grader against the situations of issue 39: every wrong server of the catalogue is
rejected at its expected check, right servers in several styles pass (the notebook's reference
solution among them), and a tool that never returns is stopped and named instead of hanging.
"""

from __future__ import annotations

import json
import sys
import time
import types
from pathlib import Path
from typing import Any

import pytest
from _wrong_servers import RIGHT_STYLES, WRONG

from lessons_lib import grade_server
from lessons_lib.workshop.server.cases import asks, build_hidden

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "12_write_a_server.ipynb"
ISSUE_39_CASES = {
    "root_check_by_string_prefix",
    "walks_into_linked_folder",
    "truncated_when_exactly_limit",
    "limit_per_file",
    "stops_without_truncated",
    "over_long_query_searched",
    "tabs_are_not_blank",
    "query_as_regex",
    "each_occurrence_a_match",
    "last_line_dropped",
    "cut_by_bytes",
    "file_path_finds_nothing",
    "traceback_in_error",
}


def _solution_builder() -> Any:
    """``build_notes_server`` as lesson 12's reference cell defines it (MCPServer, rglob)."""
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    source = next(
        "".join(c["source"])
        for c in cells
        if "solution" in c.get("metadata", {}).get("tags", [])
        and "def build_notes_server" in "".join(c["source"])
    )
    module = types.ModuleType("lesson12_solution")  # pydantic resolves the TypedDicts through it
    sys.modules[module.__name__] = module
    exec(compile(source, "lesson12_solution", "exec"), module.__dict__)
    return module.build_notes_server


def test_every_situation_of_issue_39_has_a_wrong_server() -> None:
    assert ISSUE_39_CASES <= set(WRONG)


@pytest.mark.parametrize("name", sorted(RIGHT_STYLES))
def test_right_low_level_styles_pass(name: str) -> None:
    report = grade_server(RIGHT_STYLES[name])
    assert report.passed, report.text()


def test_the_notebooks_reference_solution_passes() -> None:
    report = grade_server(_solution_builder())
    assert report.passed, report.text()


def test_the_hidden_folder_holds_each_situation(tmp_path: Path) -> None:
    hidden = build_hidden(tmp_path)
    keys = {a.key for a in asks(hidden)}
    assert {
        "limit_across",
        "limit_exact",
        "limit_later",
        "literal_dot",
        "literal_bracket",
        "per_line",
    } <= keys
    assert {"last_line", "characters", "file_path", "bad_tabs", "bad_long", "out_prefix"} <= keys
    assert not (hidden.root / "tail.txt").read_text(encoding="utf-8").endswith("\n")
    assert (tmp_path / f"{hidden.root.name}-private").is_dir()
    if hidden.has_symlink:
        assert "out_link_dir" in keys and (hidden.root / "linked").is_symlink()


def test_a_sync_tool_that_never_returns_is_stopped_and_named() -> None:
    from mcp.server import MCPServer

    def build_notes_server(root: Path) -> MCPServer:
        server = MCPServer("notes")

        @server.tool()
        def search_notes(query: str, limit: int = 5, path: str = "/workspace") -> dict[str, Any]:
            """Never returns."""
            while True:
                time.sleep(0.01)

        return server

    started = time.perf_counter()
    report = grade_server(build_notes_server, timeout=1.0)
    assert time.perf_counter() - started < 20
    assert not report.passed and report.link == "responds", report.text()
    assert "search_notes" in report.text() or "finds" in report.text() or "input_schema" in report.text()
