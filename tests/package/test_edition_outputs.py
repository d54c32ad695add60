"""An English notebook's stored outputs hold no Chinese, except where a lesson shows Chinese on
purpose (issue 28). Runs over whatever ``notebooks/en/`` holds.

The intentional places, and the only ones, all of them data the model or the tools are given, the
same in both editions (identifiers and wire text stay as they are, issue 28):

1. the task texts the user typed (``task_text()``, GUIDE section 2, and the other tasks a lesson's
   code cell gives a run: the Chinese string literals of the Chinese lessons' code cells that are
   not the Chinese half of a ``say(zh, en)``);
2. the lines of the files under ``data/`` (the files the tools read, the order desk's rows, the
   recorded fixtures) and the string values of its JSON files, and the records a tool release
   fingerprints (lesson 50: changing a word would change the fingerprint);
3. what the library gives the model as data: its string literals that hold Chinese outside the
   message catalogue (tool declarations, system rules, the stand-ins' own tasks; held to that by
   ``tests/package/test_chinese_literals.py``) and the declarations it generates from them (lesson 51's
   catalogue of many tools);
4. lesson 00's table of the glossary, which shows the Chinese terms next to the English on purpose.

A run of Chinese characters in an output passes when it is a whole run of one of those texts, or
the start or end of one (a shortened preview of a file's line); any other run fails, named with
its notebook and cell (so a course word such as 规则 fails even though a line of notes.txt uses it
inside a sentence).
"""

from __future__ import annotations

import ast
import functools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import NOTEBOOKS_DIR
from test_chinese_literals import PACKAGE, chinese_strings

from lessons_lib.core.example import EXAMPLE_PATH, task_text
from lessons_lib.core.glossary import STEP_ZH, TERMS_ZH
from lessons_lib.core.paths import DATA_DIR
from lessons_lib.examples.evolve.catalogue import SIZES, catalogue
from lessons_lib.examples.evolve.toolversions import VERSIONS

CHINESE = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]+")
"""CJK ideographs with the CJK and full-width punctuation (，。：（）) that only Chinese text uses."""
IDEOGRAPH = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


def _json_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _json_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _json_strings(item)


def _data_texts() -> list[str]:
    texts: list[str] = []
    for path in sorted(DATA_DIR.rglob("*")):
        if not path.is_file() or path.suffix == ".svg":  # the stored diagrams are the library's output
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        texts += text.splitlines()
        if path.suffix == ".json":
            try:
                texts += _json_strings(json.loads(text))
            except ValueError:
                pass
    return texts


