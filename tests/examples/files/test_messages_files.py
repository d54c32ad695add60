"""The English edition of the files example (issue 28): the offline chain, the stand-in, the
what-if views, the doctor's environment check and the quick reference speak English.

Each test runs a view under ``set_language("en")`` and requires every run of CJK characters in
what it prints to come from what the view quotes, never from its own words: the example file's
lines, the task text a user typed (Chinese in both editions, written in a code cell), and the
output of modules that are not on the catalogue yet (named where they are collected). The
language is restored after each test.
"""

from __future__ import annotations

import re

import pytest

from lessons_lib.core.example import EXAMPLE_PATH, TASK
from lessons_lib.core.messages import set_language
from lessons_lib.core.paths import DATA_DIR, WORKSPACE_DIR

CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]+")
FILE_LINES = "\n".join(
    [
        (WORKSPACE_DIR / "notes.txt").read_text(encoding="utf-8"),
        (DATA_DIR / "archive" / "notes.txt").read_text(encoding="utf-8"),
    ]
)


pytestmark = pytest.mark.usefixtures("english")


def own_chinese(printed: str, *quoted: str) -> list[str]:
    """The CJK runs of ``printed`` that none of the quoted texts (data, other modules) holds."""
    source = "\n".join([FILE_LINES, TASK, *quoted])
    return sorted({run for run in CJK.findall(printed) if run not in source})


def test_the_stand_in_answers_in_english_and_reads_an_english_task() -> None:
    from lessons_lib.engine.standins.rules import (
        arguments_from,
        ask_for_file,
        feedback_paragraph,
        first_answer,
    )

    assert arguments_from(f"Please read the first 5 lines of {EXAMPLE_PATH}.") == (
        '{"path": "/workspace/notes.txt", "head": 5}'
    )
    assert arguments_from(TASK) == '{"path": "/workspace/notes.txt", "head": 20}'  # a code cell's task
    asked = ask_for_file("show me the first 20 lines of my notes")
    assert asked is not None and asked.endswith("the first 20 lines of?")
    texts = [
        asked,
        first_answer(TASK, "none") or "",
        first_answer("hello", "auto") or "",
        feedback_paragraph('{"path": "/workspace/a.txt", "head": 3}', "x\ny", "fs__read_text_file"),
        feedback_paragraph('{"path": "/workspace/a.txt", "tail": 3}', "ERROR: gone", "fs__nope", ["fs__x"]),
        feedback_paragraph("{}", "ERROR: gone", "orders__get"),
    ]
    assert own_chinese("\n".join(texts)) == []


def test_the_offline_chain_is_told_in_english() -> None:
    from lessons_lib.engine.host import Limits, run_chain
    from lessons_lib.views.narrate import message_counts, narrate
    from lessons_lib.views.sequence import trace_diagram

    trace = run_chain(head=5, limits=Limits(call_timeout=60, total_timeout=180))  # a loaded CI machine
    printed = "\n".join([narrate(trace), message_counts(trace), trace_diagram(trace).text()])
    assert "I read the first 5 lines of /workspace/notes.txt:" in printed
    assert "outcome: Answered (answered): " in printed  # core.outcomes
    assert (
        own_chinese(printed, str(trace.outcome["text"])) == []
    )  # the engine's text: not on the catalogue yet


def test_the_colour_legend_is_in_english() -> None:
    from lessons_lib.views.legend import colour_legend

    legend = colour_legend()
    assert own_chinese(legend.text() + legend.html()) == []


def _table_quotes(table: object) -> list[str]:
    """What a change table quotes: its values, and views.changecounts' caption and message names."""
    from lessons_lib.views.changetable import abbreviate

    rows = list(table)  # type: ignore[call-overload]
    names = {r.message for r in rows}
    return [
        table.caption(),  # type: ignore[attr-defined]
        *(table.message_ref(n).short() for n in names),  # type: ignore[attr-defined]
        *(abbreviate(v) for r in rows for v in (r.before, r.after)),
        *(str(v) for r in rows for v in (r.before, r.after)),
    ]


def test_the_what_if_tables_and_the_head_view_are_in_english() -> None:
    from lessons_lib.examples.files.widgets import head_view

    view = head_view(40)
    table = view.table
    printed = "\n".join([view.text(), table.changed().text(), table.key().text()])
    assert "key fields: head=20 → head=40" in printed and "lines read" in printed
    quoted = [*_table_quotes(table), table.counts().changed_line()]  # views.changecounts
    assert own_chinese(printed, *quoted) == []


def test_the_scenarios_and_bad_values_are_in_english() -> None:
    from lessons_lib.checks.doctor import Diagnosis
    from lessons_lib.examples.files.badvalues import bad_values_table
    from lessons_lib.examples.files.scenarios import SCENARIOS, run_scenario
    from lessons_lib.examples.files.verifiers import report_line
    from lessons_lib.views.changetable import abbreviate

    bad = bad_values_table()
    results = [run_scenario(name) for name in SCENARIOS]
    assert all(r.ok for r in results), [r.verdict for r in results]  # the checks hold in English too
    printed = "\n".join([bad.text(), *(r.text() for r in results)])
    assert "schema check (jsonschema, for comparison): pass\n" in bad.results[1].text()
    assert {r.schema_status for r in bad.results} == {"pass", "fail", "unchecked"}  # examples.files.verifiers
    assert "verify_roundtrip: not passed: " in printed and "verify_roundtrip: all passed" in printed
    # checks.doctor's verdicts, verify_roundtrip's check names and reasons, the engine's outcome
    # text: not on the catalogue yet
    reports = [v for r in [*bad.results, *results] for _, v in r.reports]
    quoted = [report_line(v) for v in reports if isinstance(v, Diagnosis)]
    quoted += [
        text for v in reports if not isinstance(v, Diagnosis) for c in v.checks for text in (c.name, c.reason)
    ]
    quoted += [str(r.trace.outcome["text"]) for r in results]
    quoted += [abbreviate(v) for r in results for _, v in r.facts]
    assert own_chinese(printed, *quoted) == []


def test_the_quick_reference_and_the_environment_check_are_in_english() -> None:
    from lessons_lib.course.cheatsheet import command_list, preview, quick_reference
    from lessons_lib.course.envcheck import environment_check

    reference = quick_reference()
    printed = "\n".join(
        [reference.text(), reference.html(), command_list().text(), environment_check().text()]
    )
    assert "Quick reference: five points" in printed
    assert own_chinese(printed, *(preview(r.value) for r in reference.rows)) == []


def test_verdict_cells_and_run_outcomes_speak_english() -> None:
    from lessons_lib.core.htmltable import as_cell, html_table, status, status_badge
    from lessons_lib.core.outcomes import outcome_text

    assert status("fail").text == "fail" and "✓ pass</span>" in status_badge("pass")
    assert [as_cell(w).status for w in ("all passed", "not passed", "broken", "not checked")] == [
        "pass",
        "fail",
        "fail",
        "unchecked",
    ]
    stopped = {"status": "stopped", "reason": "max_rounds=1"}
    assert outcome_text(stopped) == "Stopped (stopped): max_rounds=1"
    assert (
        own_chinese(html_table(["check", "verdict"], [["one", "pass"], ["two", status("unchecked")]])) == []
    )
    set_language("zh")  # the Chinese words are still verdicts, and the line reads as before
    assert as_cell("断开").status == "fail" and as_cell("pass").status == "pass"
    assert outcome_text(stopped) == "已停止（stopped）：max_rounds=1" and status("pass").text == "通过"
