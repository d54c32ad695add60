"""The order desk in the English edition (issue 28): the stand-in, the tables, the checkers, the CLI.

Each text the order desk's modules show the learner comes from ``core/catalogue/orders_*.json``;
under ``set_language("en")`` it comes out in English. What stays Chinese on purpose is the data:
the user's task (``services/orders/wiretext.py``), the database's items, policy titles and notes.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from lessons_lib.core.messages import set_language
from lessons_lib.examples.orders.callflow import call_flow
from lessons_lib.examples.orders.exercises import check_confirm, check_pairing, check_waybill_schema
from lessons_lib.examples.orders.guards import ConfirmRequest, Guards
from lessons_lib.examples.orders.lab import execute_sql_demo, ledger_table, order_scenarios, run_scenario
from lessons_lib.examples.orders.reconcile import KeyLookup
from lessons_lib.examples.orders.sabotage import try_sabotages
from lessons_lib.services.orders import data as od
from lessons_lib.services.orders.standin import Quirks, label, plan
from lessons_lib.services.orders.wiretext import NO_ID
from lessons_lib.services.orders.words import tool_name, value_word

CHINESE = re.compile(r"[\u3400-\u9fff]")
TOOLS: dict[str, Any] = {"orders__get_order": {}}


@pytest.fixture(scope="module")
def traces() -> dict[str, Any]:
    return {name: run_scenario(name).trace for name in ("parallel", "retry")}


def _no_chinese(text: str) -> None:
    assert not CHINESE.search(text), text


def test_the_words_and_the_stand_ins_own_answers_are_english(english: None) -> None:
    assert value_word("shipped") == "shipped" and value_word("in_transit") == "in transit"
    assert tool_name("get_order") == "order lookup"
    asked = plan(NO_ID, [], TOOLS, Quirks(), 1)
    assert isinstance(asked, str) and asked.startswith("Please tell me the order number")
    _no_chinese(asked + label())


def test_a_run_s_answer_is_english_around_the_data(english: None) -> None:
    trace = run_scenario("investigate").trace
    answer = str(trace.answer)
    assert "Order O-1042 (" in answer and "Investigation " in answer and "reason: delayed" in answer
    for item in ("O-1042", "WB-", "UTC"):
        assert item in answer
    with od.connect(od.create_database()) as conn:  # what may stay Chinese: the database's own text
        data = [str(v) for row in conn.execute("SELECT item FROM orders") for v in row]
    _no_chinese(re.sub("|".join(map(re.escape, data)), "", answer))


def test_the_tables_and_the_diagram_speak_english(english: None, traces: dict[str, Any]) -> None:
    table = ledger_table(traces["parallel"])
    assert table.text().startswith("round | call_id | alias | normalised arguments | status")
    _no_chinese(" ".join(table.headers))
    flow = call_flow(traces["parallel"])
    assert flow.text().startswith("Figure: the calls of each round")
    _no_chinese(flow.text() + flow.source)
    scenarios = order_scenarios()
    assert "<th>what it shows</th>" in scenarios.html() or "what it shows" in scenarios.html()
    _no_chinese(" ".join(s.title for s in scenarios.scenarios))
    demo = execute_sql_demo("DROP TABLE orders;").text()
    assert "tables gone: orders" in demo
    _no_chinese(demo)


def test_the_sabotages_are_caught_and_told_in_english(english: None, traces: dict[str, Any]) -> None:
    table = try_sabotages(traces)
    assert table.ok, table.text()
    for r in table.results:
        _no_chinese(r.title)
    assert ": rejected — " in table.text()


def test_the_exercise_checkers_and_the_guards_speak_english(english: None) -> None:
    blank = check_waybill_schema(...).text()
    assert blank.startswith("not finished yet\nnot finished yet: replace ... with your answer.")
    _no_chinese(blank)
    pattern = {"type": "string", "pattern": "^WB-[0-9]{1,8}$"}
    schema = {"type": "object", "properties": {"waybill_no": pattern}, "required": ["waybill_no"]}
    done = check_waybill_schema(schema | {"additionalProperties": False}).text()
    assert done.startswith("passed\n")
    _no_chinese(done)
    _no_chinese(check_pairing([{}, {}]).text() + check_confirm(lambda r: True).text())
    ask = ConfirmRequest(
        "call_1", "orders__create_investigation", {"order_id": "O-1042"}, {"readOnlyHint": True}
    )
    assert ask.question().startswith(
        'About to run the write orders__create_investigation (order_id="O-1042")'
    )
    _no_chinese(ask.question() + Guards().fallback + KeyLookup("inv-O-1042-delayed", ()).text())


def test_the_cli_prints_english(capsys: pytest.CaptureFixture[str]) -> None:
    from lessons_lib.cli import main

    try:
        code = main(["--lang", "en", "run", "--example", "orders", "--scenario", "parallel"])
    finally:
        set_language(None)
    out = capsys.readouterr().out
    assert code == 0, out
    for line in ("scenario parallel: ", "outcome: ", "answer: ", "call ledger:", "many-call checks: "):
        assert line in out
    labels = [line.split(":", 1)[0] for line in out.splitlines() if ":" in line]
    _no_chinese(" ".join(labels))
