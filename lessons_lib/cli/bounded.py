"""Run a grading command again in a child process with a wall-clock bound. Lessons 11 and 12.

``grade FILE`` and ``grade-server FILE`` run the learner's code; a loop or a tool that never
returns must not hold the teacher's terminal. :func:`run_bounded` starts ``python -m lessons_lib
COMMAND ... --in-process`` in a process group of its own, relays its output and exit code, and
after ``seconds`` ends the group and prints one line (exit 1). Ctrl-C ends the child too and
prints one line (exit 130), never a traceback.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Sequence

INTERRUPTED = 130
"""The exit code of a command stopped by Ctrl-C (128 + SIGINT, as shells report it)."""


def _group_options() -> dict[str, object]:
    """A new process group: ``start_new_session`` on POSIX, ``CREATE_NEW_PROCESS_GROUP`` on Windows."""
    if os.name == "nt":
        return {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)}
    return {"start_new_session": True}


def _end(proc: subprocess.Popen[bytes]) -> None:
    """Kill the child and everything it started (its whole group where the platform has groups)."""
    if hasattr(os, "killpg"):
        try:
            os.killpg(proc.pid, getattr(signal, "SIGKILL", signal.SIGTERM))
        except OSError:
            pass
    proc.kill()


def _relay(out: bytes, err: bytes) -> None:
    """Write the child's output through this process's streams (their encoding policy applies)."""
    sys.stdout.write(out.decode("utf-8", errors="replace"))
    sys.stderr.write(err.decode("utf-8", errors="replace"))
    sys.stdout.flush()


def run_bounded(command: str, argv: Sequence[str], seconds: float, what: str) -> int:
    """Run ``python -m lessons_lib COMMAND ARGV --in-process``; its exit code, or 1 after ``seconds``.

    The child imports this same package (its folder first on ``PYTHONPATH``) and writes UTF-8.
    """
    from pathlib import Path

    from lessons_lib.core.messages import language

    here = str(Path(__file__).resolve().parents[2])  # the folder that holds lessons_lib/
    paths = [here, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "PYTHONIOENCODING": "utf-8"}
    child = [sys.executable, "-m", "lessons_lib", f"--lang={language()}", command, *argv, "--in-process"]
    proc = subprocess.Popen(
        child, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, **_group_options()
    )  # type: ignore[call-overload]
    try:
        out, err = proc.communicate(timeout=seconds)
        _relay(out, err)
        return int(proc.returncode)
    except subprocess.TimeoutExpired:
        _end(proc)
        _relay(*proc.communicate())
        print(
            f"{command}: {what} did not finish within {seconds:g} s and was stopped "
            "(a loop or a tool that never returns?); raise --timeout if it only needs longer",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        _end(proc)
        print(f"{command}: interrupted (Ctrl-C); nothing was graded", file=sys.stderr)
        return INTERRUPTED
