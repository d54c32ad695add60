"""Offline checkers for the 动手 exercises of lessons 30-33.

Each checker takes what the learner wrote (``...`` while the blank is still open) and answers
with a :class:`~lessons_lib.core.verdict.Verdict` drawn as ``findings``: "还没有完成" and a hint
for an open blank, otherwise what holds and what does not, checked against the real order desk.
Never an exception.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from typing import TypeAlias

from lessons_lib.core.messages import t
from lessons_lib.core.verdict import Verdict

LearnerFunction: TypeAlias = Callable[..., object]
"""A function the learner wrote: its arguments are the exercise's, its result is checked, never trusted."""


def found(passed: bool, lines: tuple[str, ...] | list[str]) -> Verdict:
    """The verdict of a ``findings`` checker: passed or not, one line per finding (lessons 21-52)."""
    return Verdict(passed, tuple(lines), layout="findings")


def unfinished(value: object, hint: str) -> Verdict | None:
    """ "还没有完成" and the hint while the blank is open (``...`` or None), else None."""
    if value is ... or value is None:
        return Verdict(False, (t("orders_exercises.blank"),), hint, True, layout="findings")
    return None


def learner_function(value: object, name: str, hint: str) -> LearnerFunction | Verdict:
    """The learner's function; else :func:`unfinished`'s verdict, or "``name`` 应当是一个函数"."""
    blank = unfinished(value, hint)
    if blank:
        return blank
    return value if callable(value) else found(False, (t("orders_exercises.not_function", name=name),))


def invalid_schema(schema: object) -> Verdict | None:
    """The verdict on a learner's schema that is no JSON Schema (draft 2020-12), else None."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        return found(False, (t("orders_exercises.bad_schema", message=exc.message),))
    return None


def check_waybill_schema(schema: object) -> Verdict:
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


def check_pairing(feedback: object) -> Verdict:
    """Lesson 31: feedback items for two calls whose results came back in the other order.

    Outputs pair by ``call_id``, so any order of the two items is right; what must hold is that
    each call's output carries its own call's ``call_id`` and its own result, exactly once.
    """
    blank = unfinished(feedback, t("orders_exercises.pairing.hint"))
    if blank:
        return blank
    expected = [("call_a", '"order_id": "O-1042"'), ("call_b", '"topic": "delay"')]
    if not isinstance(feedback, list) or len(feedback) != 2 or not all(isinstance(i, dict) for i in feedback):
        return found(False, (t("orders_exercises.pairing.not_list"),))
    lines, ok = [], True
    for call_id, marker in expected:
        mine = [i for i in feedback if i.get("call_id") == call_id]
        right = len(mine) == 1 and mine[0].get("type") == "function_call_output"
        carries = right and marker in str(mine[0].get("output", ""))
        ok &= carries
        lines.append(
            ("✓ " if carries else "✗ ") + t("orders_exercises.pairing.own", call_id=call_id, marker=marker)
        )
    return found(ok, tuple(lines))


@dataclass(frozen=True)
class Case:
    """One expectation an exercise checker tries: what it feeds the learner's function, what it wants."""

    label: str
    """The catalogue key of the line that names this expectation."""
    holds: Callable[[LearnerFunction], bool]
    """Runs the learner's function on this case's inputs; True when the expectation holds."""


def first_broken(name: str, fn: LearnerFunction, cases: list[Case], hint: str) -> Verdict:
    """Try the cases in order; the verdict names each that held and the first one that broke.

    A function still returning ``None`` (the starter's ``...``) is unfinished; an exception in the
    learner's code is reported against the case that raised it, never raised (lessons 32, 33).
    """
    lines: list[str] = []
    for case in cases:
        try:
            held = case.holds(fn)
        except _Unfinished:
            return Verdict(False, (t("orders_exercises.blank"),), hint, True, layout="findings")
        except Exception as exc:  # the learner's code: report, never raise
            error = f"{type(exc).__name__}: {exc}"
            lines.append("✗ " + t(case.label) + " — " + t("orders_exercises.raised", name=name, error=error))
            return found(False, lines)
        lines.append(("✓ " if held else "✗ ") + t(case.label))
        if not held:
            held_before = len(lines) - 1
            key = "p2a.first_broken" if held_before else "p2a.first_case_broken"
            lines.append(t(key, held=held_before, total=len(cases)))
            return found(False, lines)
    return found(True, lines)


class _Unfinished(Exception):
    """The learner's function returned None: the starter's blank is still open."""


def _answer(fn: LearnerFunction, *args: object) -> object:
    value = fn(*args)
    if value is None:
        raise _Unfinished
    return value


_KEY_OF = "create_investigation"
_ODD_ID = "O-1' OR '1'='1"
_LONG = "O-" + "9" * 69  # with one more digit, 72 characters: far past the desk's rule


