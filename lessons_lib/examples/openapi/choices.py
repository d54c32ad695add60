"""The seed's choice table (direct function, OpenAPI, MCP) with this course's measurements (lesson 40).

The first columns restate seed 004's advice in our own words; the last ones are measured from
one run of each way (:mod:`lessons_lib.examples.openapi.threeways`) on the same task.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from lessons_lib.core.display import Displayable
from lessons_lib.core.htmltable import html_table
from lessons_lib.views.textwidth import text_table

ADVICE: Final[dict[str, tuple[str, str, str]]] = {
    "function": (
        "单个应用、几个内部函数",
        "手写声明，应用直接调用函数",
        "零额外组件；工具多了要自己维护声明",
    ),
    "openapi": (
        "已有 REST API、想快速接入",
        "从 OpenAPI 文档生成声明，路由器发 HTTP 请求",
        "复用现有契约；要处理 $ref、组合结构和鉴权",
    ),
    "mcp": (
        "多个应用共享同一套工具",
        "服务端用 tools/list 公布，应用在运行时发现",
        "统一发现与调用；多一层协议和一个要运维的服务",
    ),
}
WAY_ZH: Final = {"function": "直接函数", "openapi": "OpenAPI 生成", "mcp": "MCP 服务"}
HEADERS: Final = (
    "方式",
    "适合",
    "声明从哪来",
    "收益与代价",
    "执行经过",
    "声明字符数",
    "JSON-RPC 帧",
    "call_id 配对",
)


@dataclass(frozen=True, repr=False)
class ChoiceTable(Displayable):
    """One row per way; text and HTML views (lesson 40)."""

    rows: tuple[tuple[str, ...], ...]

    def text(self) -> str:
        return text_table(HEADERS, self.rows)

    def html(self) -> str:
        return html_table(HEADERS, self.rows, nowrap=(0,))

    def repr_args(self) -> str:
        return f"rows={len(self.rows)}"


def choice_table(runs: Mapping[str, Any]) -> ChoiceTable:
    """The table for runs of :func:`lessons_lib.examples.openapi.threeways.run_three_ways`."""
    rows = []
    for way, run in runs.items():
        fits, declared, trade = ADVICE[way]
        rows.append(
            (
                WAY_ZH[way],
                fits,
                declared,
                trade,
                " → ".join(run.hops),
                str(run.declaration_chars),
                str(len(run.frames)),
                "是" if run.paired else "否",
            )
        )
    return ChoiceTable(tuple(rows))
