"""The order desk's tool declarations: names, descriptions, input and output schemas (rules).

Introduced in lesson 30. Pure data, following the schema discipline of the tool-design article and
the tool-calling SOP: business-sized tools (never ``execute(sql)``); descriptions that say when to
call and when not; ``pattern`` and ``enum`` for every value with a known shape; ``additionalProperties:
false``; bounded paging; every result carries ``status``, evidence (record version, update
time) and a separate ``error`` field. The service checks all of it again (lesson 30: vendors'
constrained generation supports only part of JSON Schema, so a declaration is a request to
the model, not a guarantee).
"""

from __future__ import annotations

import copy
from typing import Any, Final

from lessons_lib.services.orders.data import INVESTIGATION_REASONS, ORDER_STATUSES, POLICY_TOPICS, REGIONS

SERVICE: Final = "orders"
ORDER_ID_PATTERN: Final = "^O-[0-9]{1,8}$"
WAYBILL_PATTERN: Final = "^WB-[0-9]{1,8}$"
KEY_PATTERN: Final = "^[A-Za-z0-9._:-]{8,64}$"
MAX_PAGE_SIZE: Final = 5
MAX_PAGE: Final = 20
ERROR_CODES: Final = (
    "invalid_arguments",
    "not_found",
    "permission_revoked",
    "not_allowed",
    "conflict",
    "internal",
)

JSONDict = dict[str, Any]
"""A JSON object as the order desk builds it; loose because the SDK's ``Tool`` fields take ``dict[str, Any]``
(a different name from ``core.jsonvalue.JSON``, the strict JSON value type)."""

_ERROR: Final[JSONDict] = {
    "description": "null on success; on failure a code and a message that says what to do next",
    "anyOf": [
        {"type": "null"},
        {
            "type": "object",
            "properties": {"code": {"enum": list(ERROR_CODES)}, "message": {"type": "string"}},
            "required": ["code", "message"],
            "additionalProperties": False,
        },
    ],
}


def _nullable(schema: JSONDict) -> JSONDict:
    return {"anyOf": [{"type": "null"}, schema]}


def _record(properties: JSONDict) -> JSONDict:
    return {
        "type": "object",
        "properties": properties,
        "required": sorted(properties),
        "additionalProperties": False,
    }


_STR: Final[JSONDict] = {"type": "string"}
_INT: Final[JSONDict] = {"type": "integer"}
_ORDER_EVIDENCE: Final = _record({"order_id": _STR, "order_version": _INT, "updated_at": _STR})
_ORDER: Final = _record(
    {
        "order_id": _STR,
        "status": {"enum": list(ORDER_STATUSES)},
        "region": {"enum": list(REGIONS)},
        "item": _STR,
        "total_cents": _INT,
        "waybill_no": {"type": ["string", "null"]},
    }
)
_SHIPMENT: Final = _record(
    {"waybill_no": _STR, "order_id": _STR, "carrier": _STR, "status": _STR, "last_event": _STR}
)
_POLICY: Final = _record(
    {"policy_id": _STR, "topic": _STR, "region": _STR, "title": _STR, "body": _STR, "version": _INT}
    | {"updated_at": _STR}
)
_PAGING: Final = _record(
    {"page": _INT, "page_size": _INT, "total": _INT, "truncated": {"type": "boolean"}}
    | {"next_page": {"type": ["integer", "null"]}}
)
_INVESTIGATION: Final = _record(
    {"investigation_id": _INT, "order_id": _STR, "reason": _STR, "note": _STR, "status": _STR}
    | {"idempotency_key": {"type": ["string", "null"]}, "created_at": _STR}
)


def _output(status: list[str], fields: JSONDict) -> JSONDict:
    return _record({"status": {"enum": status}, **fields, "error": _ERROR})


GET_ORDER: Final[JSONDict] = {
    "name": "get_order",
    "title": "查询订单",
    "description": (
        "按订单号查询一张订单的当前状态、金额、配送区域和运单号，并返回订单版本与更新时间作为证据。"
        "当用户给出订单号（形如 O-1042）并询问订单状态、物流或要为订单办事时调用。"
        "不要在没有订单号时调用，也不要猜测或编造订单号：先向用户询问。只返回当前状态，不返回历史变更。"
    ),
    "input": {
        "type": "object",
        "properties": {
            "order_id": {
                "type": "string",
                "pattern": ORDER_ID_PATTERN,
                "description": "订单号，O- 后接 1 到 8 位数字，例如 O-1042",
            }
        },
        "required": ["order_id"],
        "additionalProperties": False,
    },
    "output": _output(["ok", "error"], {"order": _nullable(_ORDER), "evidence": _nullable(_ORDER_EVIDENCE)}),
    "hints": {"read_only_hint": True, "idempotent_hint": True, "open_world_hint": False},
}

