"""Names for the order desk's values and tools, as the stand-in tells them to the user.

Introduced in lesson 31. A real model writes its own sentences; the stand-in writes fixed ones
in the user's language, and names values and tools the way the user reads them: ``已发货``, not
``shipped``; ``查询订单``, not ``get_order``. The wire values stay in the
trace and the ledger, where the answer can be matched to the tool result. A tool's own error
message is wire text in the tool's language: the stand-in says what it means, never quotes it.
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


def value_word(value: object) -> str:
    """``已发货`` for a known value, in the user's language; an unknown one as it is."""
    text = str(value)
    return t(f"orders_words.value.{text}") if text in WORDS else text


def tool_name(tool: str) -> str:
    """``查询订单`` for a known tool, in the user's language; any other one as "this step"."""
    return t(f"orders_words.tool.{tool}") if tool in TOOLS else t("orders_words.tool.other")
