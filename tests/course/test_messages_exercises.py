"""The exercise checkers speak English (issue 28): lessons 03-11's step checkers, the part-two
checkers (21-44) and lessons 50 and 51's, run for real under ``set_language("en")``.

What a checker says itself must be English with no CJK character; the heading a ``findings``
verdict draws (``core.verdict``'s words, not the checker's) is left out by reading ``lines``.
The language is restored after each test.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_exercises import EARLY, LESSON_11, cell_defining, define

from lessons_lib import check_exercise, check_step

pytestmark = pytest.mark.usefixtures("english")  # the whole module speaks English
CJK = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]")


def test_a_lesson_11_step_speaks_english(tmp_path: Path) -> None:
    starter = check_step(
        1, define(tmp_path, cell_defining(LESSON_11, "exercise", "to_responses_tool"), "to_responses_tool")
    )
    assert starter.unfinished and starter.text().startswith(
        "… Step 1 declaration: MCP tool → Responses tools item: "
    )
    assert (
        "Not finished yet: replace the blank marked ..." in starter.text()
        and "\nHint: Think: " in starter.text()
    )
    reference = cell_defining(LESSON_11, "solution", "to_responses_tool")
    passed = check_step(1, define(tmp_path, reference, "to_responses_tool"))
    assert passed.passed and "Both tools became Responses tools items" in passed.text()
    wrong = reference.replace('"name": f"{service}__{tool.name}"', '"name": "fs__read_text_file"')
    named = check_step(1, define(tmp_path, wrong, "to_responses_tool"))
    assert "name should be the alias docs__search_notes" in named.lines[0]
    odd = [check_step(1, "not a function"), check_step(9, print)]
    assert odd[0].lines[0].startswith("A function is needed; got ")
    assert "There is no step 9" in odd[1].lines[0]
    for result in (starter, passed, named, *odd):
        assert not CJK.search(result.text() + result.html()), result.text()


def test_the_early_exercises_speak_english(tmp_path: Path) -> None:
    notebook, name = EARLY[3]
    reference = cell_defining(notebook, "solution", name)
    passed = check_exercise(3, define(tmp_path, reference, name))
    assert passed.passed and passed.title == "03 Hands-on: write the MCP request from the parsed result"
    wrong = check_exercise(
        3, define(tmp_path, reference.replace("args = json.loads(arguments)", "args = arguments"), name)
    )
    assert "params.arguments is still text" in wrong.lines[0]
    broken = check_exercise(
        7, define(tmp_path, "def break_chain(roundtrip):\n    return roundtrip\n", "break_chain")
    )
    assert "exactly the original" in broken.lines[0]
    for result in (passed, wrong, broken, check_exercise(4, print)):
        assert not CJK.search(result.text()), result.text()


def test_the_part_two_checkers_speak_english() -> None:
    from lessons_lib.course.exercises import parttwo as ex

    right = {"one_app": "function", "rest_docs": "openapi", "shared": "mcp"}
    wrong = ex.check_layer_choice(dict(right, one_app="mcp"))
    assert not wrong.passed and "you picked 'mcp'; the table says: Plain functions" in wrong.lines[0]
    resource = {"uri": "file:///workspace/notes.txt", "name": "notes", "mimeType": "text/plain"}
    prompt = {"name": "summarize", "arguments": [{"name": "lines", "required": True}]}
    schema = {
        "type": "object",
        "properties": {"path": {"type": "string"}, "lines": {"type": "integer"}},
        "required": ["path", "lines"],
    }
    results = [
        ex.check_layer_choice(right),
        wrong,
        ex.check_layer_choice({"x": 1}),
        ex.check_resource_and_prompt(resource, prompt),
        ex.check_resource_and_prompt({"name": "notes"}, {"name": "summarize"}),
        ex.check_output_schema(schema, {"path": "/workspace/notes.txt", "lines": 5}),
        ex.check_new_revision_call({"jsonrpc": "2.0", "id": 1, "method": "tools/call"}),
    ]
    assert results[3].passed and results[3].lines[0] == "✓ The resource fits mcp's Resource type"
    assert results[5].passed and results[5].lines[-1] == "✓ Rejects lines that are not an integer"
    for result in results:
        assert result.lines and not CJK.search("\n".join(result.lines)), result.lines


def test_lessons_50_and_51_checkers_speak_english() -> None:
    from lessons_lib.course.exercises.evolve import check_fingerprint
    from lessons_lib.course.exercises.manytools import check_allowed
    from lessons_lib.examples.evolve.toolwatch import fingerprint

    printed = check_fingerprint(fingerprint)
    changed = "✓ the description changed by one word: a different fingerprint"
    assert printed.passed and changed in printed.lines
    allowed = check_allowed(
        lambda n: {
            "type": "allowed_tools",
            "mode": "auto",
            "tools": [{"type": "function", "name": x} for x in n],
        }
    )
    assert allowed.passed and allowed.lines[1].startswith("✓ Allows exactly these tools")
    for result in (printed, allowed, check_fingerprint(lambda tool: 1 / 0)):
        assert not CJK.search("\n".join(result.lines)), result.lines
