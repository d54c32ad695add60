"""A catalogue of 50 to 500 tools generated from the order desk's domains. Introduced in lesson 51.

The MCP chapter (2.3, 5.2): past about 20 tools selection gets worse, and 20 tools of 200 tokens are
4,000 tokens before the conversation starts. The catalogue makes that measurable: ten business
domains (orders, delivery, refunds, customers, inventory...), each with five things and ten
actions, 500 generated tools; the order desk's four real tools join their own domains, first in
them, so the whole catalogue holds four more. Names and
descriptions are deterministic; a smaller catalogue takes an even share of every domain.

Token counts (:func:`token_count`) use ``bpe-openai``'s bundled ``o200k_base`` (offline, same
ids as tiktoken) when it is installed, else an estimate of one token per three UTF-8 bytes
(labelled as such). Either way the figure is the tokens of the declarations' JSON text, an
estimate: the API wraps declarations in its own format; ``POST /v1/responses/input_tokens``
counts exactly.
"""

from __future__ import annotations

import json
from functools import cache
from typing import TYPE_CHECKING, Final, TypedDict

from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.messages import t as message
from lessons_lib.services.orders.tools import TOOLS as DESK_TOOLS

if TYPE_CHECKING:
    from bpe_openai import Encoding
    from openai.types.responses import FunctionToolParam


class Tool(TypedDict):
    """One catalogue tool: its name, its business domain, a description and its input schema."""

    name: str
    domain: str
    description: str
    input: JSONObject


DOMAINS: Final[dict[str, tuple[str, tuple[tuple[str, str], ...]]]] = {
    "orders": (
        "订单：下单、订单状态、订单明细",
        (
            ("order", "订单"),
            ("order_item", "订单明细"),
            ("order_note", "订单备注"),
            ("order_tag", "订单标签"),
            ("cart", "购物车"),
        ),
    ),
    "delivery": (
        "配送：运单、物流轨迹、配送政策、改地址",
        (
            ("shipment", "运单"),
            ("delivery_slot", "配送时段"),
            ("address", "收货地址"),
            ("carrier", "承运商"),
            ("pickup", "上门取件"),
        ),
    ),
    "refunds": (
        "退款：退款申请、退货、退款进度",
        (
            ("refund", "退款申请"),
            ("return", "退货单"),
            ("refund_rule", "退款规则"),
            ("compensation", "补偿"),
            ("dispute", "争议"),
        ),
    ),
    "customers": (
        "客户：账户、会员、联系方式",
        (
            ("customer", "客户资料"),
            ("membership", "会员等级"),
            ("contact", "联系方式"),
            ("consent", "通知授权"),
            ("blacklist", "风控名单"),
        ),
    ),
    "inventory": (
        "库存：商品库存、仓库、补货",
        (
            ("stock", "商品库存"),
            ("warehouse", "仓库"),
            ("restock", "补货单"),
            ("sku", "商品规格"),
            ("reservation", "库存预占"),
        ),
    ),
    "payments": (
        "支付：付款、账单、发票",
        (
            ("payment", "付款记录"),
            ("invoice", "发票"),
            ("bill", "账单"),
            ("payout", "结算单"),
            ("card", "支付卡"),
        ),
    ),
    "coupons": (
        "优惠：优惠券、活动、积分",
        (
            ("coupon", "优惠券"),
            ("campaign", "营销活动"),
            ("points", "积分"),
            ("voucher", "代金券"),
            ("gift_card", "礼品卡"),
        ),
    ),
    "reviews": (
        "评价：商品评价、晒单、投诉",
        (
            ("review", "商品评价"),
            ("photo", "晒单图片"),
            ("complaint", "投诉"),
            ("reply", "商家回复"),
            ("rating", "评分"),
        ),
    ),
    "stores": (
        "门店：门店信息、营业时间、自提点",
        (
            ("store", "门店"),
            ("opening_hours", "营业时间"),
            ("pickup_point", "自提点"),
            ("staff", "店员"),
            ("shelf", "货架"),
        ),
    ),
    "reports": (
        "报表：销售、客服、物流统计",
        (
            ("sales_report", "销售报表"),
            ("service_report", "客服报表"),
            ("delivery_report", "物流报表"),
            ("audit_log", "审计日志"),
            ("export", "导出任务"),
        ),
    ),
}
"""Domain -> (what it covers, its things as (name, 中文))."""

