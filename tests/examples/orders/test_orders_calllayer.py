"""The order desk's call layer computes the idempotency key from the intent (lesson 32, issue 25 point 1).

A real model would not write the same key after a restart; these tests hold the application to
what lessons 32 and 41 say: the model is never declared the key, every ``tools/call`` of a write
carries the key of its intent, and a restarted run in other words is recognised by the desk: its
key names the first investigation, and since its note differs it is refused as a conflict (issue
40: one idempotency rule), never written twice.
"""

from __future__ import annotations

import re
from typing import Any

from lessons_lib.core.traces import queries as q
from lessons_lib.engine.adapters import Declared
from lessons_lib.examples.orders.calllayer import IntentKeys, intent_key, sent_key, with_key
from lessons_lib.examples.orders.lab import INVESTIGATE
from lessons_lib.examples.orders.run import run_orders
from lessons_lib.services.orders.tools import KEY_PATTERN, declarations

AGAIN = "我之前说过的订单 O-1042 还是延误，麻烦再帮我开一张延误调查单。"


def test_a_restarted_run_in_other_words_sends_the_same_key_and_is_refused_as_a_conflict() -> None:
    first = run_orders(INVESTIGATE, confirm=True)
    again = run_orders(AGAIN, db_path=first.db_path, confirm=True)  # a fresh stand-in, other wording
    notes = [q.calls(r.trace, 2)[0].arguments for r in (first, again)]
    assert notes[0] != notes[1]  # the model's arguments differ (the note is the user's words)
    assert sent_key(first.trace) == sent_key(again.trace) == ["inv-O-1042-delayed"]
    replies = [e["body"] for e in again.trace.find("tools/call", "mcp") if "result" in e["body"]]
    answer = replies[-1]["result"]["structuredContent"]
    assert answer["status"] == "error" and answer["error"]["code"] == "conflict", answer
    assert again.rows("O-1042") == 1


def test_the_model_is_never_declared_the_key_but_the_service_still_requires_it() -> None:
    run = run_orders(INVESTIGATE, confirm=True)
    tools: dict[str, Any] = {t["name"]: t for t in run.trace.body("request_1")["tools"]}
    write = tools["orders__create_investigation"]["parameters"]
    assert "idempotency_key" not in write["properties"] and "idempotency_key" not in write["required"]
    listed: Any = q.mcp_tool(run.trace, "create_investigation", "orders") or {}
    assert "idempotency_key" in listed["inputSchema"]["required"]


def test_a_key_the_model_sends_anyway_is_replaced_by_the_intents_key() -> None:
    layer = IntentKeys()
    schema = next(t["input"] for t in declarations() if t["name"] == "create_investigation")
    shown = layer.declare(
        [Declared("orders__create_investigation", "orders", "create_investigation", "", schema)]
    )
    shown_props: Any = shown[0].input_schema["properties"]
    assert "idempotency_key" not in shown_props
    assert "idempotency_key" in schema["properties"]  # the service's declaration is left as it is
    sent = layer.fill(
        "orders",
        "create_investigation",
        {"order_id": "O-7", "reason": "lost", "note": "x", "idempotency_key": "made-up-by-model"},
    )
    assert sent["idempotency_key"] == "inv-O-7-lost"
    assert layer.fill("orders", "get_order", {"order_id": "O-7"}) == {"order_id": "O-7"}


def test_keys_follow_the_intent_fields_only_and_always_fit_the_desks_rule() -> None:
    a = with_key("create_investigation", {"order_id": "O-1", "reason": "lost", "note": "one"})
    b = with_key("create_investigation", {"order_id": "O-1", "reason": "lost", "note": "other words"})
    c = with_key("create_investigation", {"order_id": "O-1", "reason": "damaged", "note": "one"})
    assert a["idempotency_key"] == b["idempotency_key"] != c["idempotency_key"]
    odd = intent_key("create_investigation", {"order_id": "O-1' OR '1'='1", "reason": "lost"})
    assert re.fullmatch(KEY_PATTERN[1:-1], odd) and odd == intent_key(
        "create_investigation", {"order_id": "O-1' OR '1'='1", "reason": "lost"}
    )
