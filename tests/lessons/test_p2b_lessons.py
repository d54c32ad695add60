"""Lessons 40-52 in both editions (issue 38, points 2, 3, 6, 7 and 9; issue 37, point 9): the text
no longer claims what the cells contradict, every solution is folded, every quiz question has its
check cell, exercise TODOs are in both languages, and figures come from cells."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from lessons_lib.examples.evolve.catalogue import catalogue

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted(p.name for p in (ROOT / "notebooks").glob("[45][0-9]_*.ipynb"))
EDITIONS = [ROOT / "notebooks" / name for name in LESSONS] + [
    ROOT / "notebooks" / "en" / name for name in LESSONS
]


def _cells(path: Path) -> list[dict[str, Any]]:
    cells: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return cells


def _text(cell: dict[str, Any]) -> str:
    return "".join(cell["source"])


def _lesson(prefix: str, edition: str = "") -> list[dict[str, Any]]:
    folder = ROOT / "notebooks" / edition
    return _cells(next(folder.glob(f"{prefix}_*.ipynb")))


@pytest.mark.parametrize("path", EDITIONS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_solution_is_folded(path: Path) -> None:
    for cell in _cells(path):
        if "solution" in cell["metadata"].get("tags", []):
            assert cell["metadata"].get("jupyter", {}).get("source_hidden") is True, cell["id"]


@pytest.mark.parametrize("path", EDITIONS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_exercise_todos_speak_english_too(path: Path) -> None:
    """A comment that speaks Chinese in an exercise cell has English beside it (point 9)."""
    for cell in _cells(path):
        if "exercise" not in cell["metadata"].get("tags", []):
            continue
        for line in _text(cell).splitlines():
            comment = line.partition("#")[2]
            if re.search(r"[\u4e00-\u9fff]", comment):
                assert re.search(r"[A-Za-z]{3,} [A-Za-z]{2,}", comment), line


@pytest.mark.parametrize("name", LESSONS)
def test_every_quiz_question_has_its_check_cell(name: str) -> None:
    number = name[:2]
    asked = {
        m
        for c in _cells(ROOT / "notebooks" / name)
        for m in re.findall(rf'check\("({number}\.\d)"', _text(c))
    }
    entry = resources.files("lessons_lib.course") / "quiz_bank" / f"lesson_{number}.json"
    bank = {q["id"] for q in json.loads(entry.read_text(encoding="utf-8"))}
    assert bank and asked == bank, (asked, bank)


def test_lesson_44_names_the_function_tools_output_schema_and_links_lesson_50() -> None:
    for edition in ("", "en"):
        cells = _lesson("44", edition)
        assert any("output_schema" in _text(c) and c["cell_type"] == "code" for c in cells)
        assert "50_tools_change.ipynb" in _text(cells[-1])


def test_lesson_51_computes_the_catalogue_size_and_does_not_claim_the_desk_comes_first() -> None:
    cells = _lesson("51")
    text = "\n".join(_text(c) for c in cells if c["cell_type"] == "markdown")
    assert "四个工具排在最前面" not in text and "最多 500" not in text
    outputs = json.dumps([c.get("outputs", []) for c in cells], ensure_ascii=False)
    assert f"{len(catalogue())} 个工具" in outputs
    names = [t["name"] for t in catalogue()[:4]]
    assert names != ["get_order", "track_shipment", "search_delivery_policy", "create_investigation"]


def test_lesson_40_no_longer_says_only_execution_differs() -> None:
    for edition, words in (("", "只在执行这一步不同"), ("en", "differ only in the execution step")):
        text = "\n".join(_text(c) for c in _lesson("40", edition))
        assert words not in text


def test_lesson_42_does_not_promise_that_labelled_text_is_harmless() -> None:
    text = "\n".join(_text(c) for c in _lesson("42"))
    assert "它也只是材料" not in text and "第 52 课" in text


def test_lesson_43_says_the_2025_06_18_rule_was_the_course_servers_choice() -> None:
    assert "课程服务的选择" in "\n".join(_text(c) for c in _lesson("43"))
    assert "course server's choice" in "\n".join(_text(c) for c in _lesson("43", "en"))


def test_lesson_50_shows_the_capability_and_explains_replayed() -> None:
    cells = _lesson("50")
    text = "\n".join(_text(c) for c in cells)
    assert "listChanged: true" in text and "`replayed`" in text
    outputs = json.dumps([c.get("outputs", []) for c in cells], ensure_ascii=False)
    assert "replayed → not_allowed" not in outputs and "{'listChanged': True}" in outputs


def test_lesson_52_says_what_each_defence_does_not_stop_and_solves_with_whole_tokens() -> None:
    cells = _lesson("52")
    text = "\n".join(_text(c) for c in cells)
    assert "挡不住的情形" in text and "O-104" in text
    solution = next(_text(c) for c in cells if "solution" in c["metadata"].get("tags", []))
    assert 'str(arguments.get("order_id")) not in task' not in solution and "findall" in solution