TRACK_SHIPMENT: Final[JSONDict] = {
    "name": "track_shipment",
    "title": "查询运单物流",
    "description": (
        "按运单号查询承运商、当前物流状态和最新一条物流事件。"
        "运单号只能来自 get_order 的结果（waybill_no 字段）：先查订单，再用它返回的运单号调用。"
        "不要用订单号调用，不要自己拼运单号；订单还没有运单号时不要调用。"
    ),
    "input": {
        "type": "object",
        "properties": {
            "waybill_no": {
                "type": "string",
                "pattern": WAYBILL_PATTERN,
                "description": "运单号，WB- 后接 1 到 8 位数字，取自 get_order 返回的 waybill_no",
            }
        },
        "required": ["waybill_no"],
        "additionalProperties": False,
    },
    "output": _output(
        ["ok", "error"],
        {
            "shipment": _nullable(_SHIPMENT),
            "evidence": _nullable(_record({"waybill_no": _STR, "updated_at": _STR})),
        },
    ),
    "hints": {"read_only_hint": True, "idempotent_hint": True, "open_world_hint": False},
}

SEARCH_DELIVERY_POLICY: Final[JSONDict] = {
    "name": "search_delivery_policy",
    "title": "查找配送政策",
    "description": (
        "按主题（和可选的区域）查找配送政策条款，分页返回；truncated 为 true 时还有下一页，"
        "用 next_page 再查。当用户问延误、破损、丢件、改地址或退货的规则时调用。"
        "不要用它查某张订单的状态（用 get_order）；不要一次要很多条，page_size 最多 5。"
    ),
    "input": {
        "type": "object",
        "properties": {
            "topic": {"type": "string", "enum": list(POLICY_TOPICS), "description": "政策主题"},
            "region": {
                "type": "string",
                "enum": list(REGIONS),
                "description": "配送区域；不填时只按主题查，包括适用于全部区域的条款",
            },
            "page": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE, "description": "页码，默认 1"},
            "page_size": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_PAGE_SIZE,
                "description": "每页条数，默认 2，最多 5",
            },
        },
        "required": ["topic"],
        "additionalProperties": False,
    },
    "output": _output(
        ["ok", "error"], {"items": {"type": "array", "items": _POLICY}, "paging": _nullable(_PAGING)}
    ),
    "hints": {"read_only_hint": True, "idempotent_hint": True, "open_world_hint": False},
}

CREATE_INVESTIGATION: Final[JSONDict] = {
    "name": "create_investigation",
    "title": "创建调查单",
    "description": (
        "为一张已发货或已签收的订单创建物流调查单（写操作，会在系统里新增一条记录）。"
        "只有在用户明确要求调查、并且已经用 get_order 确认过订单之后才调用；调用前应用会请用户确认。"
        "idempotency_key 由应用的调用层按调查意图（订单号 + 原因）填写，同一意图重试时不会重复建单。"
        "不要为了查询状态而调用，不要为取消或未发货的订单调用。"
    ),
    "input": {
        "type": "object",
        "properties": {
            "order_id": {"type": "string", "pattern": ORDER_ID_PATTERN, "description": "订单号，例如 O-1042"},
            "reason": {"type": "string", "enum": list(INVESTIGATION_REASONS), "description": "调查原因"},
            "note": {"type": "string", "minLength": 1, "maxLength": 200, "description": "给调查员的一句说明"},
            "idempotency_key": {
                "type": "string",
                "pattern": KEY_PATTERN,
                "description": "业务幂等键，由应用的调用层按调查意图算出（8 到 64 个字符）",
            },
        },
        "required": ["order_id", "reason", "note", "idempotency_key"],
        "additionalProperties": False,
    },
    "output": _output(
        ["created", "replayed", "error"],
        {"investigation": _nullable(_INVESTIGATION), "evidence": _nullable(_ORDER_EVIDENCE)},
    ),
    "hints": {
        "read_only_hint": False,
        "destructive_hint": False,
        "idempotent_hint": True,
        "open_world_hint": False,
    },
}

TOOLS: Final = (GET_ORDER, TRACK_SHIPMENT, SEARCH_DELIVERY_POLICY, CREATE_INVESTIGATION)
ORDER_TOOLS: Final = TOOLS
"""The four declarations under the facade's name (lesson 30)."""
WRITE_TOOLS: Final = frozenset({"create_investigation"})
"""The application's own list of writes (lesson 33): decided here, never read from annotations."""


def declarations(*, idempotency_key: bool = True) -> list[JSONDict]:
    """Fresh copies of the four declarations; ``idempotency_key=False`` is lesson 32's what-if.

    Without the key, ``create_investigation`` neither declares nor accepts it (and its hint no
    longer claims to be idempotent): two retries of one intent then write two rows.
    """
    tools = [copy.deepcopy(t) for t in TOOLS]
    if not idempotency_key:
        write = next(t for t in tools if t["name"] == "create_investigation")
        del write["input"]["properties"]["idempotency_key"]
        write["input"]["required"].remove("idempotency_key")
        write["description"] = write["description"].replace(
            "idempotency_key 由应用的调用层按调查意图（订单号 + 原因）填写，同一意图重试时不会重复建单。", ""
        )
        write["hints"]["idempotent_hint"] = False
    return tools
