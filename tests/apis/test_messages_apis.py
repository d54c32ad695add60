"""Lessons 20-22's library texts in English (issue 28): the API map, tool_choice table, the exercise.

Each test runs the converted module's real code under ``set_language("en")`` and asserts that
English comes out and no Chinese from that module (the Chinese edition is covered, unchanged,
by the modules' own tests and by strict nbval on lessons 20-22).
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest

from lessons_lib.core.messages import set_language

DATA = Path(__file__).resolve().parents[2] / "data"
CHINESE = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
"""Chinese and full-width punctuation (the Chinese tables' bar ｜ too: English cells use " | ")."""


@pytest.mark.usefixtures("english")
def test_the_api_map_and_side_by_side_speak_english() -> None:
    from lessons_lib.apis.apimap import api_map, api_side_by_side

    table = api_map()
    assert table.title.startswith("the same call, where it lives in the three APIs")
    assert table.header[0] == "part" and table.rows[0][0][0] == "declaration: the tool item (request_1)"
    assert "(no such field)" in table.text()
    side = api_side_by_side("request_2")
    assert side.header[0] == "kind" and side.text().splitlines()[1].startswith("[")
    # the values are the fixtures' own (the file's lines, the recorded answer): only the labels are ours
    labels = [table.title, side.title, *table.header, *side.header]
    labels += [c.split(" | ")[1] for row in table.rows for c, _ in row[1:] if " | " in c]
    labels += [row[0][0] for row in (*table.rows, *side.rows)]
    assert not [x for x in labels if CHINESE.search(x)]


@pytest.mark.usefixtures("english")
def test_the_tool_choice_table_speaks_english() -> None:
    from lessons_lib.apis.choices import compare_tool_choices

    table = compare_tool_choices("chat")
    assert table.title == "tool_choice, each value run for real (Chat Completions, two tool services)"
    assert table.header[1] == "file task: calls"
    none_row = next(r for r in table.rows if r[0][0].startswith("none"))
    assert none_row[1][0] == "no call | tools/call 0 times"
    assert not CHINESE.search(json.dumps([table.title, table.header, [r[:2] for r in table.rows]]))


@pytest.mark.usefixtures("english")
def test_the_feedback_exercise_speaks_english() -> None:
    from lessons_lib.apis.exercise import check_feedback_message

    blank = check_feedback_message("chat", ...)
    assert not blank.passed and blank.lines[0].startswith("Not finished yet")
    assert blank.unfinished and blank.hint.startswith("Hint: Chat's feedback")
    good = json.loads((DATA / "anthropic" / "request_2.json").read_text(encoding="utf-8"))["messages"][-1]
    done = check_feedback_message("anthropic", good)
    assert done.passed and done.lines[0] == "Done!"
    assert done.lines[-1].endswith("HTTP 200, it accepted this feedback")
    wrong = check_feedback_message("anthropic", {"role": "assistant", "content": good["content"]})
    assert not wrong.passed and wrong.lines[0] == "Almost there:"
    assert any(": HTTP 400: " in line for line in wrong.lines)
    for result in (blank, done, check_feedback_message("chat", [1]), check_feedback_message("x", ...)):
        assert not CHINESE.search(result.text()), result.text()


@pytest.mark.parametrize("api", ["chat", "anthropic"])
def test_each_apis_words_labels_and_titles_follow_the_language(api: str) -> None:
    from lessons_lib.core.fieldkinds.kindtables import type_title
    from lessons_lib.core.plugins.apiregistry import api_entry
    from lessons_lib.views.apiviews import phrase, renames

    words = api_entry(api).words
    adapter = importlib.import_module(f"lessons_lib.apis.{api}.adapter")
    chinese = phrase(api, "feedback_line")
    set_language("en")
    try:
        shown = [phrase(api, "feedback_line"), phrase(api, "answer_line"), *renames(api).values()]
        shown += [adapter.offline_setting().label, type_title(f"{api}_request")]
        assert phrase(api, "feedback_line") != chinese and "stand-in" in adapter.offline_setting().label
        assert not any(CHINESE.search(s) for s in shown), shown
    finally:
        set_language(None)
    assert phrase(api, "feedback_line") == chinese and CHINESE.search(chinese)
    with pytest.raises(AttributeError):
        _ = words.NO_SUCH_WORD


def test_the_api_sabotage_catalogue_speaks_the_language_it_is_read_in() -> None:
    from lessons_lib.apis import sabotage

    chinese = sabotage.API_SABOTAGES
    chinese_titles = [e.title for e in chinese]  # the default language (the conftest's)
    set_language("en")
    try:
        english = sabotage.API_SABOTAGES
        outcome = sabotage.run_api_sabotage("chat_tool_call_id_missing")
        assert english.names() == chinese.names()
        assert english.text().startswith("sabotage catalogue (mistakes only Chat Completions")
        assert outcome.sabotage.mistake == "Chat Completions: the tool message lacks tool_call_id"
        # the lines below the heading are part one's catalogue layout (checks/sabotage): its own texts
        ours = [english.text().splitlines()[0], *(x for e in english for x in (e.title, e.mistake, e.change))]
        assert not [s for s in ours if CHINESE.search(s)]
    finally:
        set_language(None)
    assert chinese.text().startswith("破坏目录（Chat Completions 与 Anthropic Messages 特有的错误）")
    assert chinese_titles == [e.title for e in chinese] and CHINESE.search(chinese_titles[0])
    assert chinese[0].mistake == "Chat Completions：tool 消息缺少 tool_call_id"


def test_the_facade_api_sabotages_follow_a_later_set_language() -> None:
    """The facade keeps what it loaded (its ``__getattr__``): the entries still follow the language."""
    import lessons_lib

    set_language("zh")
    try:
        chinese = [e.title for e in lessons_lib.API_SABOTAGES]
        set_language("en")
        english = [e.title for e in lessons_lib.API_SABOTAGES]
        table = lessons_lib.API_SABOTAGES.text()
    finally:
        set_language(None)
    assert all(CHINESE.search(title) for title in chinese)
    assert english == [
        "the tool message lacks tool_call_id",
        "tool_use.input written as JSON text",
        "the tool_result sent with role: assistant",
    ]
    assert table.startswith("sabotage catalogue") and not CHINESE.search(table.splitlines()[0])