def _key_cases() -> list[Case]:
    """Lesson 32's expectations of ``make_key(arguments)``; the notebook shows none of these inputs."""
    import re

    from lessons_lib.services.orders.tools import KEY_PATTERN

    def args(order: str, reason: str, note: str = "", **extra: object) -> dict[str, object]:
        return {"order_id": order, "reason": reason, "note": note or t("p2a.case.note"), **extra}

    def key(fn: LearnerFunction, a: dict[str, object]) -> object:
        return _answer(fn, dict(a))

    def fits(fn: LearnerFunction, a: dict[str, object]) -> bool:
        value = key(fn, a)
        return isinstance(value, str) and re.fullmatch(KEY_PATTERN[1:-1], value) is not None

    return [
        Case("p2a.key.string", lambda f: fits(f, args("O-2077", "lost"))),
        Case(
            "p2a.key.same_note",
            lambda f: (
                key(f, args("O-2077", "lost", t("p2a.case.note_a")))
                == key(f, args("O-2077", "lost", t("p2a.case.note_b")))
            ),
        ),
        Case(
            "p2a.key.model_key",
            lambda f: (
                key(f, args("O-2077", "lost", idempotency_key="model-wrote-this"))
                == key(f, args("O-2077", "lost"))
            ),
        ),
        Case("p2a.key.reason", lambda f: key(f, args("O-2077", "lost")) != key(f, args("O-2077", "damaged"))),
        Case("p2a.key.order", lambda f: key(f, args("O-2077", "lost")) != key(f, args("O-2078", "lost"))),
        Case("p2a.key.odd", lambda f: fits(f, args(_ODD_ID, "lost"))),
        Case("p2a.key.long", lambda f: fits(f, args(_LONG + "9", "delayed"))),
        Case(
            "p2a.key.long_differ",
            lambda f: key(f, args(_LONG + "9", "delayed")) != key(f, args(_LONG + "8", "delayed")),
        ),
        Case("p2a.key.desk", lambda f: _rows_after_two_writes(key(f, args("O-1042", "damaged"))) == 1),
    ]


def _rows_after_two_writes(key: object) -> int:
    """Investigations of O-1042 after two keyed writes on a fresh real order desk."""
    import lessons_lib.services.orders.data as od
    from lessons_lib.services.orders.service import OrderDesk

    desk = OrderDesk(od.create_database())
    arguments = {"order_id": "O-1042", "reason": "damaged", "note": t("orders_exercises.key.note")}
    desk.call(_KEY_OF, {**arguments, "idempotency_key": key})
    desk.call(_KEY_OF, {**arguments, "note": arguments["note"] + "!", "idempotency_key": key})
    with closing(od.connect(desk.db_path)) as conn:
        return od.count_investigations(conn, "O-1042")


def check_intent_key(make_key: object) -> Verdict:
    """Lesson 32: ``make_key(arguments)``, one key per business intent, tried on unseen cases.

    The cases (order ids, reasons and notes the lesson never shows) ask: a string the desk's key
    rule accepts, even for an order id outside its rule or too long; the same key whatever the
    note says or whatever key the model slipped in; a new key for a new reason or order; and on a
    real desk, two writes of one intent leave one row. The verdict names the first that broke.
    """
    hint = t("orders_exercises.key.hint")
    function = learner_function(make_key, "make_key", hint)
    if isinstance(function, Verdict):
        return function
    return first_broken("make_key", function, _key_cases(), hint)


def _confirm_cases() -> list[Case]:
    """Lesson 33's expectations of ``confirm(request, user_words)``; none is the lesson's own run."""
    from lessons_lib.examples.orders.guards import ConfirmRequest

    claims: dict[str, object] = {"readOnlyHint": True}  # a service claiming to be read-only: must not matter

    def asks(order: object, words: str) -> Callable[[LearnerFunction], bool]:
        arguments = {} if order is None else {"order_id": order, "reason": "delayed"}
        request = ConfirmRequest("call_1", "orders__create_investigation", arguments, claims)
        return lambda f: bool(_answer(f, request, words))

    said = t("p2a.case.said")  # the user's words, in the notebook's language: never the lesson's own
    return [
        Case("p2a.confirm.asked", asks("O-2077", said)),
        Case("p2a.confirm.other", lambda f: not asks("O-2078", said)(f)),
        Case("p2a.confirm.prefix", lambda f: not asks("O-207", said)(f)),
        Case("p2a.confirm.longer", lambda f: not asks("O-2077", t("p2a.case.longer"))(f)),
        Case("p2a.confirm.second", asks("O-7", t("p2a.case.second"))),
        Case("p2a.confirm.empty", lambda f: not asks("", said)(f)),
        Case("p2a.confirm.missing", lambda f: not asks(None, said)(f)),
        Case("p2a.confirm.number", lambda f: not asks(2077, said)(f)),
    ]


def check_confirm(confirm: object) -> Verdict:
    """Lesson 33: ``confirm(request, user_words)``: yes only for an order the user named (unseen cases).

    Allowed: the write's ``order_id`` is an order number the user's words contain as a whole
    (``O-207`` is not in "O-2077", nor ``O-2077`` in "O-20771"); refused: any other order, an
    empty, missing or non-string id, whatever the service's annotations claim. The verdict names
    the first case that broke.
    """
    hint = t("orders_exercises.confirm.hint")
    function = learner_function(confirm, "confirm", hint)
    if isinstance(function, Verdict):
        return function
    return first_broken("confirm", function, _confirm_cases(), hint)
