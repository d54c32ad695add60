"""A fuzzy search instead of asking for the id (seed 003, lesson 33): search first, then look up."""

from __future__ import annotations

from lessons_lib.checks.ledger import ledger
from lessons_lib.examples.orders.finder import find_orders, run_finder
from lessons_lib.examples.orders.guards import Guards
from lessons_lib.examples.orders.lab import run_scenario
from lessons_lib.services.orders import data as od


def test_the_stand_in_searches_then_looks_the_order_up_and_never_guesses() -> None:
    # the first tools/call of a process builds jsonschema's format grammars (lark): seconds on a busy machine
    run = run_finder("我买的键盘到哪了？", guards=Guards(total_timeout=120))
    rows = ledger(run.trace)
    assert [(r.round, r.alias.split("__")[1]) for r in rows] == [
        (1, "find_orders"),
        (2, "get_order"),
        (3, "track_shipment"),
    ]
    assert rows[1].arguments == '{"order_id":"O-1042"}'  # the id came from the search result
    assert "O-1042" in (run.trace.answer or "")


def test_several_candidates_are_put_to_the_user_and_the_default_desk_still_asks() -> None:
    many = run_finder(
        "我买的耳机键盘到哪了？", guards=Guards(total_timeout=120)
    )  # two items look alike: the user chooses
    assert all(r.alias != "orders__get_order" for r in ledger(many.trace))
    without = run_scenario("missing_id")  # the four default declarations: no search tool, so it asks
    assert "订单号" in (without.trace.answer or "") and not ledger(without.trace)


def test_matching_is_fuzzy_but_limited_to_the_session_customer() -> None:
    path = od.create_database()
    assert [m["order_id"] for m in find_orders(path, "键盘")] == ["O-1042"]
    assert find_orders(path, "显示器") == []  # another customer's order is never a candidate
    assert find_orders(path, "zzz") == []
