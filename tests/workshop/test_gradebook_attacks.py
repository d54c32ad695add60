"""Issue 24's gradebook attacks, each a submission: refused or harmless, and the run goes on.

One folder, graded once by ``python -m lessons_lib grade`` as a teacher runs it (the exercise
``to_feedback`` only, so the run is short), with a key in the teacher's environment. Every
attacker's file is lesson 11's reference plus the attack at its top level, so without the attack
it would pass; the honest neighbours beside them must keep their verdicts. Each attack here
broke the gradebook before the trusted-side rewrite (a traceback, a lost CSV, a forged pass,
the key in the CSV, a file planted or deleted).
"""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_gradebook import EXERCISES, _solutions

SECRET = "sk-teacher-secret-0123456789"
MARK = "victim-secret-marker-42"
FORMULA = ("=", "+", "-", "@", "\t", "\r")

ATTACKS = {
    "aa_kill": """
import os, signal
for attempt in (lambda: os.kill(os.getppid(), signal.SIGKILL), lambda: os.killpg(0, signal.SIGKILL)):
    try:
        attempt()
    except OSError:
        pass
""",
    "ab_delete": """
import os
try:
    os.remove({victim!r})
except OSError:
    pass
""",
    "ac_mkdir": """
import os
try:
    os.mkdir({out!r})
except OSError:
    pass
""",
    "ad_plant": """
import os, sqlite3
for attempt in (
    lambda: os.mkdir({planted!r}),
    lambda: sqlite3.connect({planted_db!r}).execute("create table t(x)"),
):
    try:
        attempt()
    except Exception:
        pass
""",
    "ae_link": """
import os
try:
    os.link({victim!r}, "stolen.py")
    STOLEN = open("stolen.py").read()
except OSError:
    STOLEN = ""
if STOLEN:
    raise RuntimeError(STOLEN[:200])
""",
    "af_fork": """
try:
    import _posixsubprocess, os
    _posixsubprocess.fork_exec(
        ["/bin/sh", "-c", "echo pwned > {pwned}"], [b"/bin/sh"], True, (), None, None,
        -1, -1, -1, -1, -1, -1, *os.pipe(), False, False, -1, None, None, -1, -1, None, True)
except Exception:
    pass
""",
    "ag_env": """
import os
LEAK = "KEY=" + str(os.environ.get("OPENAI_API_KEY"))
try:
    import posix  # the interpreter's start-up copy of the environment
    LEAK += str(posix.environ.get(b"OPENAI_API_KEY"))
except ImportError:
    pass
raise RuntimeError(LEAK)  # the message lands in the gradebook
""",
}
FORGER = """
import gc, json, pickle
import lessons_lib.checks.checker as base
from multiprocessing.connection import Connection

def to_feedback(call_id, reply):
    return None  # wrong: the forged messages and the patched checker below must not pass it

def _passed(title, hint, checker, fn):
    return base.step_verdict(title, True, "forged")

base.run_checker = _passed  # a patched checker in the learner's own process
row = {"exercise": "to_feedback", "passed": True, "link": "", "hint": "", "message": "forged"}
for conn in [o for o in gc.get_objects() if isinstance(o, Connection)]:
    loaded = json.dumps({"op": "loaded", "blank": False}).encode()
    for forged in (pickle.dumps(row), json.dumps(row).encode(), loaded):
        try:
            conn.send_bytes(forged)
        except Exception:
            pass
"""


