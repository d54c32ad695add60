"""The gradebook grades a folder of twelve submissions into the expected CSV, in bounded time.

The submissions are built from lesson 11's own reference cells, so they follow the lesson:
the reference (a notebook and a .py file), wrong loops (hard-coded arguments, the first output
item taken as the call, no round limit), the starter notebook as handed out (in a learner's
folder, as an exchange folder holds it), a hanging loop, a memory hog, reading /etc/passwd,
opening a socket, a notebook that is not JSON, a Word file and a file without the function.
``python -m lessons_lib grade FOLDER -o grades.csv`` runs as a teacher would run it.
"""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import NOTEBOOKS_DIR

LESSON = NOTEBOOKS_DIR / "11_write_the_loop.ipynb"
EXERCISES = [
    "to_responses_tool",
    "find_calls",
    "route_call",
    "send_tools_call",
    "to_feedback",
    "next_input",
    "app_loop",
    "app_loop_many",
]
TIMEOUT = 6  # seconds per exercise in this test (the reference takes well under one)
ALL_PASS = dict.fromkeys(EXERCISES, "")


def _cells(tag: str) -> list[dict[str, object]]:
    nb = json.loads(LESSON.read_text(encoding="utf-8"))
    return [c for c in nb["cells"] if tag in c["metadata"].get("tags", [])]


def _solutions() -> dict[str, str]:
    """Function name -> the reference cell that defines it."""
    found = {}
    for cell in _cells("solution"):
        source = "".join(cell["source"])  # type: ignore[arg-type]
        (name,) = re.findall(r"^def (\w+)\(", source, re.M)
        if name in EXERCISES:  # the seven steps and stage 3 (app_loop_many)
            found[name] = source
    return found


def _notebook(sources: dict[str, str]) -> str:
    """Lesson 11 with its exercise cells filled in by ``sources`` (function name -> code)."""
    nb = json.loads(LESSON.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if "exercise" in cell["metadata"].get("tags", []):
            (name,) = re.findall(r"^def (\w+)\(", "".join(cell["source"]), re.M)
            cell["source"] = sources.get(name, cell["source"])
    return json.dumps(nb, ensure_ascii=False)


def _replace(sources: dict[str, str], name: str, old: str, new: str) -> dict[str, str]:
    assert old in sources[name], (name, old)
    return {**sources, name: sources[name].replace(old, new)}


def _make_folder(folder: Path) -> dict[str, dict[str, str]]:
    """Write the submissions; return the expected link per learner and exercise ('' = passed)."""
    ref = _solutions()
    assert sorted(ref) == sorted(EXERCISES), sorted(ref)
    py = "\n\n".join(ref[name] for name in EXERCISES) + "\n"
    folder.mkdir()
    loop = "for _ in range(max_rounds):"
    write = {
        "ada.ipynb": _notebook(ref),
        "bo.ipynb": _notebook(
            _replace(
                ref,
                "route_call",
                "json.loads(call.arguments)",
                '{"path": "/workspace/notes.txt", "head": 20}',
            )
        ),
        "cy.ipynb": _notebook(
            _replace(
                ref,
                "find_calls",
                '[item for item in response.output if item.type == "function_call"]',
                "[response.output[0]]",
            )
        ),  # fmt: skip
        "di.py": "\n\n".join(_replace(ref, "app_loop", loop, "while True:")[n] for n in EXERCISES),
        "ed.ipynb": _notebook(_replace(ref, "app_loop", loop, "while True:\n        pass\n    " + loop)),
        "fay.py": "\n\n".join(
            _replace(
                ref,
                "to_feedback",
                "    return {",
                '    try:\n        open("/etc/passwd").read()\n'
                "    except OSError:\n        pass\n    return {",
            )[n]
            for n in EXERCISES
        ),  # fmt: skip
        "gil.py": py.replace(
            "    items = [{",
            '    import socket\n    socket.create_connection(("127.0.0.1", 9), timeout=1)\n    items = [{',
        ),
        "hal.ipynb": "my homework, see attached\n",
        "ivy.docx": "PK not a notebook",
        "kai.py": py.replace("def app_loop(", "def my_loop("),
        "lu.py": py.replace("    items = [{", "    hog = bytearray(8 * 2**30)\n    items = [{"),
        "max.py": py,
    }
    for name, text in write.items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "jo").mkdir()
    (folder / "jo" / "11_write_the_loop.ipynb").write_text(
        LESSON.read_text(encoding="utf-8"), encoding="utf-8"
    )
    (folder / ".ipynb_checkpoints").mkdir()  # never a learner

    expected: dict[str, dict[str, str]] = {
        "ada": ALL_PASS,
        "max": ALL_PASS,
        # stage 3 (app_loop_many) reuses the steps: a broken step shows there too
        "bo": {
            **ALL_PASS,
            "route_call": "route_call",
            "app_loop": "hard_coded",
            "app_loop_many": "hard_coded",
        },
        "cy": {
            **ALL_PASS,
            "find_calls": "find_calls",
            "app_loop": "first_item",
            "app_loop_many": "unexecuted",
        },
        "di": {**ALL_PASS, "app_loop": "no_limit"},
        "ed": {**ALL_PASS, "app_loop": "time_limit"},
        "fay": {**ALL_PASS, "to_feedback": "refused", "app_loop": "refused", "app_loop_many": "refused"},
        "gil": {**ALL_PASS, "app_loop": "refused", "app_loop_many": "refused"},
        "hal": dict.fromkeys(EXERCISES, "bad_input"),
        "ivy": dict.fromkeys(EXERCISES, "not_a_notebook"),
        "jo": {name: name for name in EXERCISES[:-2]}
        | {"app_loop": "unfinished", "app_loop_many": "unfinished"},
        "kai": {**ALL_PASS, "app_loop": "no_function"},
        "lu": {**ALL_PASS, "app_loop": "crashed", "app_loop_many": "crashed"},
    }
    return expected


