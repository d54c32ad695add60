"""Offline checkers for the 动手 exercises of lessons 30-33.

Each checker takes what the learner wrote (``...`` while the blank is still open) and
answers with an :class:`ExerciseResult`: "还没有完成" and a hint for an open blank, otherwise
what holds and what does not, checked against the real order desk. Never an exception.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from typing import Any, Final

from lessons_lib.core.display import Displayable

TODO: Final = "还没有完成"


@dataclass(frozen=True, repr=False)
class ExerciseResult(Displayable):
    """The checker's answer: passed or not, with one line per finding."""

    ok: bool
    lines: tuple[str, ...]

    def text(self) -> str:
        head = (
            "通过"
            if self.ok
            else ("还没有完成" if self.lines and self.lines[0].startswith(TODO) else "还不对")
        )
        return "\n".join([head, *self.lines])

    def repr_args(self) -> str:
        return f"ok={self.ok}"

    def html(self) -> str:
        items = "".join(f"<li>{html.escape(line)}</li>" for line in self.lines)
        first = html.escape(self.text().splitlines()[0])
        return f"<p><b>{first}</b></p><ul>{items}</ul>"


def unfinished(value: Any, hint: str) -> ExerciseResult | None:
    """ "还没有完成" and the hint while the blank is open (``...`` or None), else None."""
    if value is ... or value is None:
        return ExerciseResult(False, (f"{TODO}：把 ... 换成你的答案。", f"提示：{hint}"))
    return None


def unfinished_function(value: Any, name: str, hint: str) -> ExerciseResult | None:
    """:func:`unfinished`, then "``name`` 应当是一个函数" when the answer is not callable, else None."""
    blank = unfinished(value, hint)
    if blank:
        return blank
    return None if callable(value) else ExerciseResult(False, (f"{name} 应当是一个函数。",))


def invalid_schema(schema: Any) -> ExerciseResult | None:
    """The verdict on a learner's schema that is no JSON Schema (draft 2020-12), else None."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        return ExerciseResult(False, (f"这不是合法的 JSON Schema：{exc.message}",))
    return None


def check_waybill_schema(schema: Any) -> ExerciseResult:
    """Lesson 30: an inputSchema for ``track_shipment`` that the desk's rules would accept."""
    from jsonschema import Draft202012Validator

    blank = unfinished(
        schema, "写一个 type 为 object 的 schema：waybill_no 是字符串、有 pattern，必填，不许额外字段。"
    )
    if blank:
        return blank
    if not isinstance(schema, dict):
        return ExerciseResult(False, ("schema 应当是一个 dict（JSON 对象）。",))
    invalid = invalid_schema(schema)
    if invalid:
        return invalid
    v = Draft202012Validator(schema)
    cases = [
        ({"waybill_no": "WB-77042"}, True, "接受合法运单号 WB-77042"),
        ({"waybill_no": "WB-1'; DROP TABLE shipments; --"}, False, "拒绝夹带 SQL 的运单号"),
        ({"waybill_no": "O-1042"}, False, "拒绝把订单号当运单号"),
        ({}, False, "拒绝缺少 waybill_no"),
        ({"waybill_no": "WB-77042", "carrier": "x"}, False, "拒绝额外字段"),
    ]
    lines, ok = [], True
    for instance, accept, what in cases:
        held = v.is_valid(instance) == accept
        ok &= held
        lines.append(("✓ " if held else "✗ ") + what)
    return ExerciseResult(ok, tuple(lines))


def check_pairing(feedback: Any) -> ExerciseResult:
    """Lesson 31: feedback items for two calls whose results came back in the other order."""
    blank = unfinished(feedback, "按调用的顺序写两个 function_call_output，各用自己调用的 call_id。")
    if blank:
        return blank
    expected = [("call_a", '"order_id": "O-1042"'), ("call_b", '"topic": "delay"')]
    if not isinstance(feedback, list) or len(feedback) != 2 or not all(isinstance(i, dict) for i in feedback):
        return ExerciseResult(False, ("feedback 应当是两个 dict 的列表，每个调用一个。",))
    lines, ok = [], True
    for item, (call_id, marker) in zip(feedback, expected, strict=True):
        right = item.get("type") == "function_call_output" and item.get("call_id") == call_id
        carries = marker in str(item.get("output", ""))
        ok &= right and carries
        lines.append(("✓ " if right and carries else "✗ ") + f"{call_id} 的输出是它自己的结果（含 {marker}）")
    return ExerciseResult(ok, tuple(lines))


def check_intent_key(make_key: Any) -> ExerciseResult:
    """Lesson 32: a key function that gives one key per business intent, checked on the real desk."""
    from lessons_lib.examples.orders import data as od
    from lessons_lib.examples.orders.service import OrderDesk
    from lessons_lib.examples.orders.tools import KEY_PATTERN

    blank = unfinished_function(
        make_key, "make_key", "写 def make_key(order_id, reason): 返回只由订单号和原因决定的字符串。"
    )
    if blank:
        return blank
    try:
        first, again, other = (
            make_key("O-1042", "delayed"),
            make_key("O-1042", "delayed"),
            make_key("O-1042", "lost"),
        )
    except Exception as exc:  # the learner's code: report, never raise
        return ExerciseResult(False, (f"调用 make_key 时出错：{type(exc).__name__}: {exc}",))
    import re

    lines = [
        ("✓ " if first == again else "✗ ") + "同一意图两次得到同一个键",
        ("✓ " if first != other else "✗ ") + "不同意图得到不同的键",
        ("✓ " if isinstance(first, str) and re.match(KEY_PATTERN, first) else "✗ ") + f"符合 {KEY_PATTERN}",
    ]
    ok = all(line.startswith("✓") for line in lines)
    if ok:
        desk = OrderDesk(od.create_database())
        args = {"order_id": "O-1042", "reason": "delayed", "note": "两次重试", "idempotency_key": first}
        desk.call("create_investigation", args)
        desk.call("create_investigation", args)
        with closing(od.connect(desk.db_path)) as conn:
            rows = od.count_investigations(conn, "O-1042")
        ok = rows == 1
        lines.append(("✓ " if ok else "✗ ") + f"真实订单台上两次重试后 O-1042 有 {rows} 条调查单")
    return ExerciseResult(ok, tuple(lines))


def check_confirm(confirm: Any) -> ExerciseResult:
    """Lesson 33: a confirmation policy: yes for the user's own intent, no for anything else."""
    from lessons_lib.examples.orders.guards import ConfirmRequest

    blank = unfinished_function(
        confirm, "confirm", "写 def confirm(request): 只有 arguments 里的 order_id 是 O-1042 时才返回 True。"
    )
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
        return ExerciseResult(False, (f"调用 confirm 时出错：{type(exc).__name__}: {exc}",))
    lines = (
        ("✓ " if yes else "✗ ") + "用户要求的 O-1042 调查：放行",
        ("✓ " if not no else "✗ ") + "模型自己换成 O-1043：拒绝（即使服务自称 readOnlyHint=True）",
    )
    return ExerciseResult(yes and not no, lines)
