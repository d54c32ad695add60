"""The paper cuts a new user meets (issue 40, point 7), one test each."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from _engine_support import REPO_ROOT, clean_env

from lessons_lib.cli import main as lessons
from lessons_lib.core.messages import speaking

CJK = re.compile(r"[\u4e00-\u9fff]")


def test_a_reader_that_closes_the_pipe_early_gets_no_traceback() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "lessons_lib", "run"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=clean_env(),
        cwd=REPO_ROOT,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # `run | true`: the reader is gone before the first line
    err = proc.stderr.read().decode("utf-8", "replace")
    assert proc.wait(timeout=120) == 1
    assert "Traceback" not in err and "BrokenPipe" not in err, err


def test_diagram_refuses_a_png_instead_of_writing_svg_into_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.png"
    assert lessons(["diagram", "loop", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert not out.exists() and "x.png" in err and ".svg" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("example", ["orders", "openapi"])
def test_a_failed_live_run_never_prints_answer_none(
    example: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # nothing listens: the call fails
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.delenv("LESSONS_MODEL", raising=False)
    assert lessons(["--lang", "en", "run", "--example", example, "--live"]) == 1
    out = capsys.readouterr().out
    assert "None" not in out and "answer: (none: the run did not reach an answer" in out, out


def test_trust_names_a_broken_notebook_and_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter"))
    broken, listed = tmp_path / "broken.ipynb", tmp_path / "listed.ipynb"
    broken.write_text('{"cells": [', encoding="utf-8")
    listed.write_text("[1, 2]", encoding="utf-8")
    good = REPO_ROOT / "notebooks" / "00_start_here.ipynb"
    assert lessons(["trust", str(broken), str(listed), str(good)]) == 1
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "broken.ipynb" in err and "listed.ipynb" in err
    assert "trusted 1, refused 2" in out


def test_tool_choice_any_is_accepted_as_its_help_says(capsys: pytest.CaptureFixture[str]) -> None:
    assert lessons(["run", "--tool-choice", "any", "--json"]) == 0
    assert '"tool_choice": "required"' in capsys.readouterr().out
    with pytest.raises(SystemExit):
        lessons(["run", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "any (Anthropic's word for required" in help_text
    assert "0 the model answered and no tool call failed (with or without calls)" in help_text


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from lessons_lib import __version__

    assert lessons(["--version"]) == 0
    assert capsys.readouterr().out == f"lessons_lib {__version__}\n"


def test_the_readme_lists_every_command_and_says_what_to_do_as_root() -> None:
    readme = " ".join((REPO_ROOT / "README.md").read_text(encoding="utf-8").split())
    for command in ("tool-replay", "tool-catalogue", "injection", "--version"):
        assert f"python -m lessons_lib {command}" in readme, command
    assert "--allow-root" in readme and "Running as root is not recommended" in readme


def test_the_orders_scenarios_help_is_english_in_any_language(capsys: pytest.CaptureFixture[str]) -> None:
    from lessons_lib.examples.orders.cli import main

    with speaking("zh"), pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "investigate" in out and not CJK.search(out), CJK.findall(out)[:5]


def test_whatif_shows_what_changed_unless_asked_for_all(capsys: pytest.CaptureFixture[str]) -> None:
    from lessons_lib.examples.files.whatif import compare_head

    assert lessons(["whatif", "--head", "20", "--vs", "5"]) == 0
    assert capsys.readouterr().out == compare_head(20, 5).changed().text()
    assert lessons(["whatif", "--head", "20", "--vs", "5", "--all"]) == 0
    assert capsys.readouterr().out == compare_head(20, 5).text()
