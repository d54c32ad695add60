"""Lesson 06 fits a sitting, and no lesson numbers a message from 0 (issue 13 point 9).

Read from the committed notebooks, as a learner (and strict nbval) meets them. A field tree in
a stored output is recognised by its HTML (``<div class="lessons-fieldtree"``, one per tree,
two in a side-by-side view) and the ``data-path`` of every row it shows: a tree whose rows are
exactly the fields of a message is that whole message; a part (``field_tree(..., only=...)``)
shows fewer rows and does not count.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from conftest import NOTEBOOKS_DIR, course_notebooks

from lessons_lib import load_fixture
from lessons_lib.core.fieldkinds.kinds import walk
from lessons_lib.core.paths import DATA_DIR
from lessons_lib.core.traces.trace import load_trace

LESSON_06 = NOTEBOOKS_DIR / "06_fields_and_objects.ipynb"
MAX_CELLS = 35
FIXTURES = ["request_1", "response_1", "request_2", "response_2", "mcp_request", "mcp_response"]
TREE_START = '<div class="lessons-fieldtree"'
ROW_PATH = re.compile(r' data-path="([^"]*)"')
# a message number counted from 0: "消息 0", "第 0 条", "第零条/项", "message 0", a "[00]" frame
ZERO_BASED = re.compile(r"消息\s*0(?![\d.])|第\s*[0零]\s*[条项个]|第零|\bmessages? 0\b|\[00\]", re.I)


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _html_outputs(cell: dict) -> list[str]:
    return ["".join(o.get("data", {}).get("text/html", [])) for o in cell.get("outputs", [])]


def _tree_paths(html_text: str) -> list[frozenset[str]]:
    """The row paths of each field tree in one HTML output."""
    chunks = html_text.split(TREE_START)[1:]
    return [frozenset(html.unescape(p) for p in ROW_PATH.findall(chunk)) for chunk in chunks]


def _is_whole(paths: frozenset[str], message: frozenset[str]) -> bool:
    """A tree of the whole message: every row, or the root and most rows with a subtree folded
    (``field_tree(..., fold="tools")``, issue 37); a part (``only=``) has no root row."""
    return paths == message or ("" in paths and paths < message and len(paths) * 2 > len(message))


def _whole_trees_shown() -> dict[str, list[int]]:
    messages = {name: load_fixture(f"{name}.json") for name in FIXTURES}
    messages["tools/list"] = load_trace(DATA_DIR / "trace.json").mcp_pair("tools/list")[1]
    whole = {name: frozenset(f.path_text for f in walk(msg)) for name, msg in messages.items()}
    shown: dict[str, list[int]] = {name: [] for name in whole}
    for number, cell in enumerate(_cells(LESSON_06), start=1):
        for output in _html_outputs(cell):
            for paths in _tree_paths(output):
                fits = sorted((len(p - paths), n) for n, p in whole.items() if _is_whole(paths, p))
                if fits:  # the message the tree leaves least out of (request_1 is a subset of request_2)
                    shown[fits[0][1]].append(number)
    return shown


def test_lesson_06_opens_each_whole_message_once() -> None:
    shown = _whole_trees_shown()
    repeated = {name: cells for name, cells in shown.items() if len(cells) > 1}
    assert not repeated, f"lesson 06 shows these whole messages more than once (cells): {repeated}"
    missing = [name for name in FIXTURES if not shown[name]]
    assert not missing, f"lesson 06 never shows these whole messages: {missing}"


def test_the_parts_lesson_06_points_at_are_parts() -> None:
    """The check above is not vacuous: the lesson's side-by-side views show parts of messages."""
    parts = [
        paths
        for cell in _cells(LESSON_06)
        for output in _html_outputs(cell)
        for paths in _tree_paths(output)
        if paths and "" not in paths  # no root row: a part
    ]
    assert {"input[2]", "input[2].output"} <= set().union(*parts)
    assert len(parts) >= 3


def test_lesson_06_fits_a_sitting_and_says_how_it_numbers() -> None:
    cells = _cells(LESSON_06)
    assert len(cells) <= MAX_CELLS, f"lesson 06 has {len(cells)} cells (at most {MAX_CELLS})"
    prose = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    assert "从 1 数" in prose and "从 0 数" in prose, "lesson 06 must say which numbers count from 0"


@pytest.mark.parametrize("notebook", course_notebooks(), ids=lambda p: p.stem)
def test_no_lesson_numbers_a_message_from_zero(notebook: Path) -> None:
    found = []
    for number, cell in enumerate(_cells(notebook), start=1):
        texts = ["".join(cell["source"])] if cell["cell_type"] == "markdown" else []
        for output in cell.get("outputs", []):
            texts.append("".join(output.get("text", [])))
            texts += ["".join(v) for k, v in output.get("data", {}).items() if k.startswith("text/")]
        found += [f"cell {number}: {m.group(0)!r}" for t in texts for m in ZERO_BASED.finditer(t)]
    assert not found, f"{notebook.name} numbers a message from 0: {found}"
