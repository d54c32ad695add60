"""Issue 23: the grader without POSIX (no ``resource``, no ``SIGALRM``, no ``fork``), simulated on Linux.

A ``sitecustomize`` on ``PYTHONPATH`` removes what Windows' CPython lacks for grading before the
package loads, in the teacher's process and in every grading process it starts. This is a
simulation, not Windows: it shows that no code path needs those three, that the gradebook then
uses ``spawn`` and its own wall-clock limit, that it names the limits it could not set, and that
the verdicts are the same bytes as on Linux.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from test_gradebook import EXERCISES, LESSON, _notebook, _replace, _solutions

SITECUSTOMIZE = """
import os, signal, sys
sys.modules["resource"] = None  # import resource -> ImportError, as on Windows
for name in ("SIGALRM", "alarm", "setitimer"):
    if hasattr(signal, name):
        delattr(signal, name)
for name in ("fork", "forkpty"):
    if hasattr(os, name):
        delattr(os, name)
"""


def _run(args: list[str], site: Path | None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if site is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "lessons_lib", "grade", *args],
        capture_output=True,
        text=True,
        timeout=400,
        env=env,
    )


def _site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    probe = subprocess.run(
        [sys.executable, "-c", "import os, signal; import resource"],
        env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True, text=True,
    )  # fmt: skip
    assert "ImportError" in probe.stderr or "ModuleNotFoundError" in probe.stderr, (
        "the simulation is in place"
    )
    return site


def test_a_learner_grades_their_own_notebook_without_posix(tmp_path: Path) -> None:
    site = _site(tmp_path)
    args = [str(LESSON), "--cells", "solution", "--json"]
    simulated, linux = _run(args, site), _run(args, None)
    assert simulated.returncode == 0, simulated.stderr[-1500:]
    assert "Traceback" not in simulated.stderr
    assert json.loads(simulated.stdout) == json.loads(linux.stdout), "the same verdict as on Linux"


def test_a_folder_is_graded_with_spawn_and_the_parents_clock(tmp_path: Path) -> None:
    site = _site(tmp_path)
    folder = tmp_path / "submitted"
    folder.mkdir()
    ref = _solutions()
    loop = "for _ in range(max_rounds):"
    (folder / "ada.ipynb").write_text(_notebook(ref), encoding="utf-8")
    hang = _replace(ref, "app_loop", loop, "while True:\n        pass\n    " + loop)
    (folder / "ed.py").write_text("\n\n".join(hang[n] for n in EXERCISES) + "\n", encoding="utf-8")
    outs = {}
    for name, where in (("simulated", site), ("linux", None)):
        out = tmp_path / f"{name}.csv"
        proc = _run([str(folder), "-o", str(out), "--function", "app_loop", "--timeout", "5"], where)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr[-1500:]
        outs[name] = (out.read_bytes(), proc.stderr)
    assert outs["simulated"][0] == outs["linux"][0], "the same gradebook, byte for byte"
    assert b"ed,ed.py,app_loop,0,time_limit," in outs["simulated"][0], "the parent's clock stopped the hang"
    note = outs["simulated"][1]
    assert "could not set" in note and "memory limit" in note and "CPU-time limit" in note, note
    assert "could not set" not in outs["linux"][1]
