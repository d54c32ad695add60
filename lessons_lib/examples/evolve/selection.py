"""Which tool gets chosen from a big catalogue, by each way of sending less. Lesson 51.

**The offline stand-in's selection rule is a rule, not a model**: it scores each tool it is
shown by the character pairs (bigrams) its name and description share with the task and takes
the best (ties: the first listed). So the table measures how many look-alike tools a way puts
in front of the chooser, not how a real model chooses; with a key, :func:`live_choice` sends
the same task and the same declarations to a real model.

Ways: ``flat`` (every tool), ``routed`` (a first step picks the domain, then only that domain's
tools: the MCP chapter, 2.3), ``allowed_tools`` (the same routing, sent as ``tool_choice`` over the
whole list, so the list stays cacheable but is still sent), ``search`` (a client-side BM25
search over names and descriptions, ``rank_bm25``, shows the top five).
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import TYPE_CHECKING, Final

from lessons_lib.core.messages import t as message
from lessons_lib.examples.evolve.catalogue import DOMAINS, SIZES, Tool, catalogue, responses_tool, token_count
from lessons_lib.views.rowtable import RowTable

if TYPE_CHECKING:
    from rank_bm25 import BM25Okapi

SELECTION_TASKS: Final = (
    ("订单 O-1042 现在是什么状态？", "get_order"),
    ("运单 WB-77042 的物流到哪了？", "track_shipment"),
    ("北区的延误政策是什么？", "search_delivery_policy"),
    ("帮我查一下退款申请 R-2001 的详情", "refunds_get_refund"),
    ("客户资料 C-001 的详情是什么？", "customers_get_customer"),
    ("仓库 W-3 的详情", "inventory_get_warehouse"),
    ("发票 I-88 的详情", "payments_get_invoice"),
    ("优惠券 Q-7 的详情", "coupons_get_coupon"),
    ("门店 S-12 的详情", "stores_get_store"),
    ("商品评价 V-5 的详情", "reviews_get_review"),
)
"""(task, expected tool): every expected tool is in even the smallest catalogue."""
WAYS: Final = ("flat", "routed", "allowed_tools", "search")
_ASCII = re.compile(r"[a-z0-9]+")


def way_label(way: str) -> str:
    """A way's name in the selection table, in the current language (lesson 51)."""
    return message(f"selection.way.{way}")


def terms(text: str) -> list[str]:
    """Character bigrams of the Chinese text plus lower-case words (hand-written: no tokenizer needed)."""
    low = text.lower()
    cjk = [c for c in low if "\u4e00" <= c <= "\u9fff"]
    return [a + b for a, b in zip(cjk, cjk[1:], strict=False)] + _ASCII.findall(low)


def pick(task: str, tools: list[Tool]) -> str:
    """The stand-in's rule: the tool sharing the most bigrams with the task (first on ties)."""
    wanted = set(terms(task))
    scored = [
        (len(wanted & set(terms(t["name"].replace("_", " ") + t["description"]))), -n)
        for n, t in enumerate(tools)
    ]
    best = max(range(len(tools)), key=lambda n: scored[n])
    return str(tools[best]["name"])


def route_domain(task: str) -> str:
    """The routing step: the domain whose summary shares the most bigrams with the task."""
    wanted = set(terms(task))
    return max(DOMAINS, key=lambda d: len(wanted & set(terms(DOMAINS[d][0]))))


@cache
def _search(size: int) -> tuple[list[Tool], BM25Okapi]:
    from rank_bm25 import BM25Okapi

    tools = catalogue(size)
    return tools, BM25Okapi([terms(t["name"].replace("_", " ") + t["description"]) for t in tools])


def search_tools(task: str, size: int, k: int = 5) -> list[Tool]:
    """Client-side tool search, offline: BM25 over names and descriptions, the best ``k`` (lesson 51)."""
    tools, index = _search(size)
    scores = index.get_scores(terms(task))
    order = sorted(range(len(tools)), key=lambda n: (-scores[n], n))
    return [tools[n] for n in order[:k]]


def shown(way: str, task: str, size: int) -> list[Tool]:
    """The tools the chooser sees for one task, by one way."""
    tools = catalogue(size)
    if way == "flat":
        return tools
    if way in ("routed", "allowed_tools"):
        domain = route_domain(task)
        return [t for t in tools if t["domain"] == domain]
    if way == "search":
        return search_tools(task, size)
    raise ValueError(f"unknown way {way!r}; choose one of: {', '.join(WAYS)}")


def sent_tokens(way: str, task: str, size: int) -> int:
    """Tokens of the declarations' JSON one request sends up front (an estimate, see catalogue)."""
    if way in ("flat", "allowed_tools"):
        return _all_tokens(size)
    return token_count([responses_tool(t) for t in shown(way, task, size)])


@cache
def _all_tokens(size: int) -> int:
    return token_count([responses_tool(t) for t in catalogue(size)])


def selection_table(sizes: tuple[int, ...] = SIZES) -> RowTable:
    """Right choices out of the task table, and tokens sent per request, per size and way (lesson 51)."""
    rows = []
    for size in sizes:
        for way in WAYS:
            right = sum(pick(task, shown(way, task, size)) == want for task, want in SELECTION_TASKS)
            tokens = round(
                sum(sent_tokens(way, task, size) for task, _ in SELECTION_TASKS) / len(SELECTION_TASKS)
            )
            rows.append((str(size), way_label(way), f"{right}/{len(SELECTION_TASKS)}", str(tokens)))
    headers = tuple(message(f"selection.{h}") for h in ("size", "way", "right", "tokens"))
    return RowTable(headers, tuple(rows), message("selection.note"))


def misses(size: int, way: str = "flat") -> list[tuple[str, str, str]]:
    """(task, expected, chosen) for every wrong choice: what the look-alikes were."""
    found = []
    for task, want in SELECTION_TASKS:
        got = pick(task, shown(way, task, size))
        if got != want:
            found.append((task, want, got))
    return found


def live_choice(task: str, tools: list[Tool], model: str | None = None) -> str | None:
    """With ``OPENAI_API_KEY``: the tool a real model calls for ``task`` (None if it calls none)."""
    from lessons_lib.examples.evolve.manytools_requests import live_first_call

    return live_first_call(task, [responses_tool(t) for t in tools], model)


def json_size(tools: list[Tool]) -> int:
    """Characters of the declarations' compact JSON (a second, tokenizer-free measure)."""
    return len(json.dumps([responses_tool(t) for t in tools], ensure_ascii=False, separators=(",", ":")))
