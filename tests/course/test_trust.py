"""``python -m lessons_lib trust``: the course's notebooks are signed in a trust database, a notebook
with a script in its outputs never is, and bad input is one line with exit 2."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from conftest import NOTEBOOKS_DIR, REPO_ROOT
from nbformat.sign import NotebookNotary

from lessons_lib.course.trust import trust_notebooks

LESSON = NOTEBOOKS_DIR / "05_closed_loop.ipynb"


def _trusted(path: Path, data_dir: Path) -> bool:
    data_dir.mkdir(parents=True, exist_ok=True)
    with NotebookNotary(data_dir=str(data_dir)) as notary:
        return bool(notary.check_signature(nbformat.read(path, as_version=4)))


def _with_script(tmp_path: Path) -> Path:
    nb = nbformat.read(LESSON, as_version=4)
    cell = next(c for c in nb.cells if c.cell_type == "code")
    cell.outputs = [nbformat.v4.new_output("display_data", data={"text/html": "<script>alert(1)</script>"})]
    path = tmp_path / "bad.ipynb"
    nbformat.write(nb, path)
    return path


def test_course_notebooks_are_signed_and_files_unchanged(tmp_path: Path) -> None:
    copy = tmp_path / LESSON.name
    shutil.copy(LESSON, copy)
    before = copy.read_bytes()
    assert not _trusted(copy, tmp_path / "db")
    report = trust_notebooks([copy], data_dir=str(tmp_path / "db"))
    assert report.signed == (copy,) and report.refused == ()
    assert _trusted(copy, tmp_path / "db")
    assert copy.read_bytes() == before


def test_a_notebook_with_a_script_is_refused(tmp_path: Path) -> None:
    bad = _with_script(tmp_path)
    report = trust_notebooks([bad], data_dir=str(tmp_path / "db"))
    assert report.signed == ()
    assert report.refused[0][0] == bad and "script" in report.refused[0][1]
    assert not _trusted(bad, tmp_path / "db")


@pytest.mark.parametrize("case", ["all", "missing", "script"])
def test_cli(tmp_path: Path, case: str) -> None:
    env = {**os.environ, "JUPYTER_DATA_DIR": str(tmp_path / "data")}
    args = {"all": [], "missing": [str(tmp_path / "nope.ipynb")], "script": [str(_with_script(tmp_path))]}[
        case
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "lessons_lib", "trust", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO_ROOT,
    )
    assert "Traceback" not in proc.stderr
    if case == "all":
        count = len(list(NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb"))) + len(
            list(NOTEBOOKS_DIR.glob("en/[0-9][0-9]_*.ipynb"))
        )
        assert proc.returncode == 0, proc.stderr
        assert f"已信任 {count} 个笔记本" in proc.stdout
        assert _trusted(LESSON, tmp_path / "data")
    elif case == "missing":
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "nope.ipynb" in proc.stderr
    else:
        assert proc.returncode == 1 and "not trusted bad.ipynb" in proc.stderr
