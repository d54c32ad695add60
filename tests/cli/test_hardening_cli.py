"""Newcomer paper cuts and malformed traces on the command line (issue 11, points 5, 10, 11).

The fuzz takes the recorded trace, breaks it in many small ways (a field set to null, to the
wrong type, removed; an event replaced), and runs every command that reads a trace on each
copy in-process: each must answer with exit code 2 and one line, or handle the copy; an
exception escaping ``main`` (a traceback for the learner) fails the test.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from _engine_support import DATA_DIR, REPO_ROOT, cli

from lessons_lib.cli import checks, diagram, tree
from lessons_lib.core.plugins.commands import command_table

GOOD = json.loads((DATA_DIR / "trace.json").read_text(encoding="utf-8"))
JUNK: list[Any] = [None, 0, -1, 1.5, True, "", "x", [], {}, [None], {"a": None}]


def _places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a value inside the trace (objects and lists), depth first."""
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _places(child, (*path, key))
    elif isinstance(value, list):
        for n, child in enumerate(value):
            yield from _places(child, (*path, n))


def _mutants(count: int, seed: int = 11) -> list[tuple[str, Any]]:
    """``count`` broken copies of the good trace, chosen by a fixed seed (the same every run)."""
    rng = random.Random(seed)
    places = [p for p in _places(GOOD) if p]
    out: list[tuple[str, Any]] = [("events[0]=null", {**GOOD, "events": [None, *GOOD["events"][1:]]})]
    while len(out) < count:
        path = rng.choice(places)
        data = copy.deepcopy(GOOD)
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        if rng.random() < 0.2 and isinstance(parent, dict):
            del parent[path[-1]]
            label = "del " + ".".join(map(str, path))
        else:
            junk = rng.choice(JUNK)
            parent[path[-1]] = junk
            label = ".".join(map(str, path)) + "=" + json.dumps(junk)
        out.append((label, data))
    return out


MUTANTS = _mutants(120)

COMMANDS_ON_A_TRACE: dict[str, Callable[[Path, Path], list[str]]] = {
    "diagram trace": lambda p, out: ["trace", "--trace", str(p), "-o", str(out / "t.svg")],
    "tree --event 7": lambda p, out: [str(p), "--event", "7"],
    "tree --event tools/call": lambda p, out: [str(p), "--event", "tools/call"],
    "diagnose": lambda p, out: [str(p)],
    "verify-fields": lambda p, out: [str(p)],
    "verify-roundtrip": lambda p, out: [str(p)],
}
MAINS: dict[str, Callable[[list[str]], int]] = {
    "diagram trace": diagram.main,
    "tree --event 7": tree.main,
    "tree --event tools/call": tree.main,
    "diagnose": checks.main_diagnose,
    "verify-fields": checks.main_fields,
    "verify-roundtrip": checks.main_roundtrip,
}


def _run(main: Callable[[list[str]], int], argv: list[str]) -> int:
    try:
        return int(main(argv) or 0)
    except SystemExit as exc:  # argparse
        return int(exc.code or 0)


@pytest.mark.parametrize("command", sorted(COMMANDS_ON_A_TRACE))
def test_malformed_traces_get_one_line_and_no_traceback(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    crashes = []
    for label, data in MUTANTS:
        path = tmp_path / "trace.json"
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        try:
            code = _run(MAINS[command], COMMANDS_ON_A_TRACE[command](path, tmp_path))
        except Exception as exc:  # noqa: BLE001  (collected: every crash site is reported at once)
            crashes.append(f"{label}: {type(exc).__name__}: {exc}")
            continue
        err = capsys.readouterr().err
        assert code in (0, 1, 2), (label, code)
        if code == 2:
            assert len(err.strip().splitlines()) == 1, (label, err)
    assert crashes == [], f"{len(crashes)} crashes, e.g. {crashes[:3]}"


def test_help_texts_speak_to_a_learner() -> None:
    for name in command_table():
        if name == "refresh":
            continue  # a maintainer's command; it needs the notebook tools
        done = cli(name, "--help")
        assert done.returncode == 0, (name, done.stderr)
        for internal in ("seed", "ValueError", "``", "dict or", "Trace`", "raises"):
            assert internal not in done.stdout, (name, internal)


def test_error_messages_quote_the_path_as_given(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    for command in ("verify-roundtrip", "diagnose", "verify-fields"):
        done = cli(command, "data/nope.json", cwd=tmp_path)
        assert done.returncode == 2 and "data/nope.json" in done.stderr, (command, done.stderr)
    done = cli("whatif", "--head", "0", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_readme_opens_lab_at_the_root_and_writes_examples_outside_the_repository() -> None:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert "jupyter lab --LabApp.default_url=/lab/tree/notebooks/00_start_here.ipynb" in readme
    assert "jupyter lab notebooks/" not in readme
    assert "-o trace.svg" not in readme and "-o /tmp/trace.svg" in readme
    assert "LESSONS_REFERENCE_SERVER=" in readme  # how to run the reference-server test locally


def test_binder_opens_the_same_lesson_from_the_root() -> None:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert "urlpath=lab/tree/notebooks/00_start_here.ipynb" in readme
