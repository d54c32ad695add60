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
from pathlib import Path

from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.messages import t
from lessons_lib.services.orders.tools import JSONDict
from lessons_lib.views.rowtable import RowTable

OLD_CALLS: dict[str, JSONObject] = {
    "get_order": {"order_id": "O-1042"},
    "search_delivery_policy": {"topic": "delay", "region": "north"},
}
"""Arguments recorded before the change (what existing callers keep sending)."""


def _errors(schema: JSONDict, value: object) -> list[str]:
    from jsonschema import Draft202012Validator

    return sorted(e.message[:80] for e in Draft202012Validator(schema).iter_errors(value))


def _side(schema: JSONDict, value: object, *, strict: bool) -> list[str]:
    judged = {**schema, "additionalProperties": not strict}
    return _errors(judged, value)


def _verdict(errors: list[str]) -> str:
    return t("fieldcompat.refused", error=errors[0]) if errors else t("fieldcompat.accepted")


def _input_rows(tools: dict[str, JSONDict]) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    order_in = tools["get_order"]["input"]
    optional = copy.deepcopy(order_in)
    optional["properties"]["include_history"] = {"type": "boolean", "default": False}
    required = copy.deepcopy(optional)
    required["properties"]["channel"] = {"enum": ["app", "web"]}
    required["required"] = [*required["required"], "channel"]
    old = OLD_CALLS["get_order"]
    for change, schema in (("optional_input", optional), ("required_input", required)):
        strict, lax = _side(schema, old, strict=True), _side(schema, old, strict=False)
        rows.append(
            (
                t(f"fieldcompat.{change}"),
                t("fieldcompat.service_side"),
                _verdict(strict),
                _verdict(lax),
                t(f"fieldcompat.{change}.effect"),
            )
        )
    policy_in = copy.deepcopy(tools["search_delivery_policy"]["input"])
    policy_in["properties"]["area"] = policy_in["properties"].pop("region")
    old = OLD_CALLS["search_delivery_policy"]
    strict, lax = _side(policy_in, old, strict=True), _side(policy_in, old, strict=False)
    seen = json.dumps({k: v for k, v in old.items() if k in policy_in["properties"]}, ensure_ascii=False)
    rows.append(
        (
            t("fieldcompat.renamed_input"),
            t("fieldcompat.service_side"),
            _verdict(strict),
            _verdict(lax),
            t("fieldcompat.renamed_input.effect", seen=seen),
        )
    )
    return rows


def _result_rows(tools: dict[str, JSONDict], result: JSONDict) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    expected = tools["get_order"]["output"]  # what a client built against orders@1 expects
    added = {**result, "promised_by": "2026-08-10"}
    rows.append(
        (
            t("fieldcompat.added_result"),
            t("fieldcompat.app_side"),
            _verdict(_side(expected, added, strict=True)),
            _verdict(_side(expected, added, strict=False)),
            t("fieldcompat.added_result.effect"),
        )
    )
    order = dict(result["order"])
    order["tracking_no"] = order.pop("waybill_no")
    order_schema = expected["properties"]["order"]["anyOf"][1]
    lax_read = order.get("waybill_no")
    rows.append(
        (
            t("fieldcompat.renamed_result"),
            t("fieldcompat.app_side"),
            _verdict(_side(order_schema, order, strict=True)),
            _verdict(_side({**order_schema, "required": []}, order, strict=False)),
            t("fieldcompat.renamed_result.effect", value=lax_read),
        )
    )
    return rows


def field_changes(db_path: Path | None = None) -> RowTable:
    """Five field changes, judged by a strict and a lax side on real desk data (lesson 50)."""
    import lessons_lib.services.orders.data as od
    from lessons_lib.services.orders.service import OrderDesk

    desk = OrderDesk(db_path or od.create_database())
    tools = {t["name"]: t for t in desk.tools}
    result, _ = desk.call("get_order", OLD_CALLS["get_order"])
    rows = _input_rows(tools) + _result_rows(tools, result)
    headers = tuple(t(f"fieldcompat.changes.{h}") for h in ("change", "side", "strict", "lax", "effect"))
    return RowTable(headers, tuple(rows), t("fieldcompat.changes.note"))


def versioned_names(db_path: Path | None = None) -> RowTable:
    """A new required field behind a new name: ``get_order`` stays, ``get_order_v2`` is added (lesson 50)."""
    import lessons_lib.services.orders.data as od
    from lessons_lib.services.orders.service import OrderDesk

    desk = OrderDesk(db_path or od.create_database())
    v1 = next(t for t in desk.tools if t["name"] == "get_order")["input"]
    v2 = copy.deepcopy(v1)
    v2["properties"]["channel"] = {"enum": ["app", "web"]}
    v2["required"] = [*v2["required"], "channel"]
    old, new = t("fieldcompat.old_caller"), t("fieldcompat.new_caller")
    calls = (
        (old, "get_order", v1, OLD_CALLS["get_order"]),
        (old, "get_order_v2", v2, OLD_CALLS["get_order"]),
        (new, "get_order_v2", v2, {**OLD_CALLS["get_order"], "channel": "app"}),
    )
    rows = tuple(
        (who, name, json.dumps(args, ensure_ascii=False), _verdict(_errors(schema, args)))
        for who, name, schema, args in calls
    )
    headers = tuple(t(f"fieldcompat.names.{h}") for h in ("caller", "tool", "arguments", "verdict"))
    return RowTable(headers, rows, t("fieldcompat.names.note"))