@pytest.fixture(scope="module")
def attacked(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The folder, graded once: the rows, the process, and the paths the attacks aimed at."""
    base = tmp_path_factory.mktemp("attacks")
    folder = base / "submitted"
    folder.mkdir()
    out = base / "grades.csv"
    ref = _solutions()
    py = "\n\n".join(ref[name] for name in EXERCISES) + "\n"
    victim = folder / "zz_victim.py"
    paths = {
        "victim": str(victim),
        "out": str(out),
        "planted": str(folder / "planted"),
        "planted_db": str(folder / "planted.db"),
        "pwned": str(base / "pwned"),
    }
    for name, attack in ATTACKS.items():
        (folder / f"{name}.py").write_text(attack.format(**paths) + "\n" + py, encoding="utf-8")
    (folder / "ah_forge.py").write_text(FORGER, encoding="utf-8")
    for name in ("=2+5", "@SUM(1+1)", "-1", "+x"):
        (folder / f"{name}.py").write_text(py, encoding="utf-8")
    victim.write_text(f"# {MARK}\n" + py, encoding="utf-8")
    before = sorted(p.name for p in folder.iterdir())
    env = {**os.environ, "OPENAI_API_KEY": SECRET}
    proc = subprocess.run(
        [sys.executable, "-m", "lessons_lib", "grade", str(folder), "-o", str(out),
         "--function", "to_feedback", "--timeout", "8"],
        capture_output=True, text=True, timeout=400, env=env, start_new_session=True,
    )  # fmt: skip
    rows = list(csv.DictReader(out.open(encoding="utf-8", newline=""))) if out.is_file() else []
    return {"proc": proc, "rows": rows, "out": out, "folder": folder, "before": before, **paths}


def _row(attacked: dict[str, object], learner: str) -> dict[str, str]:
    rows = attacked["rows"]
    assert isinstance(rows, list)
    (row,) = [r for r in rows if r["learner"] == learner]
    return row


def test_the_run_survives_every_attack_with_one_row_per_learner(attacked: dict[str, object]) -> None:
    proc = attacked["proc"]
    assert isinstance(proc, subprocess.CompletedProcess)
    assert proc.returncode == 1, (proc.returncode, proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    rows = attacked["rows"]
    assert isinstance(rows, list)
    learners = [r["learner"] for r in rows]
    assert len(learners) == len(set(learners)) == len(ATTACKS) + 1 + 4 + 1, learners
    assert _row(attacked, "zz_victim")["passed"] == "1", "the neighbour keeps its verdict"


@pytest.mark.parametrize("learner", ["aa_kill", "ab_delete", "ac_mkdir", "ad_plant", "ae_link", "af_fork"])
def test_each_attack_is_refused(attacked: dict[str, object], learner: str) -> None:
    row = _row(attacked, learner)
    assert (row["passed"], row["link"]) == ("0", "refused"), row
    assert "评分时被拒绝" in row["message"], row


def test_no_attack_left_a_trace_on_disk(attacked: dict[str, object]) -> None:
    folder = attacked["folder"]
    assert isinstance(folder, Path)
    assert sorted(p.name for p in folder.iterdir()) == attacked["before"], "nothing planted or deleted"
    assert Path(str(attacked["out"])).is_file(), "the gradebook is a file, not a folder"
    assert not Path(str(attacked["pwned"])).exists(), "no program was started"


def test_the_teachers_key_and_the_neighbours_file_stay_out(attacked: dict[str, object]) -> None:
    proc = attacked["proc"]
    assert isinstance(proc, subprocess.CompletedProcess)
    text = Path(str(attacked["out"])).read_text(encoding="utf-8")
    assert SECRET not in text + proc.stdout + proc.stderr
    assert MARK not in text
    assert _row(attacked, "ag_env")["passed"] == "0"


def test_forged_messages_and_a_patched_checker_do_not_pass(attacked: dict[str, object]) -> None:
    row = _row(attacked, "ah_forge")
    assert row["passed"] == "0", row
    assert "forged" not in row["message"] or "伪造" in row["message"], row


def test_no_cell_can_start_a_formula(attacked: dict[str, object]) -> None:
    text = Path(str(attacked["out"])).read_text(encoding="utf-8")
    cells = [cell for row in csv.reader(io.StringIO(text, newline="")) for cell in row]
    assert not [c for c in cells if c.startswith(FORMULA)], [c for c in cells if c.startswith(FORMULA)]
    row = _row(attacked, "'=2+5")
    assert (row["file"], row["passed"]) == ("'=2+5.py", "1"), row
    assert {_row(attacked, n)["passed"] for n in ("'@SUM(1+1)", "'-1", "'+x")} == {"1"}


def _environ_block(send: object) -> None:
    """In a grading process's place: its environment as the kernel started it."""
    send.send_bytes(Path("/proc/self/environ").read_bytes())  # type: ignore[attr-defined]


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs Linux's /proc")
def test_a_grading_process_starts_without_the_teachers_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not only cleared later: the environment it was started with (``/proc/self/environ``) has no key."""
    from lessons_lib.workshop.gradebook.loops import _context, _ensure_server, _launch

    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    context = _context()
    _ensure_server(context)
    receive, send = context.Pipe(duplex=False)
    proc = context.Process(target=_environ_block, args=(send,))  # type: ignore[attr-defined]
    _launch(proc.start)
    send.close()
    assert receive.poll(120)
    block = receive.recv_bytes()
    proc.join(10)
    assert b"PATH=" in block and SECRET.encode() not in block
    assert os.environ["OPENAI_API_KEY"] == SECRET, "the teacher's own environment is restored"