ACTIONS: Final = (
    ("get", "查询", "按编号查询一条{t}的详情。"),
    ("list", "列出", "分页列出{t}，可按时间筛选。"),
    ("create", "创建", "新建一条{t}（写操作）。"),
    ("update", "修改", "修改一条{t}的字段（写操作）。"),
    ("cancel", "取消", "取消一条{t}（写操作，不可撤销）。"),
    ("search", "搜索", "按关键词搜索{t}。"),
    ("count", "统计", "统计{t}的数量。"),
    ("export", "导出", "把{t}导出为文件。"),
    ("archive", "归档", "归档一条{t}（写操作）。"),
    ("history", "查看变更", "查看一条{t}的变更历史。"),
)
"""(verb, 中文, description template): ten actions per thing."""

SIZES: Final = (50, 100, 200, 500)


def _generated(domain: str, thing: str, zh: str, verb: str, verb_zh: str, template: str) -> Tool:
    key = f"{thing}_id"
    return {
        "name": f"{domain}_{verb}_{thing}",
        "domain": domain,
        "description": f"{verb_zh}{zh}："
        + template.format(t=zh)
        + f"属于{DOMAINS[domain][0].split('：')[0]}域。",
        "input": {
            "type": "object",
            "properties": {key: {"type": "string", "description": f"{zh}编号"}},
            "required": [key] if verb not in ("list", "search", "count", "export", "create") else [],
            "additionalProperties": False,
        },
    }


@cache
def _all() -> tuple[Tool, ...]:
    desk_domains = {"get_order": "orders", "create_investigation": "orders"}
    desk = [
        Tool(
            name=t["name"],
            domain=desk_domains.get(t["name"], "delivery"),
            description=t["description"],
            input=t["input"],
        )
        for t in DESK_TOOLS
    ]
    per_domain: dict[str, list[Tool]] = {d: [t for t in desk if t["domain"] == d] for d in DOMAINS}
    for domain, (_, things) in DOMAINS.items():
        for action in ACTIONS:
            for thing, zh in things:
                tool = _generated(domain, thing, zh, *action)
                if tool["name"] not in {t["name"] for t in desk}:
                    per_domain[domain].append(tool)
    # interleave the domains, so the first n tools take an even share of each
    longest = max(len(v) for v in per_domain.values())
    ordered = [v[i] for i in range(longest) for v in per_domain.values() if i < len(v)]
    return tuple(ordered)


def catalogue(size: int | None = None) -> list[Tool]:
    """The first ``size`` tools, every domain in turn; ``None``: the whole catalogue (lesson 51).

    The desk's four real tools lead their own domains (orders, delivery), so they are not the
    first four: the other domains take their turns between them. The whole catalogue is the
    generated tools plus those four (``len(catalogue())``).
    """
    every = _all()
    if size is None:
        size = len(every)
    if not 4 <= size <= len(every):
        raise ValueError(f"size must be between 4 and {len(every)}, got {size}")
    return [json.loads(json.dumps(t)) for t in every[:size]]


def responses_tool(tool: Tool, *, defer: bool = False) -> FunctionToolParam:
    """One Responses function tool (``strict: false`` as the course declares), ``defer_loading`` if asked."""
    declared: FunctionToolParam = {
        "type": "function",
        "name": tool["name"],
        "description": tool["description"],
        "parameters": dict(tool["input"]),
        "strict": False,
    }
    if defer:
        declared["defer_loading"] = True
    return declared


@cache
def _encoding() -> Encoding | None:
    try:
        import bpe_openai
    except ImportError:
        return None
    return bpe_openai.get_encoding("o200k_base")


def tokenizer_label() -> str:
    """What :func:`token_count` measures with on this machine (lesson 51)."""
    if _encoding() is None:
        return message("toolcatalogue.estimate")
    return message("toolcatalogue.o200k")


def token_count(value: object) -> int:
    """Tokens of ``value``'s compact JSON text (a string is counted as it is): an estimate (lesson 51)."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    encoding = _encoding()
    if encoding is None:  # no wheel for this platform (Intel macOS): a rough, labelled estimate
        return max(1, len(text.encode("utf-8")) // 3)
    return len(encoding.encode(text))


def declared_catalogue(size: int) -> list[FunctionToolParam]:
    """The first ``size`` tools as Responses declarations (lesson 51)."""
    return [responses_tool(t) for t in catalogue(size)]
