"""The course diagrams: who talks to whom, the closed loop, the chain, and a trace as a sequence.

Introduced in lesson 01 (actors, loop, chain) and lesson 04 (trace). Each function returns a
``Diagram``: an object holding DOT text, drawn only when displayed (``lessons_lib.views.dot``).
Labels are Chinese; colours come from ``lessons_lib.core.glossary``. Nodes are sized from their
labels (a CJK character ~1 em, others ~0.55 em) so that no renderer clips Chinese text.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Final

from lessons_lib.core import glossary
from lessons_lib.core.glossary import Kind, Step
from lessons_lib.core.tracetypes import TraceData
from lessons_lib.views.dot import INSTALL_HINT, RendererMissing, render_svg
from lessons_lib.views.textwidth import ems, is_wide

FONT: Final = "Noto Sans CJK SC,WenQuanYi Micro Hei,sans-serif"
MISSING_COLOUR: Final = "#D00000"  # red: the one colour that means "expected but missing"
_STEP_KIND: Final[dict[Step, Kind]] = {
    "declaration": "rule",
    "call": "value",
    "execution": "result",
    "feedback": "identifier",
}


def step_colour(step: Step) -> str:
    """A step's colour: ``glossary.STEP_COLOURS`` if defined, else the colour of its kind of object."""
    table = getattr(glossary, "STEP_COLOURS", None)
    if isinstance(table, dict) and step in table:
        return str(table[step])
    return glossary.KINDS[_STEP_KIND[step]].colour


