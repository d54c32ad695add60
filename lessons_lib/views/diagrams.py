"""The course diagrams: who talks to whom, the closed loop and the chain. Lesson 01.

Each function returns a :class:`~lessons_lib.views.dot.Diagram`: DOT text built with
``graphviz.Digraph``, drawn only when displayed. Labels come from the message catalogue
(``lessons_lib.core.messages``: Chinese or English, the notebook's language); colours from
``lessons_lib.core.glossary``. Nodes are sized from their labels (``lessons_lib.views.textwidth``)
so that no renderer clips Chinese text. A trace as a sequence is ``lessons_lib.views.sequence``.
"""

from __future__ import annotations

from typing import Final

from lessons_lib.core import glossary
from lessons_lib.core.glossary import Step, actor_name, step_name
from lessons_lib.core.messages import catalogue, t, zh
from lessons_lib.views.dot import Diagram, box, chain, digraph, edge_label, same_rank

MISSING_COLOUR: Final = "#D00000"  # red: the one colour that means "expected but missing"


def step_colour(step: Step) -> str:
    """A step's colour (``glossary.STEP_COLOURS``): never the colour of a kind of field."""
    return glossary.STEP_COLOURS[step]


# ---------------------------------------------------------------- 1. who talks to whom
def actors_diagram() -> Diagram:
    """User, application (with its MCP client), model API and file service; two separate conversations."""
    a = {k: actor_name(k) for k in glossary.ACTOR_ZH}
    g = digraph("actors", rankdir="LR", nodesep="0.5", ranksep="0.8", pad="0.2")
    box(g, "user", a["user"], fillcolor="#F2F2F2")
    with g.subgraph(name="cluster_app") as app:
        app.attr(
            "graph",
            label=t("diagram.actors.app_cluster", application=a["application"]),
            style="rounded",
            color="#7F7F7F",
        )
        box(app, "app", t("diagram.actors.loop", application=a["application"]))
        box(app, "client", a["mcp_client"])
        same_rank(app, ["app", "client"])
    box(g, "model", f"{a['model']}\nOpenAI Responses")
    box(g, "fs", t("diagram.actors.service", service=a["service"]))
    note = t("diagram.actors.note")
    box(g, "note", note, shape="note", style="filled", fillcolor="#FFF8E0", fontsize=11)
    conv = {"penwidth": "1.6"}
    edges: list[tuple[str, str, str, dict[str, str]]] = [
        ("user", "app", "task", {}),
        ("app", "user", "answer", {}),
        ("app", "model", "request", conv),
        ("model", "app", "response", conv),
        ("app", "client", "route", {"dir": "both", "style": "dotted"}),
        ("client", "fs", "mcp", {**conv, "style": "dashed"}),
        ("fs", "client", "result", {**conv, "style": "dashed"}),
    ]
    for tail, head, key, kw in edges:
        g.edge(tail, head, edge_label(t(f"diagram.actors.edge.{key}")), **kw)
    same_rank(g, ["model", "fs", "note"])
    g.edge("model", "note", style="invis")
    return Diagram("actors", g.source, t("diagram.actors.text"))


# ---------------------------------------------------------------- 2. the closed loop
_LOOP_STEP_OF: Final[tuple[Step, ...]] = (
    *("declaration",) * 3,
    *("call",) * 3,
    *("execution",) * 2,
    *("feedback",) * 3,
)


def loop_steps() -> tuple[tuple[str, str, Step], ...]:
    """The loop's eleven steps as (what, who, chain step), in the current language."""
    return tuple(
        (t(f"diagram.loop.{i}"), t(f"diagram.loop.{i}.who"), s) for i, s in enumerate(_LOOP_STEP_OF, 1)
    )


LOOP_STEPS: Final = tuple(
    (zh(f"diagram.loop.{i}"), zh(f"diagram.loop.{i}.who"), s) for i, s in enumerate(_LOOP_STEP_OF, 1)
)
"""The steps in Chinese (lesson 01's figure as the Chinese edition draws it)."""
_CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫"


