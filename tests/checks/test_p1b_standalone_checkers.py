"""Seed 000's stand-alone checkers in ``examples/`` (issue 37): stdlib only, Python 3.9+, and the same
verdicts as the package's ``verify_fields`` / ``verify_roundtrip`` on the fixtures and on broken copies.

Each script runs with ``python3 -I`` (an interpreter outside the venv when there is one) from a
temporary copy of the folder, so nothing of the course package can be imported by accident.
"""

from __future__ import annotations

import ast
import copy
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lessons_lib import verify_fields, verify_roundtrip
from lessons_lib.core.traces.trace import dump_json
from lessons_lib.course.record import STANDALONE_DIR, standalone_fixtures
from lessons_lib.engine.host import run_chain

FOUR = {"verify_fields.py", "field_fragments.json", "verify_roundtrip.py", "responses_roundtrip.json"}
SCRIPTS = ("verify_fields.py", "verify_roundtrip.py")
LINE = re.compile(r"^(PASS|FAIL) \[(?:sabotage:)?(\w+)\]", re.MULTILINE)
Edit = Callable[[dict[str, Any]], None]


def _bare_python() -> str:
    """A python3 outside the venv (the seed's "bare python3"), else the venv's own."""
    outside = [p for p in os.environ.get("PATH", "").split(os.pathsep) if not p.startswith(sys.prefix)]
    found = shutil.which("python3", path=os.pathsep.join(outside))
    return found or getattr(sys, "_base_executable", sys.executable)


@pytest.fixture(scope="module")
def copied(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("anywhere") / "examples"
    shutil.copytree(STANDALONE_DIR, folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def _run(folder: Path, script: str, data: object | None = None, *extra: str) -> tuple[int, str]:
    args = []
    if data is not None:
        (folder / "input.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        args.append("input.json")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON") and k != "VIRTUAL_ENV"}
    done = subprocess.run(
        [_bare_python(), "-I", "-X", "utf8", script, *args, *extra],
        cwd=folder,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=60,
    )
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    return done.returncode, done.stdout


def _verdicts(out: str) -> dict[str, bool]:
    return {key: word == "PASS" for word, key in LINE.findall(out)}


def test_the_folder_holds_exactly_the_four_files() -> None:
    assert {p.name for p in STANDALONE_DIR.iterdir() if p.name != "__pycache__"} == FOUR


@pytest.mark.parametrize("script", SCRIPTS)
def test_scripts_use_the_standard_library_and_python_39_syntax(script: str) -> None:
    source = (STANDALONE_DIR / script).read_text(encoding="utf-8")
    tree = ast.parse(source, feature_version=(3, 9))
    modules = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    modules |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert modules <= set(sys.stdlib_module_names), modules - set(sys.stdlib_module_names)
    assert not any(isinstance(n, ast.Match) for n in ast.walk(tree))
    annotations = [n for n in ast.walk(tree) if isinstance(n, (ast.arg, ast.AnnAssign)) and n.annotation]
    assert not annotations, "annotations could hold X | Y, which Python 3.9 cannot evaluate"


def test_regenerating_the_fixtures_changes_nothing() -> None:
    for name, obj in standalone_fixtures(run_chain()).items():
        assert (STANDALONE_DIR / name).read_text(encoding="utf-8") == dump_json(obj), name


def _fixture(name: str) -> dict[str, Any]:
    return json.loads((STANDALONE_DIR / name).read_text(encoding="utf-8"))


def _set(path: tuple[Any, ...], value: Any) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        for key in path[:-1]:
            data = data[key]
        data[path[-1]] = value

    return edit


def _drop(path: tuple[Any, ...]) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        for key in path[:-1]:
            data = data[key]
        del data[path[-1]]

    return edit


FIELD_CASES: dict[str, Edit] = {
    "as recorded": lambda d: None,
    "head changed on the way": _set(("mcp_request", "params", "arguments", "head"), 5),
    "feedback trimmed": _set(("feedback", "output"), "01"),
    "reply to another id": _set(("mcp_result", "id"), 4),
    "MCP id as call_id": _set(("feedback", "call_id"), "3"),
    "arguments an object": _set(("model_call", "arguments"), {"path": "/workspace/notes.txt", "head": 20}),
    "value in the rule": _set(
        ("declaration", "parameters", "properties", "path", "enum"), ["/workspace/notes.txt"]
    ),
    "no link": _set(("link",), None),
    "isError left out": _drop(("mcp_result", "result", "isError")),
    "failure sent as success": _set(("mcp_result", "result", "isError"), True),
    "not an object": lambda d: d.clear(),
}
ROUNDTRIP_CASES: dict[str, Edit] = {
    "as recorded": lambda d: None,
    "original call dropped": lambda d: d["request_2"]["input"].pop(1),
    "wrong call_id": _set(("request_2", "input", 2, "call_id"), "call_x"),
    "tools changed": _set(("request_2", "tools"), []),
    "no answer": _set(("response_2", "output"), []),
    "head changed on the way": _set(("mcp_request", "params", "arguments", "head"), 5),
    "isError left out": _drop(("mcp_response", "result", "isError")),
    "no links": _drop(("links",)),
}


@pytest.mark.parametrize("case", list(FIELD_CASES))
def test_verify_fields_agrees_with_the_package(copied: Path, case: str) -> None:
    data = _fixture("field_fragments.json")
    FIELD_CASES[case](data)
    code, out = _run(copied, "verify_fields.py", data)
    report = verify_fields(copy.deepcopy(data))
    assert _verdicts(out) == {c.key: c.passed for c in report.checks}, out
    assert code == (0 if report.ok else 1)


@pytest.mark.parametrize("case", list(ROUNDTRIP_CASES))
def test_verify_roundtrip_agrees_with_the_package(copied: Path, case: str) -> None:
    data = _fixture("responses_roundtrip.json")
    ROUNDTRIP_CASES[case](data)
    code, out = _run(copied, "verify_roundtrip.py", data)
    report = verify_roundtrip(copy.deepcopy(data))
    expected = {c.key: c.passed for c in report.checks} | {s.key: s.passed for s in report.sabotages}
    assert _verdicts(out) == expected, out
    assert code == (0 if report.ok else 1)


def test_each_script_prints_what_it_cannot_prove_and_the_three_sabotages(copied: Path) -> None:
    code, out = _run(copied, "verify_roundtrip.py", None, "--lang", "en")
    assert code == 0
    assert "cannot prove" in out
    for key in ("wrong_id", "dropped_call", "arguments_object"):
        assert f"PASS [sabotage:{key}]" in out
    code, out = _run(copied, "verify_fields.py")
    assert code == 0 and "不能证明文件被读取" in out
    assert "field_fragments.json" in out


def test_bad_input_gives_one_line_and_exit_1(copied: Path) -> None:
    (copied / "broken.json").write_text("{not json", encoding="utf-8")
    for script in SCRIPTS:
        code, out = _run(copied, script, None, "broken.json")
        assert code == 1 and len(out.strip().splitlines()) == 1, out
