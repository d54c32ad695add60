"""Chinese names for the order desk's values and tools, as the stand-in tells them to the user.

Introduced in lesson 31. A real model writes its own sentences; the stand-in writes fixed ones,
and names values the way a Chinese-speaking user reads them, with the wire value after it
(``已发货（shipped）``) so the answer can be matched to the tool result. A tool's own error
message is wire text: it is quoted as such, never passed off as the stand-in's words.
Hand-written tables: no library holds the course's business vocabulary.
"""

from __future__ import annotations

from typing import Final

WORDS: Final[dict[str, str]] = {
    # order statuses
    "pending": "待付款",
    "paid": "已付款",
    "shipped": "已发货",
    "delivered": "已签收",
    "cancelled": "已取消",
    # shipment statuses
    "in_transit": "运输中",
    # investigation reasons (and the shipment status "delayed"/"lost")
    "delayed": "延误",
    "damaged": "破损",
    "lost": "丢失",
    "wrong_item": "发错货",
}

TOOLS: Final[dict[str, str]] = {
    "get_order": "查询订单",
    "search_delivery_policy": "查询配送政策",
    "track_shipment": "查询物流",
    "create_investigation": "创建调查单",
}


def say(value: object) -> str:
    """``已发货（shipped）`` for a known value; an unknown one as it is."""
    text = str(value)
    return f"{WORDS[text]}（{text}）" if text in WORDS else text


def tool_name(tool: str) -> str:
    """``查询订单（get_order）`` for a known tool; an unknown one as it is."""
    return f"{TOOLS[tool]}（{tool}）" if tool in TOOLS else tool


def wire_quote(message: str) -> str:
    """A tool's own message, marked as wire text (it stays in the tool's language)."""
    return f"订单台返回的原文：“{message}”"
