"""Every solution of lessons 20-33 is folded and sits at the end, after the self-check (issue 38, point 7).

A learner scrolling through the lesson meets the exercise, the quiz and the summary before any
reference answer; the answer cell's source is hidden (``metadata.jupyter.source_hidden``) until
unfolded. Both editions; a lesson of 20-33 that is not in this tree is skipped, not failed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _engine_support import REPO_ROOT

LESSONS = [f"{n}" for n in (20, 21, 22, 30, 31, 32, 33)]
NOTEBOOKS = sorted(
    p
    for lesson in LESSONS
    for p in [
        *REPO_ROOT.glob(f"notebooks/{lesson}_*.ipynb"),
        *REPO_ROOT.glob(f"notebooks/en/{lesson}_*.ipynb"),
    ]
)


def _tags(cell: dict[str, Any]) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def fold_problems(cells: list[dict[str, Any]]) -> list[str]:
    """Solutions not folded, and code cells other than solutions after the first solution."""
    problems = [
        f"cell {i} (solution) is not folded"
        for i, c in enumerate(cells)
        if "solution" in _tags(c)
        and c.get("metadata", {}).get("jupyter", {}).get("source_hidden") is not True
    ]
    first = next((i for i, c in enumerate(cells) if "solution" in _tags(c)), None)
    if first is None:
        return ["no solution cell"]
    problems += [
        f"cell {i} comes after the first solution (cell {first}) but is not one"
        for i, c in enumerate(cells[first:], first)
        if c["cell_type"] == "code" and "solution" not in _tags(c)
    ]
    return problems


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(REPO_ROOT)) for p in NOTEBOOKS])
def test_solutions_are_folded_at_the_end(path: Path) -> None:
    problems = fold_problems(json.loads(path.read_text(encoding="utf-8"))["cells"])
    assert not problems, "\n".join(problems)


def test_the_check_sees_an_open_solution_and_one_in_the_middle() -> None:
    code = {"cell_type": "code", "metadata": {}, "source": ""}
    solution = {"cell_type": "code", "metadata": {"tags": ["solution"]}, "source": ""}
    assert fold_problems([code, solution]) == ["cell 1 (solution) is not folded"]
    folded = {"cell_type": "code", "metadata": {"tags": ["solution"], "jupyter": {"source_hidden": True}}}
    assert fold_problems([code, folded]) == []
    assert fold_problems([folded, code]) == ["cell 1 comes after the first solution (cell 0) but is not one"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(REPO_ROOT)) for p in NOTEBOOKS])
def test_the_last_cell_links_the_next_lesson(path: Path) -> None:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    last = "".join(cells[-1]["source"])
    assert cells[-1]["cell_type"] == "markdown" and ".ipynb)" in last, last
