"""Names for the order desk's values and tools, as the stand-in tells them to the user.

Introduced in lesson 31. A real model writes its own sentences; the stand-in writes fixed ones,
and names values the way the user reads them, with the wire value after it
(``已发货（shipped）``) so the answer can be matched to the tool result. A tool's own error
message is wire text: it is quoted as such, never passed off as the stand-in's words.
Hand-written tables (``core/catalogue/orders_words.json``): no library holds the course's
business vocabulary.
"""

from __future__ import annotations

from typing import Final

from lessons_lib.core.messages import t

WORDS: Final = frozenset(
    {
        # order statuses
        "pending",
        "paid",
        "shipped",
        "delivered",
        "cancelled",
        # shipment statuses
        "in_transit",
        # investigation reasons (and the shipment status "delayed"/"lost")
        "delayed",
        "damaged",
        "lost",
        "wrong_item",
    }
)
"""The wire values with a name of their own (``orders_words.value.<value>``)."""

TOOLS: Final = frozenset({"get_order", "search_delivery_policy", "track_shipment", "create_investigation"})
"""The tools with a name of their own (``orders_words.tool.<tool>``)."""


def _named(word: str, value: str) -> str:
    # an English name may be the wire value itself: then it is said once
    return value if word == value else t("orders_words.named", word=word, value=value)


def value_word(value: object) -> str:
    """``已发货（shipped）`` for a known value; an unknown one as it is."""
    text = str(value)
    return _named(t(f"orders_words.value.{text}"), text) if text in WORDS else text


def tool_name(tool: str) -> str:
    """``查询订单（get_order）`` for a known tool; an unknown one as it is."""
    return _named(t(f"orders_words.tool.{tool}"), tool) if tool in TOOLS else tool


def wire_quote(message: str) -> str:
    """A tool's own message, marked as wire text (it stays in the tool's language)."""
    return t("orders_words.wire_quote", message=message)
