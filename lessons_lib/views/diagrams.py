"""The course diagrams: who talks to whom, the closed loop and the chain. Lesson 01.

Each function returns a :class:`~lessons_lib.views.dot.Diagram`: DOT text built with
``graphviz.Digraph``, drawn only when displayed. Labels are Chinese; colours come from
``lessons_lib.core.glossary``. Nodes are sized from their labels (``lessons_lib.views.textwidth``)
so that no renderer clips Chinese text. A trace as a sequence is ``lessons_lib.views.sequence``.
"""

from __future__ import annotations

from typing import Final

from lessons_lib.core import glossary
from lessons_lib.core.glossary import Step
from lessons_lib.views.dot import Diagram, box, chain, digraph, edge_label, same_rank

MISSING_COLOUR: Final = "#D00000"  # red: the one colour that means "expected but missing"


def step_colour(step: Step) -> str:
    """A step's colour (``glossary.STEP_COLOURS``): never the colour of a kind of field."""
    return glossary.STEP_COLOURS[step]


# ---------------------------------------------------------------- 1. who talks to whom
def actors_diagram() -> Diagram:
    """User, application (with its MCP client), model API and file service; two separate conversations."""
    a = glossary.ACTOR_ZH
    g = digraph("actors", rankdir="LR", nodesep="0.5", ranksep="0.8", pad="0.2")
    box(g, "user", a["user"], fillcolor="#F2F2F2")
    with g.subgraph(name="cluster_app") as app:
        app.attr("graph", label=a["application"] + "（同一个程序）", style="rounded", color="#7F7F7F")
        box(app, "app", f"{a['application']}的循环\n准备输入 · 解析 · 路由 · 配对")
        box(app, "client", a["mcp_client"])
        same_rank(app, ["app", "client"])
    box(g, "model", f"{a['model']}\nOpenAI Responses")
    box(g, "fs", f"{a['service']}（MCP）\nread_text_file")
    note = "箭头不代表获得访问权限：\n服务仍会检查输入和允许的目录"
    box(g, "note", note, shape="note", style="filled", fillcolor="#FFF8E0", fontsize=11)
    conv = {"penwidth": "1.6"}
    edges: list[tuple[str, str, str, dict[str, str]]] = [
        ("user", "app", "任务", {}),
        ("app", "user", "答复", {}),
        ("app", "model", "对话一：请求\ntools + input", conv),
        ("model", "app", "响应\nfunction_call / 答复", conv),
        ("app", "client", "调用路由", {"dir": "both", "style": "dotted"}),
        ("client", "fs", "对话二：JSON-RPC\ntools/call", {**conv, "style": "dashed"}),
        ("fs", "client", "结果\ncontent / isError", {**conv, "style": "dashed"}),
    ]
    for tail, head, text, kw in edges:
        g.edge(tail, head, edge_label(text), **kw)
    same_rank(g, ["model", "fs", "note"])
    g.edge("model", "note", style="invis")
    text = (
        "图：谁和谁通信\n用户 ⇄ 应用；应用 ⇄ 模型接口（对话一：Responses）；应用内的 MCP 客户端 ⇄ 工具服务"
        "（对话二：JSON-RPC）。模型与工具服务之间没有直接连线。箭头不代表获得访问权限。"
    )
    return Diagram("actors", g.source, text)


# ---------------------------------------------------------------- 2. the closed loop
LOOP_STEPS: Final[tuple[tuple[str, str, Step], ...]] = (
    ("注册工具", "工具服务", "declaration"),
    ("发现声明与来源", "应用（tools/list）", "declaration"),
    ("适配 tools 并准备 input", "应用", "declaration"),
    ("模型选择与填参", "模型接口", "call"),
    ("应用解析与路由", "应用", "call"),
    ("MCP 请求", "MCP 客户端 → 服务", "call"),
    ("服务检查并执行", "工具服务", "execution"),
    ("结果先回应用", "服务 → 应用", "execution"),
    ("对应回 call_id", "应用", "feedback"),
    ("新反馈进入模型", "应用 → 模型接口", "feedback"),
    ("应用呈现回答", "应用 → 用户", "feedback"),
)
_CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫"