def loop_diagram() -> Diagram:
    """The eleven numbered steps of one call, registration to answer, coloured by chain step."""
    g = digraph("loop", rankdir="TB", nodesep="0.35", ranksep="0.45", pad="0.2")
    rows = [(0, 1, 2, 3), (7, 6, 5, 4), (8, 9, 10)]
    steps = loop_steps()
    for i, (what, who, step) in enumerate(steps):
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
    for i in range(len(steps) - 1):
        a, b = i + 1, i + 2
        flat_back = any(i in r and i + 1 in r for r in rows[1:2])
        if flat_back:
            g.edge(f"s{b}", f"s{a}", dir="back")
        else:
            g.edge(f"s{a}", f"s{b}")
    # The loop closes: the feedback goes into the next model request, which chooses again.
    back = edge_label(t("diagram.loop.next_request"))
    g.edge("s10", "s4", xlabel=back, style="dashed", penwidth="1.6", constraint="false")
    with g.subgraph(name="cluster_legend") as legend:
        legend.attr("graph", label=t("diagram.loop.legend"), color="#BBBBBB", fontsize="10")
        for s in glossary.STEPS:
            colour = step_colour(s)
            box(legend, f"k_{s}", step_name(s), fontsize=11, fillcolor=colour + "30", color=colour)
        same_rank(legend, [f"k_{s}" for s in glossary.STEPS])
        chain(legend, [f"k_{s}" for s in glossary.STEPS], style="invis")
    g.edge("s9", "k_declaration", style="invis")
    lines = [
        t("diagram.loop.line", n=i, what=w, who=who, step=step_name(s))
        for i, (w, who, s) in enumerate(steps, 1)
    ]
    text = "\n".join([t("diagram.loop.title"), *lines, t("diagram.loop.closes")])
    return Diagram("loop", g.source, text)


# ---------------------------------------------------------------- 3. the chain
_CHAIN_SUB: Final = {
    "declaration": "tools · inputSchema",
    "call": "function_call",
    "execution": "tools/call",
    "feedback": "function_call_output",
}


def resolve_step(step: str | int | None) -> Step | None:
    """``"execution"``, its name in either language, ``3`` or ``"3"`` -> ``"execution"``; None stays None."""
    if step is None:
        return None
    text = str(step).strip()
    if text.isdigit() and 1 <= int(text) <= len(glossary.STEPS):
        return glossary.STEPS[int(text) - 1]
    for s in glossary.STEPS:
        if text in (s, *(catalogue()[f"step.{s}"].values())):
            return s
    raise ValueError(
        f"unknown step {step!r}: use one of {', '.join(glossary.STEPS)} "
        f"({'/'.join(zh(f'step.{s}') for s in glossary.STEPS)}, or 1-4)"
    )


def chain_diagram(step: str | int | None = None) -> Diagram:
    """declaration → call → execution → feedback in one row, ``step`` lit (the top of each lesson)."""
    lit = resolve_step(step)
    g = digraph("chain", rankdir="LR", nodesep="0.2", ranksep="0.3", pad="0.05")
    for s in glossary.STEPS:
        on, colour = s == lit, step_colour(s)
        box(
            g,
            s,
            f"{step_name(s)}\n{_CHAIN_SUB[s]}",
            fontsize=11,
            color=colour,
            penwidth="2.4" if on else "1",
            fillcolor=colour if on else colour + "22",
            fontcolor="#FFFFFF" if on else "#333333",
        )
    chain(g, list(glossary.STEPS))
    marks = [f"[{step_name(s)}]" if s == lit else step_name(s) for s in glossary.STEPS]
    text = t("diagram.chain.title", marks=" → ".join(marks))
    text += t("diagram.chain.lit", step=step_name(lit)) if lit else ""
    return Diagram("chain", g.source, text)
