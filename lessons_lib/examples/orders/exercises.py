"""Offline checkers for the 动手 exercises of lessons 30-33.

Each checker takes what the learner wrote (``...`` while the blank is still open) and answers
with a :class:`~lessons_lib.core.verdict.Verdict` drawn as ``findings``: "还没有完成" and a hint
for an open blank, otherwise what holds and what does not, checked against the real order desk.
Never an exception.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import closing
from typing import Any

from lessons_lib.core.messages import t
from lessons_lib.core.verdict import Verdict


def found(passed: bool, lines: tuple[str, ...] | list[str]) -> Verdict:
    """The verdict of a ``findings`` checker: passed or not, one line per finding (lessons 21-52)."""
    return Verdict(passed, tuple(lines), layout="findings")


def unfinished(value: Any, hint: str) -> Verdict | None:
    """ "还没有完成" and the hint while the blank is open (``...`` or None), else None."""
    if value is ... or value is None:
        return Verdict(False, (t("orders_exercises.blank"),), hint, True, layout="findings")
    return None


def unfinished_function(value: Any, name: str, hint: str) -> Verdict | None:
    """:func:`unfinished`, then "``name`` 应当是一个函数" when the answer is not callable, else None."""
    blank = unfinished(value, hint)
    if blank:
        return blank
    return None if callable(value) else found(False, (t("orders_exercises.not_function", name=name),))


def invalid_schema(schema: Any) -> Verdict | None:
    """The verdict on a learner's schema that is no JSON Schema (draft 2020-12), else None."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        return found(False, (t("orders_exercises.bad_schema", message=exc.message),))
    return None


def check_waybill_schema(schema: Any) -> Verdict:
    """Lesson 30: an inputSchema for ``track_shipment`` that the desk's rules would accept."""
    from jsonschema import Draft202012Validator

    blank = unfinished(schema, t("orders_exercises.waybill.hint"))
    if blank:
        return blank
    if not isinstance(schema, dict):
        return found(False, (t("orders_exercises.waybill.not_dict"),))
    invalid = invalid_schema(schema)
    if invalid:
        return invalid
    v = Draft202012Validator(schema)
    cases = [
        ({"waybill_no": "WB-77042"}, True, "valid"),
        ({"waybill_no": "WB-1'; DROP TABLE shipments; --"}, False, "sql"),
        ({"waybill_no": "O-1042"}, False, "order_id"),
        ({}, False, "missing"),
        ({"waybill_no": "WB-77042", "carrier": "x"}, False, "extra"),
    ]
    lines, ok = [], True
    for instance, accept, what in cases:
        held = v.is_valid(instance) == accept
        ok &= held
        lines.append(("✓ " if held else "✗ ") + t(f"orders_exercises.waybill.{what}"))
    return found(ok, tuple(lines))


def check_pairing(feedback: Any) -> Verdict:
    """Lesson 31: feedback items for two calls whose results came back in the other order."""
    blank = unfinished(feedback, t("orders_exercises.pairing.hint"))
    if blank:
        return blank
    expected = [("call_a", '"order_id": "O-1042"'), ("call_b", '"topic": "delay"')]
    if not isinstance(feedback, list) or len(feedback) != 2 or not all(isinstance(i, dict) for i in feedback):
        return found(False, (t("orders_exercises.pairing.not_list"),))
    lines, ok = [], True
    for item, (call_id, marker) in zip(feedback, expected, strict=True):
        right = item.get("type") == "function_call_output" and item.get("call_id") == call_id
        carries = marker in str(item.get("output", ""))
        ok &= right and carries
        lines.append(
            ("✓ " if right and carries else "✗ ")
            + t("orders_exercises.pairing.own", call_id=call_id, marker=marker)
        )
    return found(ok, tuple(lines))


def check_intent_key(make_key: Any) -> Verdict:
    """Lesson 32: a key function that gives one key per business intent, checked on the real desk."""
    from lessons_lib.examples.orders import data as od
    from lessons_lib.examples.orders.service import OrderDesk
    from lessons_lib.examples.orders.tools import KEY_PATTERN

    blank = unfinished_function(make_key, "make_key", t("orders_exercises.key.hint"))
    if blank:
        return blank
    try:
        first, again, other = (
            make_key("O-1042", "delayed"),
            make_key("O-1042", "delayed"),
            make_key("O-1042", "lost"),
        )
    except Exception as exc:  # the learner's code: report, never raise
        return found(
            False, (t("orders_exercises.raised", name="make_key", error=f"{type(exc).__name__}: {exc}"),)
        )
    import re

    lines = [
        ("✓ " if first == again else "✗ ") + t("orders_exercises.key.same"),
        ("✓ " if first != other else "✗ ") + t("orders_exercises.key.different"),
        ("✓ " if isinstance(first, str) and re.match(KEY_PATTERN, first) else "✗ ")
        + t("orders_exercises.key.pattern", pattern=KEY_PATTERN),
    ]
    ok = all(line.startswith("✓") for line in lines)
    if ok:
        desk = OrderDesk(od.create_database())
        args = {
            "order_id": "O-1042",
            "reason": "delayed",
            "note": t("orders_exercises.key.note"),
            "idempotency_key": first,
        }
        desk.call("create_investigation", args)
        desk.call("create_investigation", args)
        with closing(od.connect(desk.db_path)) as conn:
            rows = od.count_investigations(conn, "O-1042")
        ok = rows == 1
        lines.append(("✓ " if ok else "✗ ") + t("orders_exercises.key.rows", rows=rows))
    return found(ok, tuple(lines))


def check_confirm(confirm: Any) -> Verdict:
    """Lesson 33: a confirmation policy: yes for the user's own intent, no for anything else."""
    from lessons_lib.examples.orders.guards import ConfirmRequest

    blank = unfinished_function(confirm, "confirm", t("orders_exercises.confirm.hint"))
    if blank:
        return blank
    hints: dict[str, object] = {
        "readOnlyHint": True
    }  # a service that claims to be read-only: must not matter
    mine = ConfirmRequest(
        "call_1", "orders__create_investigation", {"order_id": "O-1042", "reason": "delayed"}, hints
    )
    other = ConfirmRequest(
        "call_2", "orders__create_investigation", {"order_id": "O-1043", "reason": "lost"}, hints
    )
    decide: Callable[[ConfirmRequest], Any] = confirm
    try:
        yes, no = bool(decide(mine)), bool(decide(other))
    except Exception as exc:
        return found(
            False, (t("orders_exercises.raised", name="confirm", error=f"{type(exc).__name__}: {exc}"),)
        )
    lines = (
        ("✓ " if yes else "✗ ") + t("orders_exercises.confirm.mine"),
        ("✓ " if not no else "✗ ") + t("orders_exercises.confirm.other"),
    )
    return found(yes and not no, lines)
