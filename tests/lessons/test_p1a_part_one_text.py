"""Lessons 00-05 say only what a cell shows, and 00-06 link the next lesson (issue 37, points 7 and 9).

Checked before the change, each of these failed except the navigation test (which already held
and now guards it): 00 [26] said 00-11 in three modules against its own map; 00 [3] said the
notebooks import only lessons_lib and the standard library; 01 [15] compared the answer with
``trace.answer``, copied from the same text; 03 [6] said ``parameters`` holds only types; 03
[23] did not show that the read leaves the file as it was; 04 [20] had no word on a real model;
05 [6] blamed stdout's ``fileno``.
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
EDITIONS = {"zh": NOTEBOOKS, "en": NOTEBOOKS / "en"}


def _cells(name: str, edition: str = "zh") -> list[dict]:
    return json.loads((EDITIONS[edition] / name).read_text(encoding="utf-8"))["cells"]


def _source(cell: dict) -> str:
    return "".join(cell["source"])


def _printed(cell: dict) -> str:
    return "".join(
        "".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", "")) for o in cell["outputs"]
    )


@pytest.mark.parametrize("edition", EDITIONS)
def test_lesson_00_summary_agrees_with_its_own_map(edition: str) -> None:
    cells = _cells("00_start_here.ipynb", edition)
    course_map = _source(cells[2])
    part_one = [int(n) for n in re.findall(r"\]\((\d\d)_\w+\.ipynb\)", course_map) if int(n) < 20]
    modules = len(re.findall(r"^(?:模块[一二三四五六]|Module \w+)", course_map, re.M))
    assert (max(part_one), modules) == (12, 5)
    summary = _source(cells[26])
    assert f"00 → {max(part_one):02d}" in summary
    assert ("五个模块" if edition == "zh" else "five modules") in summary


def _installed_or_ours(module: str) -> bool:
    """lessons_lib, the standard library, or a package installed in the environment (not a repo file)."""
    if module == "lessons_lib" or module in sys.stdlib_module_names:
        return True
    spec = importlib.util.find_spec(module)
    origin = Path(spec.origin or "") if spec else None
    return origin is not None and "site-packages" in origin.parts and ROOT not in origin.parents


@pytest.mark.parametrize("edition", EDITIONS)
def test_lesson_00s_claim_about_imports_and_functions_holds_for_every_notebook(edition: str) -> None:
    claim = _source(_cells("00_start_here.ipynb", edition)[3])
    assert "`pandas`" in claim and "`jsonschema`" in claim
    for path in sorted(EDITIONS[edition].glob("[0-9][0-9]_*.ipynb")):
        for i, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
            if cell["cell_type"] != "code":
                continue
            code, tags = _source(cell), set(cell.get("metadata", {}).get("tags", []))
            for module in re.findall(r"^\s*(?:from|import)\s+(\w+)", code, re.M):
                assert _installed_or_ours(module), (path.name, i, module)
            if re.search(r"^\s*(?:def|class)\s", code, re.M):
                assert tags & {"exercise", "solution"}, (
                    path.name,
                    i,
                    "defines a function outside an exercise",
                )


@pytest.mark.parametrize("edition", EDITIONS)
def test_lesson_01_checks_condition_3_with_a_check_that_can_fail(edition: str) -> None:
    cell = _cells("01_the_task.ipynb", edition)[15]
    code, shown = _source(cell), _printed(cell).splitlines()
    assert 'result["content"][0]["text"]' in code  # against the tool's output, not trace.answer alone
    assert shown[1].endswith(" []")  # the real answer carries every line of the result
    assert shown[-1].endswith(
        "['05 参数：path 必填；head 与 tail 可选，二者不能同时给出。']"
    )  # a wrong one fails


@pytest.mark.parametrize("edition", EDITIONS)
def test_lesson_03_says_what_parameters_hold_and_shows_the_file_unchanged(edition: str) -> None:
    cells = _cells("03_minimal_walkthrough.ipynb", edition)
    assert "`required" in _source(cells[6]) and "`description`" in _source(cells[6])
    code, shown = _source(cells[23]), _printed(cells[23])
    assert "sha256" in code and "st_mtime_ns" in code and "run_chain()" in code
    assert shown.count("True") == 3 and "False" not in shown
    assert not re.search(r"/work|[A-Z]:\\|\d{9,}|[0-9a-f]{64}", shown)  # no path, no time, no hash printed


@pytest.mark.parametrize("edition", EDITIONS)
def test_lesson_04_says_a_real_model_may_answer_otherwise(edition: str) -> None:
    text = _source(_cells("04_who_does_what.ipynb", edition)[20])
    assert ("真实模型" in text) if edition == "zh" else ("A real model" in text)


@pytest.mark.parametrize("edition", EDITIONS)
def test_lesson_05_names_stderr_as_the_sdk_does(edition: str) -> None:
    from mcp.client.stdio import stdio_client

    assert "errlog: TextIO = sys.stderr" in inspect.getsource(stdio_client)  # what the SDK hands on
    text = _source(_cells("05_closed_loop.ipynb", edition)[6])
    assert "`sys.stderr`" in text and "stdout" not in text.split("fileno")[0].split("stdio_client")[-1]
    assert "stdout 没有" not in text and "stdout has no" not in text


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("number", range(7))
def test_each_lesson_ends_with_a_link_to_the_next(edition: str, number: int) -> None:
    folder = EDITIONS[edition]
    (path,) = folder.glob(f"{number:02d}_*.ipynb")
    (nxt,) = folder.glob(f"{number + 1:02d}_*.ipynb")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    tail = "".join(_source(c) for c in cells[-2:] if c["cell_type"] == "markdown")
    assert f"]({nxt.name})" in tail, (path.name, nxt.name)
