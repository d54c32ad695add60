"""Lessons 20-33 in English: exercise cells speak both languages, the library's phrases read as
English (issue 38, point 9).

- Every line of an exercise or solution cell that holds Chinese (a TODO, a docstring) holds the
  English too, in the same line: the code is the same in both editions.
- The stand-in's answer names what it read as English does ("I read the first 20 lines of
  /workspace/notes.txt:", not "Here is /workspace/notes.txt, the first 20 lines:"), and the field
  tree counts one as one ("[1 item]", "{1 key}", not "[1 items]").
- The checkers of lessons 32-33 speak the notebook's language, hints and findings alike.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from _engine_support import REPO_ROOT

from lessons_lib.core.messages import set_language
from lessons_lib.engine.standins.rules import feedback_paragraph
from lessons_lib.examples.orders.exercises import check_confirm, check_intent_key
from lessons_lib.views.fieldtree import _preview

CHINESE = re.compile(r"[\u3400-\u9fff]")
ENGLISH_WORDS = re.compile(r"[A-Za-z]+(?:[ ,'-]+[A-Za-z]+){2,}")
NOTEBOOKS = sorted(p for n in (20, 21, 22, 30, 31, 32, 33) for p in REPO_ROOT.glob(f"notebooks/{n}_*.ipynb"))


@pytest.fixture
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("zh")


def chinese_only_lines(cells: list[dict[str, Any]]) -> list[str]:
    """Lines of exercise and solution cells with Chinese and no English phrase of three words."""
    return [
        line.strip()
        for c in cells
        if {"exercise", "solution"} & set(c.get("metadata", {}).get("tags", []))
        for line in "".join(c["source"]).splitlines()
        if CHINESE.search(line) and not ENGLISH_WORDS.search(CHINESE.sub(" ", line.split("#", 1)[-1]))
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_exercise_cells_say_it_in_both_languages(path: Any) -> None:
    lines = chinese_only_lines(json.loads(path.read_text(encoding="utf-8"))["cells"])
    assert not lines, "\n".join(lines)


def test_the_line_check_catches_a_chinese_only_todo() -> None:
    cell = {"metadata": {"tags": ["exercise"]}, "source": ["schema = ...  # 在这里写你的 schema\n"]}
    assert chinese_only_lines([cell]) == ["schema = ...  # 在这里写你的 schema"]
    cell["source"] = ["schema = ...  # write your schema here / 在这里写你的 schema\n"]
    assert chinese_only_lines([cell]) == []


def test_the_stand_in_says_what_it_read_in_english(english: None) -> None:
    twenty = "".join(f"line {n}\n" for n in range(1, 21))
    text = feedback_paragraph('{"path": "/workspace/notes.txt", "head": 20}', twenty, "fs__read_text_file")
    assert text.startswith("I read the first 20 lines of /workspace/notes.txt:"), text
    assert "Here is /workspace" not in text


def test_one_item_and_one_key_are_singular(english: None) -> None:
    assert (_preview([1]), _preview([1, 2]), _preview({"a": 1}), _preview({"a": 1, "b": 2})) == (
        "[1 item]",
        "[2 items]",
        "{1 key}",
        "{2 keys}",
    )


def test_the_new_checkers_speak_english(english: None) -> None:
    def make_key(arguments: dict[str, Any]) -> str:
        return f"inv-{arguments['order_id']}-{arguments['reason']}"

    texts = [
        check_intent_key(...).text(),
        check_intent_key(make_key).text(),
        check_confirm(...).text(),
        check_confirm(lambda request, words: True).text(),
    ]
    for text in texts:
        assert not CHINESE.search(text), text
    assert "the first 5 held; this is the first that does not (of 9)." in texts[1]
