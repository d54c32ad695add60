"""Exercise cells of lessons 00-06 speak both languages in the same cell (issue 38, point 9).

Code is identical in both editions, so every Chinese docstring line, TODO or assert message of
an exercise or solution cell carries its English in the same cell: after `` / `` on the same
line, or on the next line of the docstring. Before the change, 03 [32], [35] and 06 [25], [27]
were Chinese only, and English lesson 00 did not say why tasks stay Chinese, so these failed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u4e00-\u9fff]")
LATIN_WORDS = re.compile(r"[A-Za-z]{2,}(?:\W+[A-Za-z]{2,}){2,}")  # at least three English words


def _lessons() -> list[Path]:
    return sorted((ROOT / "notebooks").glob("0[0-6]_*.ipynb")) + sorted(
        (ROOT / "notebooks" / "en").glob("0[0-6]_*.ipynb")
    )


def _english_for(lines: list[str], i: int) -> bool:
    line = lines[i]
    if " / " in line and LATIN_WORDS.search(line.split(" / ", 1)[1]):
        return True
    following = lines[i + 1] if i + 1 < len(lines) else ""
    return not CJK.search(following) and bool(LATIN_WORDS.search(following))


@pytest.mark.parametrize("path", _lessons(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_chinese_line_of_an_exercise_has_its_english(path: Path) -> None:
    for index, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
        if not {"exercise", "solution"} & set(cell.get("metadata", {}).get("tags", [])):
            continue
        lines = "".join(cell["source"]).split("\n")
        for i, line in enumerate(lines):
            if CJK.search(line):
                assert _english_for(lines, i), f"{path.name} [{index}] line {i + 1}: {line.strip()}"


def test_english_lesson_00_says_why_tasks_files_and_tool_descriptions_stay_chinese() -> None:
    cells = json.loads((ROOT / "notebooks" / "en" / "00_start_here.ipynb").read_text(encoding="utf-8"))[
        "cells"
    ]
    text = "".join(cells[0]["source"])
    assert "Why some text stays in Chinese" in text
    assert all(word in text for word in ("task", "files", "descriptions", "byte for byte"))