def test_a_folder_of_submissions_becomes_the_expected_gradebook(tmp_path: Path) -> None:
    expected = _make_folder(tmp_path / "exchange")
    out = tmp_path / "grades.csv"
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "lessons_lib", "grade", str(tmp_path / "exchange"), "-o", str(out),
         "--timeout", str(TIMEOUT)],
        capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    elapsed = time.monotonic() - start
    assert proc.returncode == 1, proc.stderr  # some learners failed; the gradebook is written
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    got = {(r["learner"], r["exercise"]): r for r in rows}
    assert list(rows[0]) == ["learner", "file", "exercise", "passed", "link", "hint", "message"]
    assert len(rows) == len(expected) * len(EXERCISES), "one row per learner and exercise"
    assert [r["learner"] for r in rows] == sorted(r["learner"] for r in rows)
    for learner, links in expected.items():
        for exercise, link in links.items():
            row = got[(learner, exercise)]
            assert (row["passed"], row["link"]) == ("1" if link == "" else "0", link), (
                learner,
                exercise,
                row,
            )
            assert row["message"], row
    assert got[("jo", "app_loop")]["file"] == "jo/11_write_the_loop.ipynb"
    assert "/etc/passwd" in got[("fay", "to_feedback")]["message"]
    assert "套接字" in got[("gil", "app_loop")]["message"]
    assert "MemoryError" in got[("lu", "app_loop")]["message"]
    assert f"{TIMEOUT} 秒" in got[("ed", "app_loop")]["message"]
    failed = [r for r in rows if r["passed"] == "0"]
    assert all(r["hint"] for r in failed), [
        r for r in failed if not r["hint"]
    ]  # every failure: where to look
    assert "ada: 8/8 passed" in proc.stdout and "ed: 7/8 passed" in proc.stdout
    assert str(tmp_path) not in out.read_text(encoding="utf-8"), "no machine path in the gradebook"
    assert elapsed < 150, f"grading took {elapsed:.0f} s"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["no/such/folder"], "没有这个文件"),
        (["{empty}"], "没有作业"),
        (["{empty}", "--function", "nope"], "no exercise"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "empty").mkdir()
    argv = [a.replace("{empty}", str(tmp_path / "empty")) for a in args]
    proc = subprocess.run(
        [sys.executable, "-m", "lessons_lib", "grade", *argv], capture_output=True, text=True
    )
    assert proc.returncode == 2, proc
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_the_guard_refuses_outside_opens_sockets_and_programs(tmp_path: Path) -> None:
    import socket

    from lessons_lib.workshop.gradebook.guard import Guard

    guard = Guard([tmp_path], [tmp_path / "out"])
    guard("open", (str(tmp_path / "notes.txt"), "r", 0))  # inside: allowed
    guard("open", (3, "r", 0))  # an open file descriptor: allowed
    guard("socket.__new__", (None, socket.AF_UNIX, socket.SOCK_STREAM, 0))  # asyncio's socket pair
    refused = [
        ("open", (str(tmp_path / ".." / "secret.txt"), "r", 0)),
        ("open", (str(tmp_path / "notes.txt"), "w", 0)),  # writing is allowed only in out/
        ("os.listdir", ("/etc",)),
        ("socket.__new__", (None, socket.AF_INET, socket.SOCK_STREAM, 0)),
        ("socket.connect", (None, ("/var/run/docker.sock",))),
        ("subprocess.Popen", ("sh", ["sh", "-c", "cat /etc/passwd"], None, None)),
    ]
    for event, args in refused:
        with pytest.raises(PermissionError):
            guard(event, args)
    assert len(guard.refused) == len(refused)
    assert "secret.txt" in guard.refused[0] and "/" + "etc" in guard.refused[2]


def test_the_same_folder_gives_the_same_bytes_wherever_it_lies(tmp_path: Path) -> None:
    from lessons_lib.workshop.gradebook.loops import grade_folder, to_csv

    ref = _solutions()
    texts = []
    for where in ("first", "second/deeper"):
        folder = tmp_path / where
        folder.mkdir(parents=True)
        (folder / "ada.ipynb").write_text(_notebook(ref), encoding="utf-8")
        (folder / "bo.py").write_text("\n\n".join(ref[n] for n in EXERCISES[:-2]) + "\n", encoding="utf-8")
        texts.append(to_csv(grade_folder(folder, ("route_call", "app_loop"), timeout=TIMEOUT)))
    assert texts[0] == texts[1], "a gradebook holds no path, time or process detail"
    lines = texts[0].splitlines()
    assert len(lines) == 1 + 2 * 2
    assert lines[-1].startswith("bo,bo.py,app_loop,0,no_function,"), lines[-1]
