"""Adding or renaming a field: what a strict and a lax side each do. Lesson 50.

Seed 001: a client that refuses unknown fields breaks when the service extends its result; one
that lets anything through hides a misspelt or renamed field. Every row here is computed:
the real desk answers (lesson 30), the schemas are changed one field at a time, and
``jsonschema`` judges (strict: ``additionalProperties: false``; lax: ``true``). The lax side
then *reads* the value the way a lax client does (``dict.get``), which is where a rename hides.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from lessons_lib.examples.evolve.rowtable import RowTable

OLD_CALLS: dict[str, dict[str, Any]] = {
    "get_order": {"order_id": "O-1042"},
    "search_delivery_policy": {"topic": "delay", "region": "north"},
}
"""Arguments recorded before the change (what existing callers keep sending)."""


def _errors(schema: dict[str, Any], value: object) -> list[str]:
    from jsonschema import Draft202012Validator

    return sorted(e.message[:80] for e in Draft202012Validator(schema).iter_errors(value))


def _side(schema: dict[str, Any], value: object, *, strict: bool) -> list[str]:
    judged = {**schema, "additionalProperties": not strict}
    return _errors(judged, value)


def _verdict(errors: list[str]) -> str:
    return "拒绝：" + errors[0] if errors else "接受"


def _input_rows(tools: dict[str, dict[str, Any]]) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    order_in = tools["get_order"]["input"]
    optional = copy.deepcopy(order_in)
    optional["properties"]["include_history"] = {"type": "boolean", "default": False}
    required = copy.deepcopy(optional)
    required["properties"]["channel"] = {"enum": ["app", "web"]}
    required["required"] = [*required["required"], "channel"]
    old = OLD_CALLS["get_order"]
    for name, schema, effect in (
        ("输入新增可选字段 include_history（默认 false）", optional, "老调用照常：缺省值就是老行为"),
        ("输入新增必填字段 channel", required, "老调用全部被拒：需要版本化的工具名"),
    ):
        strict, lax = _side(schema, old, strict=True), _side(schema, old, strict=False)
        rows.append((name, "服务检查老调用的参数", _verdict(strict), _verdict(lax), effect))
    policy_in = copy.deepcopy(tools["search_delivery_policy"]["input"])
    policy_in["properties"]["area"] = policy_in["properties"].pop("region")
    old = OLD_CALLS["search_delivery_policy"]
    strict, lax = _side(policy_in, old, strict=True), _side(policy_in, old, strict=False)
    seen = json.dumps({k: v for k, v in old.items() if k in policy_in["properties"]}, ensure_ascii=False)
    rows.append(
        (
            "输入可选字段 region 改名为 area",
            "服务检查老调用的参数",
            _verdict(strict),
            _verdict(lax),
            f"宽松一方悄悄丢掉 region，实际按 {seen} 查询：区域过滤没了，没人发现",
        )
    )
    return rows


def _result_rows(tools: dict[str, dict[str, Any]], result: dict[str, Any]) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    expected = tools["get_order"]["output"]  # what a client built against orders@1 expects
    added = {**result, "promised_by": "2026-08-10"}
    rows.append(
        (
            "结果新增可选字段 promised_by",
            "应用读取新版结果",
            _verdict(_side(expected, added, strict=True)),
            _verdict(_side(expected, added, strict=False)),
            "严格客户端在服务升级当天就坏了；宽松客户端照常",
        )
    )
    order = dict(result["order"])
    order["tracking_no"] = order.pop("waybill_no")
    order_schema = expected["properties"]["order"]["anyOf"][1]
    lax_read = order.get("waybill_no")
    rows.append(
        (
            "结果字段 waybill_no 改名为 tracking_no",
            "应用读取新版结果",
            _verdict(_side(order_schema, order, strict=True)),
            _verdict(_side({**order_schema, "required": []}, order, strict=False)),
            f"宽松客户端读到 waybill_no = {lax_read}：以为没有运单，不再查物流",
        )
    )
    return rows


def field_changes(db_path: Any = None) -> RowTable:
    """Five field changes, judged by a strict and a lax side on real desk data (lesson 50)."""
    from lessons_lib.examples.orders import data as od
    from lessons_lib.examples.orders.service import OrderDesk

    desk = OrderDesk(db_path or od.create_database())
    tools = {t["name"]: t for t in desk.tools}
    result, _ = desk.call("get_order", OLD_CALLS["get_order"])
    rows = _input_rows(tools) + _result_rows(tools, result)
    note = (
        "严格：additionalProperties 为 false（拒收未知字段）；宽松：为 true（放行任何字段）。"
        "由 jsonschema 判定。"
    )
    return RowTable(("变化", "在哪一侧", "严格一方", "宽松一方", "后果"), tuple(rows), note)


def versioned_names(db_path: Any = None) -> RowTable:
    """A new required field behind a new name: ``get_order`` stays, ``get_order_v2`` is added (lesson 50)."""
    from lessons_lib.examples.orders import data as od
    from lessons_lib.examples.orders.service import OrderDesk

    desk = OrderDesk(db_path or od.create_database())
    v1 = next(t for t in desk.tools if t["name"] == "get_order")["input"]
    v2 = copy.deepcopy(v1)
    v2["properties"]["channel"] = {"enum": ["app", "web"]}
    v2["required"] = [*v2["required"], "channel"]
    calls = (
        ("老调用方", "get_order", v1, OLD_CALLS["get_order"]),
        ("老调用方", "get_order_v2", v2, OLD_CALLS["get_order"]),
        ("新调用方", "get_order_v2", v2, {**OLD_CALLS["get_order"], "channel": "app"}),
    )
    rows = tuple(
        (who, name, json.dumps(args, ensure_ascii=False), _verdict(_errors(schema, args)))
        for who, name, schema, args in calls
    )
    note = "两个名字同时列在 tools/list 里：老调用方不用改，新调用方按新契约调用；旧名字何时下线写进契约。"
    return RowTable(("调用方", "工具名", "参数", "服务的判定"), rows, note)
