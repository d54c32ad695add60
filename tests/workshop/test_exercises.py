"""The exercise checkers of lessons 03, 06, 07 and 11, on the code the notebooks hold.

For every exercise: the starter code as the learner gets it (the ``exercise`` cell) gets
"还没有完成" and a hint, never an exception; the reference (the ``solution`` cell) passes; a
typical wrong answer (the reference with one mistake typed in) is rejected with its reason.
Functions are defined from a real file so that ``inspect.getsource`` works as in Jupyter.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import NOTEBOOKS_DIR

from lessons_lib import check_exercise, check_step
from lessons_lib.checks.checker import has_blank, run_checker
from lessons_lib.core.verdict import Verdict
from lessons_lib.workshop.loop.grading_files import load_function
from lessons_lib.workshop.loop.steps import STEP_CHECKERS

LESSON_11 = NOTEBOOKS_DIR / "11_write_the_loop.ipynb"
EARLY = {
    3: (NOTEBOOKS_DIR / "03_minimal_walkthrough.ipynb", "mcp_request"),
    6: (NOTEBOOKS_DIR / "06_fields_and_objects.ipynb", "find_ids"),
    7: (NOTEBOOKS_DIR / "07_local_checks.ipynb", "break_chain"),
}


def cells(notebook: Path, tag: str) -> list[str]:
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    return [
        "".join(c["source"])
        for c in nb["cells"]
        if c["cell_type"] == "code" and tag in c["metadata"].get("tags", [])
    ]


def cell_defining(notebook: Path, tag: str, name: str) -> str:
    (found,) = [c for c in cells(notebook, tag) if f"def {name}(" in c]
    return found


def define(tmp_path: Path, source: str, name: str) -> object:
    path = tmp_path / f"{name}_{abs(hash(source))}.py"
    path.write_text(source, encoding="utf-8")
    return load_function(path, name)


# one typical mistake per step: (text in the reference, what is typed instead, words of the reason)
STEP_MISTAKES = {
    1: (
        '"name": f"{service}__{tool.name}"',
        '"name": "fs__read_text_file"',
        "name 应当是别名 docs__search_notes",
    ),
    2: (
        'return [item for item in response.output if item.type == "function_call"]',
        "return [response.output[0]]",
        "按 type 找，不按位置",
    ),
    3: (
        "    if call.name not in routes:\n",
        "    if call.name not in routes and False:\n",
        "应当抛出 ValueError",
    ),
    4: (
        '"params": {"name": tool, "arguments": args}',
        '"params": {"name": tool, "arguments": json.dumps(args)}',
        "是文本",
    ),
    5: (
        'output = FAILURE_PREFIX + text if result.get("isError", False) else text',
        "output = text",
        "读起来像读取成功",
    ),
    6: (
        "return items + [item.to_dict() for item in response.output] + outputs",
        "return items + outputs",
        "丢了原调用",
    ),
}


@pytest.mark.parametrize("step", sorted(STEP_CHECKERS))
def test_starter_code_is_unfinished_not_an_error(tmp_path: Path, step: int) -> None:
    name = STEP_CHECKERS[step][0]
    result = check_step(step, define(tmp_path, cell_defining(LESSON_11, "exercise", name), name))
    assert isinstance(result, Verdict)
    assert not result.passed and result.unfinished
    assert "还没有完成" in result.text() and result.hint in result.text()


@pytest.mark.parametrize("step", sorted(STEP_MISTAKES))
def test_reference_passes_and_a_mistake_is_named(tmp_path: Path, step: int) -> None:
    name = STEP_CHECKERS[step][0]
    reference = cell_defining(LESSON_11, "solution", name)
    if step == 4:
        reference = "import json\n\n" + reference
    assert check_step(step, define(tmp_path, reference, name)).passed
    old, new, reason = STEP_MISTAKES[step]
    assert reference.count(old) == 1
    wrong = check_step(step, define(tmp_path, reference.replace(old, new), name))
    assert not wrong.passed and not wrong.unfinished
    assert reason in wrong.lines[0], wrong.text()


def test_step_checker_reports_the_learners_exception(tmp_path: Path) -> None:
    source = "def route_call(call, routes):\n    return routes['nope']\n"
    result = check_step(3, define(tmp_path, source, "route_call"))
    assert not result.passed and "KeyError" in result.lines[0]


def test_bad_arguments_to_the_checkers_are_answers_not_errors() -> None:
    assert "需要一个函数" in check_step(1, "not a function").lines[0]
    assert "没有第 9 步" in check_step(9, print).lines[0]
    assert "没有这个练习" in check_exercise(4, print).lines[0]


@pytest.mark.parametrize("lesson", sorted(EARLY))
def test_early_exercises(tmp_path: Path, lesson: int) -> None:
    notebook, name = EARLY[lesson]
    starter = check_exercise(lesson, define(tmp_path, cell_defining(notebook, "exercise", name), name))
    assert starter.unfinished and "还没有完成" in starter.text()
    reference = check_exercise(lesson, define(tmp_path, cell_defining(notebook, "solution", name), name))
    assert reference.passed, reference.text()


EARLY_MISTAKES = {
    3: ("args = json.loads(arguments)", "args = arguments", "还是文本"),
    6: (
        'call = next(item for item in response["output"] if item["type"] == "function_call")',
        'call = response["output"][0]',
        "按 type 找 function_call",
    ),
    7: (
        'broken["mcp_response"]["id"] = broken["mcp_request"]["id"] + 1',
        'broken["note"] = "changed"',
        "仍然全部通过",
    ),
}


@pytest.mark.parametrize("lesson", sorted(EARLY_MISTAKES))
def test_early_exercise_mistakes_are_named(tmp_path: Path, lesson: int) -> None:
    notebook, name = EARLY[lesson]
    old, new, reason = EARLY_MISTAKES[lesson]
    reference = cell_defining(notebook, "solution", name)
    assert reference.count(old) == 1
    result = check_exercise(lesson, define(tmp_path, reference.replace(old, new), name))
    assert not result.passed and reason in result.lines[0], result.text()


def test_returning_the_roundtrip_unchanged_is_not_a_break(tmp_path: Path) -> None:
    source = "def break_chain(roundtrip):\n    return roundtrip\n"
    assert "一模一样" in check_exercise(7, define(tmp_path, source, "break_chain")).lines[0]


def test_has_blank_sees_starter_blanks_only(tmp_path: Path) -> None:
    assert has_blank(define(tmp_path, "def f():\n    return ...\n", "f"))
    assert has_blank(define(tmp_path, "def f():\n    return None  # TODO\n", "f"))
    assert not has_blank(define(tmp_path, "def f():\n    return 'done'\n", "f"))
    # a filled blank whose TODO comment stayed, and an ellipsis that is part of a type
    assert not has_blank(define(tmp_path, "def f():\n    return 'done'  # TODO 别名\n", "f"))
    typed = "from typing import Callable\n\n\ndef f(g: Callable[..., str]) -> str:\n    return g()\n"
    assert not has_blank(define(tmp_path, typed, "f"))
    assert not has_blank(print)  # no source: judged by running it


def test_run_checker_never_raises() -> None:
    def boom(fn: object) -> str:
        raise RuntimeError("inside the checker")

    result = run_checker("t", "h", boom, lambda: None)
    assert not result.passed and "RuntimeError" in result.lines[0]
    bundle = result._repr_mimebundle_()
    assert bundle["text/plain"] == result.text() and "<div" in bundle["text/html"]
