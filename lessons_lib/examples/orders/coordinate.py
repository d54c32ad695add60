"""Conflicting writes among the calls of one reply: one write per order, the rest refused. Lesson 31.

Seed 001: the executor schedules calls by their dependencies *and coordinates conflicting
writes*. Reads of one reply run in parallel (they change nothing). Two writes to the same
order in one reply are a conflict the application settles by a rule before anything runs (and
before the user is asked to confirm): the first, in the model's order, may run; every later
write to that order gets a ``conflict`` tool error naming the call that went first, so the
model can ask the user whether the second is really wanted (and then propose it on its own).

Why refuse rather than run them one after the other: two writes proposed together were chosen
without either seeing the other's effect. Running both in turn would still write twice what
the user may have meant once; refusing the second keeps the decision with the user.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from lessons_lib.core.plugins.apitypes import ToolCall
from lessons_lib.engine.adapters import CallResult, marked
from lessons_lib.engine.execute import parse_arguments
from lessons_lib.services.orders.tools import SERVICE, WRITE_TOOLS

RESOURCE_FIELD = "order_id"
"""The argument that names the resource a desk write changes."""


def one_write_per_order(calls: Sequence[ToolCall]) -> list[CallResult | None]:
    """Per call: None (it may run) or the ``conflict`` error of a later write to the same order."""
    writes = {f"{SERVICE}__{tool}" for tool in WRITE_TOOLS}
    first: dict[str, str] = {}
    found: list[CallResult | None] = []
    for call in calls:
        args, _ = parse_arguments(call.arguments)
        target = (args or {}).get(RESOURCE_FIELD)
        if call.name not in writes or not isinstance(target, str):
            found.append(None)
            continue
        if target not in first:
            first[target] = str(call.call_id)
            found.append(None)
            continue
        message = (
            f"another write to order {target} in this reply ({first[target]}) goes first; this one did"
            " not run: ask the user whether it is still wanted, then propose it on its own"
        )
        text = json.dumps({"status": "error", "error": {"code": "conflict", "message": message}})
        found.append(CallResult(call, marked(text, True), True))
    return found
