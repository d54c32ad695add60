"""The OpenAPI, injection, side-by-side, revision-table and engine messages in English (issue 28).

Each test runs converted library code under ``set_language("en")`` and asserts that what it shows
holds no Chinese except the data it passes on unchanged (named per test). The language is restored
after each test.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def test_the_choice_table_speaks_english(english: None) -> None:
    from lessons_lib.examples.openapi.choices import choice_table

    run = SimpleNamespace(hops=("application", "router"), declaration_chars=321, frames=(), paired=True)
    table = choice_table({"function": run, "openapi": run, "mcp": run})
    for shown in (table.text(), table.html()):
        assert "generated from OpenAPI" in shown and "execution path" in shown and "yes" in shown
        assert not CJK.findall(shown)


def test_the_openapi_exercise_checker_and_schema_notes_speak_english(english: None) -> None:
    from lessons_lib.examples.openapi.app import openapi_document
    from lessons_lib.examples.openapi.exercise import check_declaration
    from lessons_lib.examples.openapi.tools import chat_tool, flatten, operations, strict_report

    unfilled = check_declaration(None).text()
    assert unfilled.startswith("Not finished yet") and "Hint:" in unfilled and not CJK.findall(unfilled)
    op = next(o for o in operations(openapi_document()) if o.name == "search_delivery_policy")
    done = check_declaration(chat_tool(op)).text()
    assert done.startswith("Done!") and "pass" in done and not CJK.findall(done)
    notes: list[str] = []
    flatten({"oneOf": [{"type": "integer"}, {"type": "null"}]}, notes)
    findings = [line for o in operations(openapi_document()) for line in strict_report(o)]
    assert notes and findings and not CJK.findall(" ".join(notes + findings))
    assert "nullable" in notes[0]


def test_the_injection_table_and_the_gullible_stand_in_speak_english(english: None) -> None:
    from lessons_lib.examples.evolve.injection import DEFENCES, AttackRun, attack_table, run_attack
    from lessons_lib.examples.evolve.offline_gullible import label

    run = run_attack("labels")  # the labelled notes are data: the stand-in only reports their first line
    assert run.answer.startswith("The first line of the notes is: ") and not run.harmed
    fake = AttackRun("none", (("orders__create_investigation", "done"),), 1, "", "")
    table = attack_table({name: fake for name in DEFENCES})
    shown = table.text()
    assert "defence" in shown and "new investigations for O-1043" in shown and "1 row(s)" in shown
    assert dict(DEFENCES)["cap"] == "length cap on file-read results (300 characters)"
    assert not CJK.findall(shown + label())


def test_the_side_by_side_view_speaks_english(english: None) -> None:
    from lessons_lib import side_by_side

    left = {"type": "function_call", "call_id": "call_1", "arguments": '{"path": "/workspace/notes.txt"}'}
    right = {"type": "function_call_output", "call_id": "call_1", "output": "ok"}
    view = side_by_side(left, right)
    for shown in (view.text(), view.html(), view.page()):
        assert not CJK.findall(shown), shown
    assert "the same values (1):" in view.text() and "identifier" in view.text()


def test_the_revision_table_speaks_english_and_takes_either_verdict_word(english: None) -> None:
    from _engine_support import notes_lines

    from lessons_lib.examples.mcp.revisions import record_revisions
    from lessons_lib.examples.mcp.revisiontable import PARTIAL, revision_table

    table = revision_table(record_revisions(head=5))
    data = "\n".join(notes_lines()[:5])  # the file's own lines travel (abbreviated) in the result's text
    for shown in (table.text(), table.html()):
        assert all(piece in data for piece in re.findall(f"{CJK.pattern}+", shown))
        assert "only in some revisions" in shown and "declaration" in shown and "comparison" in shown
    assert (
        table.kinds_with("部分修订版才有")
        == table.kinds_with("only in some revisions")
        == table.kinds_with(PARTIAL)
    )
    assert table.kinds_with(PARTIAL) == {"envelope"}


def test_the_engine_s_stops_and_the_small_views_speak_english(english: None) -> None:
    from lessons_lib.core.fieldkinds.kinds import walk
    from lessons_lib.core.jsonvalue import diff_path
    from lessons_lib.engine.adapters import http_failure, unreachable
    from lessons_lib.views.apiviews import model_lines, model_summary
    from lessons_lib.workshop.loop.kit_course import course_run

    assert (
        http_failure(429, {"error": {"message": "slow down"}}).text
        == "the model API answered HTTP 429: slow down"
    )
    assert "OPENAI_BASE_URL is wrong" in unreachable("OPENAI_BASE_URL").text
    assert diff_path(1, "1") == "(the whole value)"
    assert (
        model_summary(
            "response_1", {"choices": [{"message": {"role": "assistant", "content": None}}]}, "chat"
        )
        == "(no call and no text)"
    )
    assert model_lines(
        "request_1", {"messages": [{"role": "user", "content": "x"}], "tools": [{}]}, "chat"
    ) == ["messages: task + tools declarations"]
    bundle = {"a": [{"b": 1}]}
    assert any(f.match.pattern == "(container)" for f in walk(bundle, "bundle"))
    trace, _ = course_run(max_rounds=1)
    assert trace.outcome and not CJK.findall(str(trace.outcome.get("text", "")))
