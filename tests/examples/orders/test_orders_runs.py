"""The order desk application (lessons 31-33): many calls, retries, guardrails, checks.

Every scenario runs once per test session (``runs``); the tests read those runs.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from typing import Any

import pytest

from lessons_lib.checks.ledger import check_calls, ledger
from lessons_lib.checks.manycalls import verify_calls
from lessons_lib.core.traces import queries as q
from lessons_lib.examples.orders.calllayer import sent_key
from lessons_lib.examples.orders.guards import SYSTEM_RULES, ConfirmRequest, Guards
from lessons_lib.examples.orders.lab import (
    INVESTIGATE,
    TRACK,
    ledger_table,
    run_scenario,
    scenario,
    scenario_names,
)
from lessons_lib.examples.orders.lab import THREE as THREE_TASK
from lessons_lib.examples.orders.run import run_orders
from lessons_lib.examples.orders.sabotage import SABOTAGES, try_sabotages


@pytest.fixture(scope="session")
def runs() -> dict[str, Any]:
    run_scenario("missing_id")  # warm-up: imports and the first jsonschema compile are not timed below
    return {name: run_scenario(name) for name in scenario_names()}


def aliases(run: Any, round_n: int) -> list[str]:
    return [str(c.name) for c in q.calls(run.trace, round_n)]


def test_every_scenario_passes_the_many_call_checks_but_the_missing_key(runs: dict[str, Any]) -> None:
    for name, run in runs.items():
        report = verify_calls(run.trace)
        if name == "retry_no_key":
            assert not report.ok and any("重复写入" in p for p in report.problems), report.text()
        else:
            assert report.ok, f"{name}: {report.text()}"


def test_parallel_then_dependent(runs: dict[str, Any]) -> None:
    run = runs["parallel"]
    assert aliases(run, 1) == ["orders__get_order", "orders__search_delivery_policy"]
    assert aliases(run, 2) == ["orders__track_shipment"]  # it waits for the waybill number
    got_order = json.loads(q.feedback_for_call(run.trace, q.calls(run.trace, 1)[0].call_id).text())
    track = json.loads(str(q.calls(run.trace, 2)[0].arguments))
    assert track["waybill_no"] == got_order["order"]["waybill_no"] == "WB-77042"
    assert "依据：订单版本 3，更新于 2026-08-06 11:20 UTC" in run.trace.answer
    declared = {t["alias"] for t in run.trace.tools}
    assert {"orders__get_order", "fs__read_text_file"} <= declared  # two services, one alias space


def test_sequential_asks_one_call_per_reply(runs: dict[str, Any]) -> None:
    run = runs["sequential"]
    bodies = [r.request for r in q.model_rounds(run.trace)]
    assert all(b.get("parallel_tool_calls") is False for b in bodies)
    assert [len(q.calls(run.trace, n)) for n in (1, 2, 3)] == [1, 1, 1]
    assert run.trace.answer == runs["parallel"].trace.answer


def test_three_parallel_calls_of_200_ms_overlap_in_one_turn(
    runs: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Behaviour, not a wall-clock bound (benchmarks/run.py keeps the < 400 ms figure): the desk's
    # 200 ms waits are recorded; in one turn all three are in progress at once, one per reply none.
    import anyio

    real_sleep = anyio.sleep
    waits: list[tuple[float, float]] = []

    async def sleep(seconds: float) -> None:
        start = time.perf_counter()
        await real_sleep(seconds)
        if seconds == 0.2:  # the scenario's handler delay
            waits.append((start, time.perf_counter()))

    monkeypatch.setattr(anyio, "sleep", sleep)
    run = run_scenario("three_parallel")
    assert len(q.calls(run.trace, 1)) == 3 and len(waits) == 3, waits
    assert max(start for start, _ in waits) < min(end for _, end in waits), f"no overlap: {waits}"
    waits.clear()
    run_scenario("three_parallel", parallel=False)
    ends_before_next = [a[1] <= b[0] for a, b in zip(waits, waits[1:], strict=False)]
    assert len(waits) == 3 and all(ends_before_next), f"one per reply, yet they overlap: {waits}"


def test_results_out_of_order_are_paired_by_call_id() -> None:
    # get_order answers last: its reply frame arrives after the policy's
    run = run_orders(TRACK, desk={"delays": {"get_order": 0.15}})
    replies = [x for x in q.mcp_exchanges(run.trace) if x.service == "orders"][:2]
    assert replies[0].reply_at > replies[1].reply_at  # the first call's reply came second
    calls = q.calls(run.trace, 1)
    sent = [f.call_id for f in q.sent_feedback(run.trace)][:2]
    assert sent == [c.call_id for c in calls]  # feedback in the calls' order
    assert check_calls(run.trace) == []
    assert (
        json.loads(q.feedback_for_call(run.trace, calls[0].call_id).text())["order"]["order_id"] == "O-1042"
    )


def test_two_model_retries_leave_one_row_with_the_key_and_two_without(runs: dict[str, Any]) -> None:
    with_key, without = runs["retry"], runs["retry_no_key"]
    writes = [r for r in ledger(with_key.trace) if r.alias == "orders__create_investigation"]
    assert len({r.call_id for r in writes}) == 2  # the model proposed the write twice, new call ids
    assert all("idempotency_key" not in json.loads(r.arguments) for r in writes)  # the model never sends it
    assert sent_key(with_key.trace) == ["inv-O-1042-delayed"] * 3  # the call layer adds it to every try
    assert [r.status for r in writes] == ["created", "replayed"]
    assert writes[0].mcp_ids == (4, 5)  # tool layer: the same call sent again after an internal error
    assert with_key.rows("O-1042") == 1
    assert without.rows("O-1042") == 2
    assert [e["label"] for e in with_key.trace.events if e["label"].startswith("http_error")] == [
        "http_error_3"
    ]


def test_a_write_waits_for_yes_and_annotations_are_only_shown(runs: dict[str, Any]) -> None:
    yes, no = runs["investigate"], runs["declined"]
    assert yes.rows("O-1042") == 1 and no.rows("O-1042") == 0
    asked = no.asked[0]
    assert asked.alias == "orders__create_investigation" and asked.arguments["order_id"] == "O-1042"
    assert asked.hints["readOnlyHint"] is False
    assert [r.status for r in ledger(no.trace) if r.alias == "orders__create_investigation"] == ["declined"]
    assert not [x for x in q.mcp_exchanges(no.trace) if x.request["params"]["name"] == "create_investigation"]


def test_a_lying_annotation_does_not_skip_the_question(monkeypatch: pytest.MonkeyPatch) -> None:
    from lessons_lib.services.orders import tools as orderdesk_tools

    lying = dict(
        orderdesk_tools.CREATE_INVESTIGATION, hints={"read_only_hint": True, "destructive_hint": False}
    )
    tools = tuple(lying if t["name"] == "create_investigation" else t for t in orderdesk_tools.TOOLS)
    monkeypatch.setattr(orderdesk_tools, "TOOLS", tools)
    seen: list[ConfirmRequest] = []
    run = run_orders(INVESTIGATE, confirm=lambda r: seen.append(r) is not None)
    assert seen and seen[0].hints["readOnlyHint"] is True  # the service claims read-only ...
    assert run.rows("O-1042") == 0  # ... the application still asked, the user said no


def test_guardrails_hold_whatever_the_model_does(runs: dict[str, Any]) -> None:
    assert runs["missing_id"].trace.answer.startswith("请告诉我订单号") and not q.calls(
        runs["missing_id"].trace
    )
    invented = ledger(runs["invented_id"].trace)
    assert [r.status for r in invented] == ["not_found"]
    assert [r.status for r in ledger(runs["bad_json"].trace)] == ["bad_json", "ok"]
    assert [r.status for r in ledger(runs["hostile"].trace)] == ["invalid_arguments"]
    assert [r.status for r in ledger(runs["fault"].trace)] == ["internal"]
    assert runs["timeout"].trace.answer.startswith("抱歉，查询物流暂时不可用")
    assert [r.status for r in ledger(runs["timeout"].trace)] == ["ok", "timeout"]
    loop = runs["loop"].trace
    assert loop.outcome["status"] == "stopped" and "max_rounds=3" in loop.outcome["reason"]
    assert loop.answer == Guards().fallback


def test_the_system_rules_travel_as_instructions(runs: dict[str, Any]) -> None:
    request = q.model_rounds(runs["parallel"].trace)[0].request
    assert request["instructions"] == SYSTEM_RULES
    assert "绝不猜测或编造" in SYSTEM_RULES


def test_the_ledger_is_recorded_in_the_trace_links(runs: dict[str, Any]) -> None:
    run = runs["parallel"]
    links = run.trace.to_dict()["links"]
    assert [(x["call_id"], x["status"], x["round"]) for x in links] == [
        (r.call_id, r.status, r.round) for r in ledger(run.trace)
    ]
    assert links[0]["arguments"] == '{"order_id":"O-1042"}'
    table = ledger_table(run.trace)
    assert table.text().splitlines()[0].startswith("轮次 | call_id")
    assert "<table" in table._repr_mimebundle_()["text/html"]


def test_each_many_call_sabotage_is_rejected_with_its_own_message(runs: dict[str, Any]) -> None:
    table = try_sabotages({"parallel": runs["parallel"].trace, "retry": runs["retry"].trace})
    assert table.ok, table.text()
    messages = [r.message for r in table.results]
    assert len(set(messages)) == len(SABOTAGES)
    for sabotage, result in zip(SABOTAGES, table.results, strict=True):
        assert sabotage.expect in result.message


def test_unknown_scenario_is_a_one_line_error() -> None:
    with pytest.raises(ValueError, match="choose one of"):
        scenario("nope")


def test_cli_lists_scenarios_and_prints_a_checked_trace(tmp_path: Any) -> None:
    cmd = [sys.executable, "-m", "lessons_lib", "run", "--example", "orders"]
    helped = subprocess.run([*cmd, "--help"], capture_output=True, text=True, timeout=120)
    assert helped.returncode == 0 and all(n in helped.stdout for n in scenario_names())
    bad = subprocess.run([*cmd, "--scenario", "nope"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "choose one of" in bad.stderr and "Traceback" not in bad.stderr
    done = subprocess.run(
        [*cmd, "--scenario", "retry", "--json"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    path = tmp_path / "retry.json"
    path.write_text(done.stdout, encoding="utf-8")
    checked = subprocess.run(
        [sys.executable, "-m", "lessons_lib", "verify-calls", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout


def test_a_reply_with_too_many_calls_runs_none() -> None:
    run = run_orders(THREE_TASK, guards=Guards(max_calls=2))
    assert run.trace.outcome["status"] == "stopped" and "max_calls=2" in run.trace.outcome["reason"]
    assert not [x for x in q.mcp_exchanges(run.trace) if x.request["params"]["name"] == "get_order"]


def test_the_order_desk_views_use_the_one_display_protocol(runs: dict[str, Any]) -> None:
    from lessons_lib.core.display import HTML, PLAIN, Displayable
    from lessons_lib.examples.orders.acceptance import AcceptanceMatrix, Case
    from lessons_lib.examples.orders.exercises import check_pairing
    from lessons_lib.examples.orders.lab import execute_sql_demo, order_scenarios

    trace = runs["parallel"].trace
    matrix = AcceptanceMatrix(
        (Case("合法输入", "get_order", {"order_id": "O-1042"}, "ok", "ok", "接受"),), True
    )
    sabotages = try_sabotages({"parallel": trace, "retry": runs["retry"].trace})
    shown = [ledger_table(trace), order_scenarios(), execute_sql_demo("SELECT 1"), verify_calls(trace)]
    for obj in [*shown, matrix, sabotages, check_pairing(...)]:
        assert isinstance(obj, Displayable)
        full = obj._repr_mimebundle_()
        assert set(full) == {PLAIN, HTML} and str(obj) == full[PLAIN]
        assert obj._repr_mimebundle_(include=[PLAIN]) == {PLAIN: full[PLAIN]}
        assert "\n" not in repr(obj) and repr(obj).startswith(type(obj).__name__ + "(")