def _q(text: str) -> str:
    """A DOT double-quoted string (labels use \\n for line breaks)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _attrs(**kw: Any) -> str:
    return ", ".join(f"{k}={_q(str(v))}" for k, v in kw.items() if v is not None)


def _box(
    name: str, label: str, fontsize: float = 12, pad: tuple[float, float] = (0.32, 0.22), **kw: Any
) -> str:
    """A node sized from its label so CJK text fits whatever the renderer measures."""
    lines = label.split("\n")
    width = max(ems(ln) for ln in lines) * fontsize / 72 + pad[0]
    height = len(lines) * fontsize * 1.3 / 72 + pad[1]
    fs = None if fontsize == 12 else fontsize
    size = _attrs(
        label=label, fontsize=fs, width=f"{width:.2f}", height=f"{height:.2f}", fixedsize="false", **kw
    )
    return f"  {name} [{size}];"


def _pad(label: str) -> str:
    """Pad an edge label with spaces: renderers without CJK metrics count a CJK glyph as a space."""
    out = []
    for line in label.split("\n"):
        n = math.ceil((3 * sum(map(is_wide, line)) + 0.4 * sum(not is_wide(c) for c in line)) / 2)
        out.append(" " * n + line + " " * n)
    return "\n".join(out)


def _graph(name: str, body: list[str], **graph: Any) -> str:
    node = _attrs(fontname=FONT, fontsize=12, shape="box", style="rounded,filled", fillcolor="white")
    head = [
        f"digraph {name} {{",
        f"  graph [{_attrs(fontname=FONT, **graph)}];",
        f"  node [{node}];",
        f"  edge [{_attrs(fontname=FONT, fontsize=10, color='#444444')}];",
    ]
    return "\n".join([*head, *body, "}"]) + "\n"


class Diagram:
    """A diagram as DOT text; drawn as SVG only when displayed or saved (lesson 01)."""

    def __init__(self, name: str, source: str, description: str) -> None:
        self.name = name
        self.source = source
        self.description = description

    def svg(self) -> str:
        """The drawing as SVG text (byte-stable); raises ``RendererMissing`` without Graphviz."""
        return render_svg(self.source)

    def save(self, path: str | Path) -> Path:
        """Write ``.svg`` (drawn) or ``.dot``/``.gv`` (the DOT text) and return the path."""
        p = Path(path)
        p.write_text(self.source if p.suffix in {".dot", ".gv"} else self.svg(), encoding="utf-8")
        return p

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **kw: Any) -> dict[str, str]:
        try:
            return {"image/svg+xml": self.svg(), "text/plain": self.description}
        except RendererMissing:
            return {"text/plain": f"{self.source}\n{INSTALL_HINT}"}

    def __repr__(self) -> str:
        return f"Diagram({self.name!r}, {self.description.splitlines()[0]!r})"


# ---------------------------------------------------------------- 1. who talks to whom
def actors_diagram() -> Diagram:
    """User, application (with its MCP client), model API and file service; two separate conversations."""
    a = glossary.ACTOR_ZH
    body = [
        _box("user", a["user"], fillcolor="#F2F2F2"),
        "  subgraph cluster_app {",
        f"    graph [{_attrs(label=a['application'] + '（同一个程序）', style='rounded', color='#7F7F7F')}];",
        "  " + _box("app", f"{a['application']}的循环\n准备输入 · 解析 · 路由 · 配对"),
        "  " + _box("client", a["mcp_client"]),
        "    {rank=same; app; client}",
        "  }",
        _box("model", f"{a['model']}\nOpenAI Responses"),
        _box("fs", f"{a['service']}（MCP）\nread_text_file"),
        _box(
            "note",
            "箭头不代表获得访问权限：\n服务仍会检查输入和允许的目录",
            shape="note",
            style="filled",
            fillcolor="#FFF8E0",
            fontsize=11,
        ),
    ]
    conv: dict[str, Any] = {"penwidth": 1.6}
    edges: list[tuple[str, str, str, dict[str, Any]]] = [
        ("user", "app", "任务", {}),
        ("app", "user", "答复", {}),
        ("app", "model", "对话一：请求\ntools + input", conv),
        ("model", "app", "响应\nfunction_call / 答复", conv),
        ("app", "client", "调用路由", {"dir": "both", "style": "dotted"}),
        ("client", "fs", "对话二：JSON-RPC\ntools/call", {**conv, "style": "dashed"}),
        ("fs", "client", "结果\ncontent / isError", {**conv, "style": "dashed"}),
    ]
    body += [f"  {a} -> {b} [{_attrs(label=_pad(text), **kw)}];" for a, b, text, kw in edges]
    body += [
        "  {rank=same; model; fs; note}",
        "  model -> note [style=invis];",
    ]
    text = (
        "图：谁和谁通信\n用户 ⇄ 应用；应用 ⇄ 模型接口（对话一：Responses）；应用内的 MCP 客户端 ⇄ 工具服务"
        "（对话二：JSON-RPC）。模型与工具服务之间没有直接连线。箭头不代表获得访问权限。"
    )
    return Diagram("actors", _graph("actors", body, rankdir="LR", nodesep=0.5, ranksep=0.8, pad=0.2), text)


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
    body, rows = [], [(0, 1, 2, 3), (7, 6, 5, 4), (8, 9, 10)]
    for i, (what, who, step) in enumerate(LOOP_STEPS):
        body.append(
            _box(
                f"s{i + 1}",
                f"{_CIRCLED[i]} {what}\n{who}",
                fillcolor=step_colour(step) + "30",
                color=step_colour(step),
                penwidth=1.6,
            )
        )
    for row in rows:  # a snake: left to right, right to left, left to right
        body.append("  {rank=same; " + "; ".join(f"s{i + 1}" for i in row) + "}")
    for i in range(len(LOOP_STEPS) - 1):
        a, b = i + 1, i + 2
        flat_back = any(i in r and i + 1 in r for r in rows[1:2])
        body.append(f"  s{b} -> s{a} [dir=back];" if flat_back else f"  s{a} -> s{b};")
    legend = [
        _box(
            f"k_{s}", glossary.STEP_ZH[s], fontsize=11, fillcolor=step_colour(s) + "30", color=step_colour(s)
        )
        for s in glossary.STEPS
    ]
    body += [
        "  subgraph cluster_legend {",
        f"    graph [{_attrs(label='颜色 = 链路步骤', color='#BBBBBB', fontsize=10)}];",
        *("  " + ln for ln in legend),
        "    {rank=same; " + "; ".join(f"k_{s}" for s in glossary.STEPS) + "}",
        "    " + " -> ".join(f"k_{s}" for s in glossary.STEPS) + " [style=invis];",
        "  }",
        "  s9 -> k_declaration [style=invis];",
    ]
    text = "图：一次调用的闭环\n" + "\n".join(
        f"{i + 1:>2}. {w}（{who}）[{glossary.STEP_ZH[s]}]" for i, (w, who, s) in enumerate(LOOP_STEPS)
    )
    return Diagram("loop", _graph("loop", body, rankdir="TB", nodesep=0.35, ranksep=0.45, pad=0.2), text)


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
    body = []
    for s in glossary.STEPS:
        on = s == lit
        label = f"{glossary.STEP_ZH[s]}\n{_CHAIN_SUB[s]}"
        body.append(
            _box(
                s,
                label,
                fontsize=11,
                color=step_colour(s),
                penwidth=2.4 if on else 1,
                fillcolor=step_colour(s) if on else step_colour(s) + "22",
                fontcolor="#FFFFFF" if on else "#333333",
            )
        )
    body.append("  " + " -> ".join(glossary.STEPS) + ";")
    marks = [f"[{glossary.STEP_ZH[s]}]" if s == lit else glossary.STEP_ZH[s] for s in glossary.STEPS]
    text = "图：链路 " + " → ".join(marks) + (f"（本课：{glossary.STEP_ZH[lit]}）" if lit else "")
    return Diagram("chain", _graph("chain", body, rankdir="LR", nodesep=0.2, ranksep=0.3, pad=0.05), text)


# ---------------------------------------------------------------- 4. a trace as a sequence
def trace_diagram(trace: Any) -> Diagram:
    """Every message of a run in order, lanes user / application / model / services (lesson 04).

    Accepts a ``Trace``, its dict or a trace file. Arrows carry ``call_id`` and MCP ``id``;
    an expected message that is missing is drawn as a red dashed link labelled 缺失.
    """
    from lessons_lib.views.sequence import build_rows

    data = _trace_dict(trace)
    lanes, rows = build_rows(data)
    a = glossary.ACTOR_ZH
    model = data.get("model") or {}
    titles = {
        "user": a["user"],
        "application": f"{a['application']}\n（含 MCP 客户端）",
        "model": f"{a['model']}\n{model.get('name', '')}"
        + ("（离线替身）" if model.get("mode") == "offline" else ""),
    }
    body = [
        _box(f"h{j}", titles.get(lane, f"{a['service']}\n{lane}"), fillcolor="#F2F2F2")
        for j, lane in enumerate(lanes)
    ]
    body.append("  {rank=same; " + "; ".join(f"h{j}" for j in range(len(lanes))) + "}")
    body.append("  " + " -> ".join(f"h{j}" for j in range(len(lanes))) + " [style=invis];")
    for i, row in enumerate(rows):
        pts = [f"p{i}_{j}" for j in range(len(lanes))]
        body += [f'  {p} [shape=point, width=0.04, color="#999999", label=""];' for p in pts]
        src, dst = lanes.index(row.sender), lanes.index(row.receiver)
        lo, hi = min(src, dst), max(src, dst)
        colour = MISSING_COLOUR if row.missing else "#222222"
        body.append(
            _box(
                f"m{i}",
                row.label,
                fontsize=10,
                shape="plaintext",
                style="filled",
                fillcolor="#FFFFFF",
                fontcolor=colour,
                pad=(0.7, 0.08),
            )
        )
        body.append("  {rank=same; " + "; ".join([*pts, f"m{i}"]) + "}")
        body.append("  " + " -> ".join(pts) + " [style=invis];")
        style = "dashed" if row.missing else "solid"
        head = "tee" if row.missing else "normal"
        leftward = _attrs(color=colour, style=style, dir="back" if dst < src else "none", arrowtail=head)
        rightward = _attrs(color=colour, style=style, dir="forward" if dst > src else "none", arrowhead=head)
        body += [f"  {pts[lo]} -> m{i} [{leftward}];", f"  m{i} -> {pts[hi]} [{rightward}];"]
    for j in range(len(lanes)):
        chain = [f"h{j}", *(f"p{i}_{j}" for i in range(len(rows)))]
        body.append(
            "  " + " -> ".join(chain) + ' [arrowhead=none, style=dashed, color="#BBBBBB", weight=100];'
        )
    zh = {lane: titles.get(lane, f"{a['service']} {lane}").split("\n")[0] for lane in lanes}
    text = "图：运行记录的时序\n" + "\n".join(
        f"{i + 1:>2}. {zh[r.sender]} → {zh[r.receiver]}：{r.label.replace(chr(10), ' ')}"
        for i, r in enumerate(rows)
    )
    return Diagram(
        "trace",
        _graph("trace", body, rankdir="TB", nodesep=0.12, ranksep=0.18, pad=0.2, splines="line"),
        text,
    )


def _trace_dict(trace: Any) -> TraceData:
    from lessons_lib.core.trace import Trace, load_trace

    if isinstance(trace, Trace):
        return trace.to_dict()
    if isinstance(trace, str | Path):
        return load_trace(trace).to_dict()
    if isinstance(trace, dict):
        return Trace.from_dict(trace).to_dict()
    raise ValueError(f"trace_diagram needs a Trace, its dict or a trace file, not a {type(trace).__name__}")
