"""Two writes to one order in one reply: the application runs the first, refuses the rest (lesson 31)."""

from __future__ import annotations

import json

from lessons_lib.checks.ledger import ledger
from lessons_lib.checks.manycalls import verify_calls
from lessons_lib.engine.adapters import ToolCall
from lessons_lib.examples.orders.coordinate import one_write_per_order
from lessons_lib.examples.orders.lab import run_scenario


def test_only_the_first_write_to_an_order_runs_and_the_user_is_asked_once() -> None:
    run = run_scenario("two_writes")
    writes = [r for r in ledger(run.trace) if r.alias == "orders__create_investigation"]
    assert [r.round for r in writes] == [2, 2]  # both proposed in one reply
    assert [r.status for r in writes] == ["created", "conflict"]
    assert writes[1].mcp_ids == ()  # the refused one never reached the desk
    assert [a.arguments["reason"] for a in run.asked] == ["delayed"]  # asked before the first only
    assert run.rows("O-1042") == 1
    assert verify_calls(run.trace).ok
    assert "另一张" in (run.trace.answer or "")


def test_reads_and_writes_to_other_orders_are_left_alone() -> None:
    def call(n: int, name: str, order: str) -> ToolCall:
        return ToolCall(f"c{n}", name, json.dumps({"order_id": order, "reason": "lost", "note": "x"}))

    calls = [
        call(1, "orders__get_order", "O-1"),
        call(2, "orders__create_investigation", "O-1"),
        call(3, "orders__create_investigation", "O-2"),
        call(4, "orders__get_order", "O-1"),
        call(5, "orders__create_investigation", "O-1"),
    ]
    found = one_write_per_order(calls)
    assert [r is None for r in found] == [True, True, True, True, False]
    refused = found[4]
    assert (
        refused is not None and refused.is_error and '"conflict"' in refused.output and "c2" in refused.output
    )
