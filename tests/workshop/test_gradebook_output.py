"""The gradebook's own output: safe cells, one row per learner, a file written whole or not at all.

Fast, in-process tests of ``lessons_lib.workshop.gradebook.loops`` and ``gradebook_cli`` (no grading
process is started): OWASP's formula prefixes are quoted, two files of one learner are one row
per exercise, a submission gone before its turn is a row, and an ``-o`` that cannot be written
is a one-line error before any grading (and, should it fail at the end, the CSV is not lost).
"""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

import pytest

from lessons_lib.workshop.gradebook.cli import OutputError, check_output, write_output
from lessons_lib.workshop.gradebook.loops import Row, grade, to_csv

FORMULA = ("=", "+", "-", "@", "\t", "\r")


def test_cells_that_could_start_a_formula_are_quoted() -> None:
    nasty = ["=2+5", "+SUM(A1)", "-1+1", "@SUM(1+1)", "\t=1", "\r=1", '=HYPERLINK("http://x")']
    rows = [Row(text, text + ".py", "app_loop", False, "crashed", text, text) for text in nasty]
    parsed = list(csv.reader(io.StringIO(to_csv(rows), newline="")))
    cells = [cell for row in parsed[1:] for cell in row]
    assert not [c for c in cells if c.startswith(FORMULA)]
    assert [row[0] for row in parsed[1:]] == ["'" + text.replace("\r", "\n") for text in nasty]
    assert len(parsed) == 1 + len(nasty), "a carriage return cannot end a row early"
    plain = to_csv([Row("ada", "ada.py", "app_loop", True, "", "", "通过")])
    assert plain.splitlines()[1] == "ada,ada.py,app_loop,1,,,通过", "ordinary cells are unchanged"


def test_two_submissions_of_one_learner_give_one_row_per_exercise(tmp_path: Path) -> None:
    (tmp_path / "ada.py").write_text("def app_loop(): pass\n", encoding="utf-8")
    (tmp_path / "ada.ipynb").write_text("{}", encoding="utf-8")
    rows, missing = grade(tmp_path, functions=["app_loop", "route_call"])
    assert [(r.learner, r.exercise, r.link) for r in rows] == [
        ("ada", "app_loop", "duplicate"),
        ("ada", "route_call", "duplicate"),
    ]
    assert "ada.ipynb, ada.py" in rows[0].message and missing == []


def test_a_submission_gone_before_its_turn_is_a_row(tmp_path: Path) -> None:
    from lessons_lib.workshop.gradebook.loops import _job_rows

    rows, _ = _job_rows("bo", "bo.py", tmp_path / "bo.py", ("route_call",), "exercise", 5, 512)
    assert [(r.learner, r.exercise, r.passed, r.link) for r in rows] == [
        ("bo", "route_call", False, "vanished")
    ]
    assert "bo.py" in rows[0].message and str(tmp_path) not in rows[0].message


def test_an_output_path_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "grades.csv").mkdir()
    for bad, says in ((tmp_path / "grades.csv", "is a folder"), (tmp_path / "no" / "g.csv", "no folder")):
        with pytest.raises(OutputError, match=says):
            check_output(bad)
    with pytest.raises(OutputError):
        write_output(tmp_path / "grades.csv", "learner\n")
    assert list(tmp_path.iterdir()) == [tmp_path / "grades.csv"], "no temporary file is left behind"
    good = tmp_path / "ok.csv"
    good.write_text("old\n", encoding="utf-8")
    write_output(good, "learner\nada\n")
    assert good.read_text(encoding="utf-8") == "learner\nada\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grades.csv", "ok.csv"]


def test_the_cli_refuses_a_folder_at_the_output_path_before_grading(tmp_path: Path) -> None:
    (tmp_path / "submitted").mkdir()
    (tmp_path / "submitted" / "ada.py").write_text("while True: pass\n", encoding="utf-8")
    (tmp_path / "grades.csv").mkdir()
    proc = subprocess.run(
        [sys.executable, "-m", "lessons_lib", "grade", str(tmp_path / "submitted"),
         "-o", str(tmp_path / "grades.csv")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 2, proc
    assert len(proc.stderr.strip().splitlines()) == 1 and "is a folder" in proc.stderr, proc.stderr


def test_the_guard_refuses_signals_file_changes_outside_and_native_modules(tmp_path: Path) -> None:
    from lessons_lib.workshop.gradebook.guard import Guard

    own, other = tmp_path / "own", tmp_path / "other"
    guard = Guard([own], [own])
    allowed = [
        ("os.mkdir", (str(own / "new"), 0o777, -1)),
        ("os.rename", (str(own / "a"), str(own / "b"), -1, -1)),
        ("sqlite3.connect", (str(own / "mine.db"),)),
        ("sqlite3.connect", (":memory:",)),
        ("import", ("json", None, [], [], [])),
    ]
    for event, args in allowed:
        guard(event, args)
    refused = [
        ("os.kill", (1, 9)),
        ("os.killpg", (0, 9)),
        ("os.remove", (str(other / "bo.py"), -1)),
        ("os.remove", ("bo.py", 3)),  # relative to a directory descriptor: anywhere
        ("os.rename", (str(own / "a"), str(other / "a"), -1, -1)),
        ("os.link", (str(other / "bo.py"), str(own / "stolen.py"), -1, -1)),
        ("os.symlink", (str(other / "bo.py"), str(own / "stolen.py"), -1)),
        ("os.mkdir", (str(other / "grades.csv"), 0o777, -1)),
        ("sqlite3.connect", (str(other / "planted.db"),)),
        ("sqlite3.connect", ("file:planted.db?mode=rwc",)),
        ("import", ("_posixsubprocess", None, [], [], [])),
        ("import", ("ctypes.util", None, [], [], [])),
        ("import", ("_ctypes", None, [], [], [])),
    ]
    for event, args in refused:
        with pytest.raises(PermissionError):
            guard(event, args)
    assert len(guard.refused) == len(refused)


def test_forbidden_modules_already_imported_are_dropped() -> None:
    code = (
        "import subprocess, sys\n"
        "from lessons_lib.workshop.gradebook.guard import drop_modules\n"
        "drop_modules()\n"
        "assert '_posixsubprocess' not in sys.modules\n"
        "assert not hasattr(subprocess, '_posixsubprocess') and not hasattr(subprocess, '_fork_exec')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
