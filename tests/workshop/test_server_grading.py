"""Lesson 12's grader: it passes correct servers of two styles and names the first broken
expectation of each wrong server in tests/_wrong_servers.py (in memory: fast), and over stdio it
finds a print to stdout; the command line gives one-line errors and the exit codes of ``grade``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from _wrong_servers import OK, PRINTS_TO_STDOUT, WRONG, build

from lessons_lib import cli, grade_server, grade_server_file
from lessons_lib.services.notes.server import build_server
from lessons_lib.workshop.server.grading import ServerInputError, grade_course_server
from lessons_lib.workshop.server.judges import EXPECTATIONS
from lessons_lib.workshop.server.probe import quiet_logging

REFERENCE_FILE = Path(__file__).resolve().parents[2] / "lessons_lib" / "services" / "notes" / "server.py"


def test_reference_server_passes_in_memory() -> None:
    report = grade_server(build_server)
    assert report.passed, report.text()
    assert [c.key for c in report.cases] == [e.key for e in EXPECTATIONS]


def test_a_correct_low_level_server_passes_too() -> None:
    report = grade_server(build(OK))
    assert report.passed, report.text()


@pytest.mark.parametrize("name", sorted(WRONG))
def test_each_wrong_server_is_rejected_at_its_first_broken_expectation(name: str) -> None:
    make, key = WRONG[name]
    report = grade_server(make)
    assert not report.passed
    assert report.link == key, report.text()
    assert report.cases[-1].key == key and not report.cases[-1].passed
    assert all(c.passed for c in report.cases[:-1])


def test_the_wrong_catalogue_breaks_at_least_ten_different_expectations() -> None:
    assert len(WRONG) >= 10
    assert len({key for _, key in WRONG.values()}) >= 10


def test_blank_builder_is_unfinished_and_never_raises() -> None:
    def build_notes_server(root):  # type: ignore[no-untyped-def]
        return ...

    report = grade_server(build_notes_server)
    assert report.link == "unfinished" and "还没有完成" in report.text()
    assert grade_server("not a function").link == "start"


def test_a_builder_that_raises_is_named_not_raised() -> None:
    def build_notes_server(root: Path) -> object:
        raise RuntimeError("boom")

    report = grade_server(build_notes_server)
    assert report.link == "start" and "RuntimeError" in report.lines[0]


def test_grading_leaves_the_root_logger_as_it_was() -> None:
    import logging

    before = logging.getLogger().handlers[:]
    grade_server(build_server)
    assert logging.getLogger().handlers == before
    with quiet_logging():
        build_server(Path("."))
    assert logging.getLogger().handlers == before


def test_over_stdio_a_print_to_stdout_is_found(tmp_path: Path) -> None:
    started = time.perf_counter()
    noisy = tmp_path / "noisy_server.py"
    noisy.write_text(PRINTS_TO_STDOUT, encoding="utf-8")
    bad = grade_server_file(noisy)
    assert bad.link == "stdout" and "starting the notes server" in bad.lines[0]
    assert time.perf_counter() - started < 120


def test_a_print_glued_to_a_frame_loses_it_and_the_grader_says_so_at_once() -> None:
    started = time.perf_counter()
    report = grade_course_server("noisy", glued=True)
    assert report.link == "stdout" and '"jsonrpc"' in report.lines[0]
    assert time.perf_counter() - started < 25  # not the 30 s start timeout: the lost frame is seen


def test_bad_files_give_one_line(tmp_path: Path) -> None:
    with pytest.raises(ServerInputError, match="no such file"):
        grade_server_file(tmp_path / "missing.py")
    broken = tmp_path / "broken.py"
    broken.write_text("def (:\n", encoding="utf-8")
    with pytest.raises(ServerInputError, match="line 1: syntax error"):
        grade_server_file(broken)
    text = tmp_path / "notes.txt"
    text.write_text("x", encoding="utf-8")
    with pytest.raises(ServerInputError, match="not a .py file"):
        grade_server_file(text)


def test_cli_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["grade-server", str(tmp_path / "nothing.py")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("grade-server: no such file") and err.count("\n") == 1
    assert cli.main(["grade-server", str(REFERENCE_FILE), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)  # the reference server, over stdio
    assert report["passed"] is True and str(tmp_path) not in json.dumps(report)
    assert "search_notes:" in report["stderr"]  # its log went to stderr, where a log belongs
