"""The course's fixed vocabulary: the six kinds of field, the four chain steps, the actors.

One table for every lesson, library label and diagram (GUIDE section 3). Colours are the
Okabe-Ito palette, which stays distinguishable for colour-blind readers; the four steps take
their own colours from Paul Tol's muted palette, so that no colour means both a step and a
kind, and the highlight is a colour neither uses. Verdicts (PASS/FAIL, 通过/断开...) take a
third palette, Tol's pale and dark schemes: a pale background with dark ink, never a kind's or
a step's colour, and always beside a mark and a word. Introduced in lesson 01.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Kind = Literal["rule", "setting", "value", "result", "identifier", "envelope"]
Step = Literal["declaration", "call", "execution", "feedback"]
Status = Literal["pass", "fail", "unchecked"]


@dataclass(frozen=True)
class KindStyle:
    """How one kind of field is named and coloured everywhere in the course."""

    kind: Kind
    zh: str
    colour: str
    meaning_zh: str


KINDS: Final[dict[Kind, KindStyle]] = {
    "rule": KindStyle("rule", "规则", "#0072B2", "怎么填写的约定，调用之前就存在"),
    "setting": KindStyle(
        "setting", "设置", "#56B4E9", "本次请求怎么处理的选项（模型、采样、tool_choice），不管参数怎么填"
    ),
    "value": KindStyle("value", "值（本次参数值）", "#E69F00", "本次调用的具体数据，原样传递"),
    "result": KindStyle("result", "结果", "#009E73", "只有执行才会产生的新数据"),
    "identifier": KindStyle("identifier", "标识", "#CC79A7", "用来配对，本身不携带含义"),
    "envelope": KindStyle("envelope", "封装", "#7F7F7F", "包住内容的外壳与类型标记"),
}

SHORT_ZH: Final[dict[Kind, str]] = {k: s.zh.split("（")[0] for k, s in KINDS.items()}
"""Each kind's Chinese name without its gloss (``值`` for ``值（本次参数值）``), for table cells."""

STEPS: Final[tuple[Step, ...]] = ("declaration", "call", "execution", "feedback")
STEP_COLOURS: Final[dict[Step, str]] = {
    "declaration": "#332288",  # indigo
    "call": "#44AA99",  # teal
    "execution": "#999933",  # olive
    "feedback": "#882255",  # wine
}
"""Each chain step's colour (diagrams); disjoint from every kind's colour."""

HIGHLIGHT_COLOUR: Final = "#000000"
"""The outline of a highlighted field: black, which is no kind's and no step's colour."""


@dataclass(frozen=True)
class StatusStyle:
    """How one verdict is marked everywhere: a mark and a word on a pale background, dark ink."""

    status: Status
    mark: str
    zh: str
    background: str
    ink: str


STATUSES: Final[dict[Status, StatusStyle]] = {
    "pass": StatusStyle("pass", "✓", "通过", "#CCDDAA", "#225522"),  # pale / dark green
    "fail": StatusStyle("fail", "✗", "不通过", "#FFCCCC", "#663333"),  # pale / dark red
    "unchecked": StatusStyle("unchecked", "○", "未检查", "#DDDDDD", "#555555"),  # pale / dark grey
}
"""Each verdict's look (tables, checker boxes): PASS / 通过; FAIL / 不通过 / 断开 (a broken link);
no verdict yet (未检查, an exercise or question left open). Disjoint from every kind's and step's
colour, and from the highlight's pale yellow background."""

STEP_ZH: Final[dict[Step, str]] = {
    "declaration": "声明",
    "call": "调用",
    "execution": "执行",
    "feedback": "反馈",
}

ACTOR_ZH: Final[dict[str, str]] = {
    "user": "用户",
    "application": "应用",
    "model": "模型接口",
    "service": "工具服务",
    "mcp_client": "MCP 客户端",
}

TERMS_ZH: Final[dict[str, str]] = {
    "alias": "别名",
    "protocol error": "协议错误",
    "tool execution error": "工具执行错误",
    "application": "应用",
    "tool service": "工具服务",
}
