"""The notebook refresh command stores nothing that differs between runs or machines."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from lessons_lib.cli.refresh import main
from lessons_lib.course.refresh import WIDGET_VIEW, clean


def executed_notebook() -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {"abc123": {}}}}
    nb.metadata["language_info"] = {"name": "python", "version": "3.11.7"}
    cell = nbformat.v4.new_code_cell("head_lab()", execution_count=1)
    cell.metadata["execution"] = {"iopub.execute_input": "2026-11-29T19:00:00.000Z"}
    cell.outputs = [
        nbformat.v4.new_output(
            "execute_result",
            data={"text/plain": "HeadLab(head=20, baseline=20, max=36)", WIDGET_VIEW: {"model_id": "f00d"}},
            execution_count=1,
        )
    ]
    nb.cells = [cell]
    return nb


def test_clean_drops_run_dependent_parts_and_keeps_the_text() -> None:
    nb = clean(executed_notebook())
    text = nbformat.writes(nb)
    for gone in ("widget-state", "abc123", "3.11.7", "iopub", "f00d", WIDGET_VIEW):
        assert gone not in text
    assert nb.metadata["language_info"] == {"name": "python"}
    assert nb.cells[0].outputs[0].data == {"text/plain": "HeadLab(head=20, baseline=20, max=36)"}


def test_refresh_executes_in_place(tmp_path: Path) -> None:
    path = tmp_path / "01_x.ipynb"
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("from lessons_lib import task_text\ntask_text(head=5)")]
    nbformat.write(nb, path)
    assert main([str(path)]) == 0
    out = nbformat.read(path, as_version=4).cells[0].outputs
    assert out[0].data["text/plain"] == "'请读取 /workspace/notes.txt 的前 5 行。'"
    assert "execution" not in nbformat.read(path, as_version=4).cells[0].metadata


def test_a_failing_cell_is_reported_and_the_file_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "02_bad.ipynb"
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("1 / 0")]
    nbformat.write(nb, path)
    before = path.read_bytes()
    assert main([str(path)]) == 1
    assert "02_bad.ipynb failed" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_missing_notebook_is_bad_input(tmp_path: Path) -> None:
    assert main([str(tmp_path / "nope.ipynb")]) == 2
