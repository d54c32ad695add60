"""The grading commands' time bounds and bad input (issue 39): ``grade FILE --timeout`` ends an
endless ``app_loop``, Ctrl-C gives one line, ``grade`` refuses what is not Python, and
``grade-server --timeout`` bounds ``initialize`` and refuses a value not above 0.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lessons_lib import cli

ROOT = Path(__file__).resolve().parents[2]
FOREVER = "def app_loop(task, model, services, **kw):\n    while True:\n        pass\n"
SLOW_START = "import time\n\ntime.sleep(60)\n"


def _command(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "lessons_lib", "--lang=en", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_grade_file_with_an_endless_loop_ends_at_its_timeout(tmp_path: Path) -> None:
    (tmp_path / "forever.py").write_text(FOREVER, encoding="utf-8")
    started = time.perf_counter()
    proc = _command("grade", str(tmp_path / "forever.py"), "--timeout", "2")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1
    assert time.perf_counter() - started < 15
    assert "forever.py did not finish within 2 s" in err and "Traceback" not in err


@pytest.mark.skipif(os.name == "nt", reason="SIGINT to a child: POSIX only")
def test_ctrl_c_gives_one_line(tmp_path: Path) -> None:
    (tmp_path / "forever.py").write_text(FOREVER, encoding="utf-8")
    proc = _command("grade", str(tmp_path / "forever.py"), "--timeout", "60")
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert len(err.strip().splitlines()) == 1 and "interrupted" in err, err


def test_grade_refuses_a_file_that_is_not_python(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("print('never run')\n", encoding="utf-8")
    assert cli.main(["--lang=en", "grade", str(notes), "--in-process"]) == 2
    err = capsys.readouterr().err
    assert "notes.txt is not a .py file or an .ipynb notebook" in err


@pytest.mark.parametrize("value", ["-1", "0", "nan"])
def test_grade_server_refuses_a_timeout_not_above_zero(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    server = str(ROOT / "lessons_lib" / "services" / "notes" / "server.py")
    assert cli.main(["--lang=en", "grade-server", server, "--timeout", value]) == 2
    assert "--timeout must be a positive number" in capsys.readouterr().err


def test_grade_server_timeout_bounds_initialize(tmp_path: Path) -> None:
    (tmp_path / "slow_server.py").write_text(SLOW_START, encoding="utf-8")
    started = time.perf_counter()
    proc = _command("grade-server", str(tmp_path / "slow_server.py"), "--timeout", "2")
    out, err = proc.communicate(timeout=90)
    assert proc.returncode == 1, err
    assert time.perf_counter() - started < 20
