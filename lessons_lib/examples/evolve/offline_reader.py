"""The order desk's stand-in with one more rule: it reads the tools' descriptions. Lesson 50.

Still a deterministic rule program, not a language model (:mod:`offline_orders`). The added
rule is the tool-design article's point that a description steers the choice: for a question about where a
parcel is *now* (到哪、物流), the stand-in calls ``track_shipment`` only if that tool's declared
description promises the current logistics (contains ``当前``). Otherwise it takes the order's
own status as the answer and makes no tracking call. A real model weighs a description in its
own way and may choose differently; what carries over is that replay must check the choice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from lessons_lib.core.jsonvalue import JSONObject, objects
from lessons_lib.core.messages import t
from lessons_lib.services.orders.standin import OrdersModel

TRACK_ALIAS: Final = "orders__track_shipment"
TRACK_WORDS: Final = ("现在到哪了", "到哪了", "到哪", "物流", "运单")
PROMISE: Final = "当前"
"""What the description must say for a "where is it now" question to go to ``track_shipment``."""


def label() -> str:
    """What this stand-in is, in the current language (it is labelled as what it is)."""
    return t("offline_reader.label")


def promises_current(tools: list[JSONObject]) -> bool:
    """True when the declared ``track_shipment`` says it returns the current logistics."""
    found = [tool for tool in tools if tool.get("name") == TRACK_ALIAS]
    return bool(found) and PROMISE in str(found[0].get("description", ""))


@dataclass
class DescriptionReader(OrdersModel):
    """:class:`OrdersModel` plus the description rule above (one instance per run)."""

    def respond(self, body: JSONObject) -> JSONObject:
        tools = objects(body.get("tools"))
        if promises_current(tools):
            return super().respond(body)
        changed = dict(body)
        changed["input"] = [_without_tracking(item) for item in objects(body.get("input"))]
        return super().respond(changed)


def _without_tracking(item: JSONObject) -> JSONObject:
    """The user's words with the tracking question taken out (what this rule makes of them)."""
    if item.get("role") != "user" or not isinstance(item.get("content"), str):
        return item
    text = str(item["content"])
    for word in TRACK_WORDS:
        text = text.replace(word, "")
    return {**item, "content": text}