def loop_diagram() -> Diagram:
    """The eleven numbered steps of one call, registration to answer, coloured by chain step."""
    g = digraph("loop", rankdir="TB", nodesep="0.35", ranksep="0.45", pad="0.2")
    rows = [(0, 1, 2, 3), (7, 6, 5, 4), (8, 9, 10)]
    for i, (what, who, step) in enumerate(LOOP_STEPS):
        colour = step_colour(step)
        box(
            g,
            f"s{i + 1}",
            f"{_CIRCLED[i]} {what}\n{who}",
            fillcolor=colour + "30",
            color=colour,
            penwidth="1.6",
        )
    for row in rows:  # a snake: left to right, right to left, left to right
        same_rank(g, [f"s{i + 1}" for i in row])
    for i in range(len(LOOP_STEPS) - 1):
        a, b = i + 1, i + 2
        flat_back = any(i in r and i + 1 in r for r in rows[1:2])
        if flat_back:
            g.edge(f"s{b}", f"s{a}", dir="back")
        else:
            g.edge(f"s{a}", f"s{b}")
    # The loop closes: the feedback goes into the next model request, which chooses again.
    back = edge_label("下一次请求")
    g.edge("s10", "s4", xlabel=back, style="dashed", penwidth="1.6", constraint="false")
    with g.subgraph(name="cluster_legend") as legend:
        legend.attr("graph", label="颜色 = 链路步骤", color="#BBBBBB", fontsize="10")
        for s in glossary.STEPS:
            colour = step_colour(s)
            box(legend, f"k_{s}", glossary.STEP_ZH[s], fontsize=11, fillcolor=colour + "30", color=colour)
        same_rank(legend, [f"k_{s}" for s in glossary.STEPS])
        chain(legend, [f"k_{s}" for s in glossary.STEPS], style="invis")
    g.edge("s9", "k_declaration", style="invis")
    text = (
        "图：一次调用的闭环\n"
        + "\n".join(
            f"{i + 1:>2}. {w}（{who}）[{glossary.STEP_ZH[s]}]" for i, (w, who, s) in enumerate(LOOP_STEPS)
        )
        + "\n⑩ → ④：反馈进入下一次模型请求，模型带着反馈再选择（这就是闭环）"
    )
    return Diagram("loop", g.source, text)


# ---------------------------------------------------------------- 3. the chain
_CHAIN_SUB: Final = {
    "declaration": "tools · inputSchema",
    "call": "function_call",
    "execution": "tools/call",
    "feedback": "function_call_output",
}


def resolve_step(step: str | int | None) -> Step | None:
    """``"execution"``, ``"执行"``, ``3`` or ``"3"`` -> ``"execution"``; None stays None."""
    if step is None:
        return None
    text = str(step).strip()
    if text.isdigit() and 1 <= int(text) <= len(glossary.STEPS):
        return glossary.STEPS[int(text) - 1]
    for s in glossary.STEPS:
        if text in (s, glossary.STEP_ZH[s]):
            return s
    raise ValueError(
        f"unknown step {step!r}: use one of {', '.join(glossary.STEPS)} (声明/调用/执行/反馈, or 1-4)"
    )


def chain_diagram(step: str | int | None = None) -> Diagram:
    """声明 → 调用 → 执行 → 反馈 in one row, with ``step`` lit (for the top of each lesson)."""
    lit = resolve_step(step)
    g = digraph("chain", rankdir="LR", nodesep="0.2", ranksep="0.3", pad="0.05")
    for s in glossary.STEPS:
        on, colour = s == lit, step_colour(s)
        box(
            g,
            s,
            f"{glossary.STEP_ZH[s]}\n{_CHAIN_SUB[s]}",
            fontsize=11,
            color=colour,
            penwidth="2.4" if on else "1",
            fillcolor=colour if on else colour + "22",
            fontcolor="#FFFFFF" if on else "#333333",
        )
    chain(g, list(glossary.STEPS))
    marks = [f"[{glossary.STEP_ZH[s]}]" if s == lit else glossary.STEP_ZH[s] for s in glossary.STEPS]
    text = "图：链路 " + " → ".join(marks) + (f"（本课：{glossary.STEP_ZH[lit]}）" if lit else "")
    return Diagram("chain", g.source, text)