def _is_say_zh(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    parent = parents.get(id(node))
    return (
        isinstance(parent, ast.Call)
        and isinstance(parent.func, ast.Name)
        and parent.func.id == "say"
        and bool(parent.args)
        and parent.args[0] is node
    )


def cell_data(source: str) -> list[str]:
    """A code cell's Chinese string literals, but the Chinese half of each ``say(zh, en)``."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant | ast.JoinedStr) and not _is_say_zh(node, parents):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.append(node.value)
            elif isinstance(node, ast.JoinedStr):
                found += [
                    v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
                ]
    return [text for text in found if CHINESE.search(text)]


@functools.cache
def intended_chinese() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The texts an English lesson shows in Chinese on purpose: the data files and the user's task
    (the module's docstring: 2 and 1), and the code's own texts, cells' and library's (1 and 3)."""
    data = [
        task_text(EXAMPLE_PATH, head, tail) for head, tail in ((20, None), (None, 20), (20, 20), (None, None))
    ]
    data += _data_texts()
    data += [text for version in VERSIONS.values() for text in _json_strings(version.record())]
    code = []
    for path in sorted(NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                code += cell_data("".join(cell["source"]))
    code += [text for module in sorted(PACKAGE.rglob("*.py")) for text in chinese_strings(module)]
    code += [tool["description"] for tool in catalogue(max(SIZES))]  # the generated declarations
    return tuple(data), tuple(code)


def _runs(texts: tuple[str, ...], punctuation: bool) -> set[str]:
    return {run for text in texts for run in CHINESE.findall(text) if punctuation or IDEOGRAPH.search(run)}


@functools.cache
def intended_runs() -> frozenset[str]:
    """Every run of Chinese in those texts, whole; from code only runs with a word, so that a full-width
    colon a label prints (``status：``) fails although a declaration or a task holds one. Made at first
    use, not at import: every test worker imports this module to collect it, few run it."""
    data, code = intended_chinese()
    return frozenset(_runs(data, punctuation=True) | _runs(code, punctuation=False))


def _intended(run: str, intended: frozenset[str]) -> bool:
    """A whole run of an intended text, or its start or end (a shortened preview) when it has words."""
    if run in intended:
        return True
    return bool(IDEOGRAPH.search(run)) and any(r.startswith(run) or r.endswith(run) for r in intended)


def _texts(output: dict[str, Any]) -> list[str]:
    if output.get("output_type") == "stream":
        return ["".join(output.get("text", ""))]
    data = output.get("data", {})
    found = ["".join(v) if isinstance(v, list) else str(v) for k, v in data.items() if k.startswith("text/")]
    if output.get("output_type") == "error":
        found.append(f"{output.get('ename')}: {output.get('evalue')}")
    return found + [v for k, v in data.items() if k == "image/svg+xml" and isinstance(v, str)]


ON_PURPOSE_CELLS: dict[str, dict[str, frozenset[str]]] = {
    "00_start_here": {
        "c19": frozenset(
            run for term in (*STEP_ZH.values(), *TERMS_ZH.values()) for run in CHINESE.findall(term)
        )
    }
}
"""Cells that show course words in Chinese on purpose (the docstring's 4): lesson, cell id, the words."""


def chinese_left(
    notebook: dict[str, Any],
    intended: frozenset[str] | None = None,
    cells: dict[str, frozenset[str]] | None = None,
) -> list[str]:
    """``cell <id>: <run>`` for each run of Chinese in the outputs that is no intended text's.

    ``cells``: per cell id, more texts that cell shows on purpose (:data:`ON_PURPOSE_CELLS`).
    """
    found = []
    if intended is None:
        intended = intended_runs()
    for cell in notebook.get("cells", []):
        allowed = intended | (cells or {}).get(cell.get("id", ""), frozenset())
        for output in cell.get("outputs", []):
            for text in _texts(output):
                for run in CHINESE.findall(text):
                    line = f"cell {cell.get('id')}: {run[:40]}"
                    if not _intended(run, allowed) and line not in found:
                        found.append(line)
    return found


ENGLISH = sorted((NOTEBOOKS_DIR / "en").glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.parametrize("path", ENGLISH, ids=[p.stem for p in ENGLISH])
def test_english_outputs_hold_no_chinese_but_the_task_and_the_files(path: Path) -> None:
    left = chinese_left(json.loads(path.read_text(encoding="utf-8")), cells=ON_PURPOSE_CELLS.get(path.stem))
    assert not left, f"{path.name}: Chinese outside the listed places in {len(left)} places:\n" + "\n".join(
        left[:30]
    )


def _nb(*texts: str) -> dict[str, Any]:
    outputs = [{"output_type": "stream", "name": "stdout", "text": [t]} for t in texts]
    return {"cells": [{"id": "c1", "cell_type": "code", "source": "", "outputs": outputs}]}


def test_the_check_passes_the_task_and_the_files_lines_and_fails_on_anything_else() -> None:
    data, _ = intended_chinese()
    line = next(x for x in data if CHINESE.search(x) and x[:2].isdigit())
    assert chinese_left(_nb(f"user: {task_text()}", f"read: {line[:12]}…", "Figure: the chain")) == []
    assert chinese_left(_nb("field tree: request_1 字段树（请求体）")) == ["cell c1: 字段树（请求体）"]
    assert chinese_left(_nb("kind: 种类", "a line: 项目笔记")) == ["cell c1: 种类"]
    svg = {"output_type": "display_data", "data": {"image/svg+xml": "<text>字段树</text>"}}
    assert chinese_left({"cells": [{"id": "d", "outputs": [svg]}]}) == ["cell d: 字段树"]


def test_wire_text_passes_but_not_a_full_width_label_and_the_glossary_only_in_its_cell() -> None:
    from lessons_lib.examples.orders.guards import SYSTEM_RULES

    rules = next(line for line in SYSTEM_RULES.splitlines() if IDEOGRAPH.search(line))
    assert chinese_left(_nb(f"instructions: {rules}")) == []  # what the model is given, as it is
    assert chinese_left(_nb("status： ok")) == ["cell c1: ："]  # a label's own punctuation
    glossary = ON_PURPOSE_CELLS["00_start_here"]
    assert chinese_left(_nb("declaration  声明"), cells=glossary) == ["cell c1: 声明"]  # not cell c19
    table = {"cells": [{"id": "c19", "outputs": _nb("declaration  声明")["cells"][0]["outputs"]}]}
    assert chinese_left(table, cells=glossary) == []
