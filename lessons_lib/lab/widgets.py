"""The head slider of lesson 09: a pure view function plus the ipywidgets control around it.

``head_view(5)`` compares the cached baseline run (head=20) with the run for head=5 and holds
everything the slider shows: the key-field table, the changed fields, the field trees of the MCP
request and of the ``function_call_output`` item with the changed fields highlighted, the MCP
request as JSON text, the result text and the chain diagram. ``head_lab()`` wires an
``IntSlider`` to it with ``observe`` and writes the view into an ``Output`` widget's
``outputs`` (no ``print``, no ``interact``), so a test can move the slider without a browser.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from lessons_lib.core import queries as q
from lessons_lib.core.display import Displayable
from lessons_lib.core.example import EXAMPLE_HEAD
from lessons_lib.core.glossary import STEP_ZH
from lessons_lib.core.htmltable import pre
from lessons_lib.core.jsonvalue import JSON, JSONObject
from lessons_lib.core.trace import Trace
from lessons_lib.lab.whatif import ChangeTable, cached_run, compare_head, notes_line_count

MCP_REQUEST = "mcp_request"
FEEDBACK = "function_call_output"


@dataclass(repr=False)
class HeadView(Displayable):
    """What the slider shows for one head value (all of it plain data; drawn when displayed)."""

    head: int
    baseline: int
    table: ChangeTable
    trace: Trace
    mcp_request: JSONObject
    feedback_item: JSONObject
    highlights: dict[str, list[str]] = field(default_factory=dict)

    @property
    def mcp_request_json(self) -> str:
        """The MCP ``tools/call`` request as pretty JSON (``"head": 5`` when head=5)."""
        return json.dumps(self.mcp_request, ensure_ascii=False, indent=2)

    @property
    def result_text(self) -> str:
        """The feedback text the model receives (``function_call_output.output``)."""
        return str(self.feedback_item.get("output", ""))

    @property
    def answer(self) -> str:
        return self.trace.answer or ""

    def trees(self) -> list[Any]:
        """The two field trees with the changed fields highlighted (``lessons_lib.views.fieldtree``)."""
        from lessons_lib.views.fieldtree import field_tree

        return [
            field_tree(
                self.mcp_request,
                highlight=self.highlights[MCP_REQUEST] or None,
                title=f"mcp_request（head={self.head}）",
            ),
            field_tree(
                self.feedback_item,
                highlight=self.highlights[FEEDBACK] or None,
                title=f"function_call_output（head={self.head}）",
            ),
        ]

    def summary(self) -> str:
        """One line per step: how many fields changed, e.g. ``调用 3``."""
        counts = {step: 0 for step in STEP_ZH}
        for r in self.table.rows:
            counts[r.step] += r.changed
        parts = "，".join(f"{STEP_ZH[s]} {n}" for s, n in counts.items())
        rule = sum(r.changed for r in self.table.rows if r.kind == "rule")
        same = "" if self.head != self.baseline else "（两次运行相同，没有字段改变。）"
        pair = f"head={self.baseline} → head={self.head}"
        return f"{pair}：改变的字段数 {parts}；其中规则（schema）改变 {rule} 个。{same}"

    def text(self) -> str:
        key = self.table.key()
        return "\n".join(
            [
                f"head 实验：{self.summary()}",
                "",
                key.text(),
                f"MCP 请求（{MCP_REQUEST}，head={self.head}）：",
                self.mcp_request_json,
                "",
                f"模型收到的反馈（{FEEDBACK}.output，{len(self.result_text.splitlines())} 行）：",
                self.result_text,
                "",
            ]
        )

    def html(self) -> str:
        trees = "".join(f'<div style="flex:1 1 24em;min-width:0">{t.html()}</div>' for t in self.trees())
        return (
            f'<div class="lessons-headview"><p><b>head 实验</b>：{html.escape(self.summary())}</p>'
            f"{_diagram_html(self.head != self.baseline)}"
            f"{self.table.key().html()}"
            f"<details><summary>只看改变的字段（{sum(r.changed for r in self.table.rows)} 个）</summary>"
            f"{self.table.changed().html()}</details>"
            f'<div style="display:flex;gap:1em;flex-wrap:wrap;align-items:flex-start">{trees}</div>'
            f"<p>MCP 请求（{MCP_REQUEST}）：</p>{pre(self.mcp_request_json)}"
            f"<p>模型收到的反馈（{FEEDBACK}.output）：</p>{pre(self.result_text)}</div>"
        )

    def repr_args(self) -> str:
        return f"head={self.head}, baseline={self.baseline}, changed={sum(r.changed for r in self.table)}"


@lru_cache(maxsize=2)
def _diagram_html(changed: bool) -> str:
    """The chain diagram; with a change the call step is lit: the new value enters the chain there."""
    from lessons_lib.views.diagrams import chain_diagram

    # without a Graphviz renderer the bundle holds the DOT text and an install hint instead of SVG
    bundle = chain_diagram("call" if changed else None)._repr_mimebundle_()
    note = "新值从“调用”进入链路（arguments），再经执行、反馈到达答复；声明中的规则不变。" if changed else ""
    picture = bundle.get("image/svg+xml") or pre(bundle.get("text/plain", ""))
    return f'<div class="lessons-chain">{picture}<p>{html.escape(note)}</p></div>'


def _relative(paths: list[str], prefix: str) -> list[str]:
    return [p[len(prefix) :].lstrip(".") for p in paths if p.startswith(prefix) and p != prefix]


def head_view(head: int, baseline: int = EXAMPLE_HEAD) -> HeadView:
    """The pure view behind the slider: baseline run vs the run for ``head`` (both cached). Lesson 09."""
    table = compare_head(baseline, head)
    trace = cached_run(head)
    request = q.mcp_exchanges(trace)[0].request
    items = q.objects(q.get_in(q.model_body(trace, "request_2"), "input"))
    index, item = next(
        ((i, x) for i, x in enumerate(items) if x.get("type") == "function_call_output"), (0, {})
    )
    highlights = {
        MCP_REQUEST: table.changed_paths(MCP_REQUEST),
        FEEDBACK: _relative(table.changed_paths("request_2"), f"input[{index}]"),
    }
    return HeadView(head, baseline, table, trace, request, item, highlights)


def precompute(heads: Iterable[int], baseline: int = EXAMPLE_HEAD) -> None:
    """Run the chain once for every head value now, so that moving the slider only reads caches."""
    for head in heads:
        compare_head(baseline, head)


@lru_cache(maxsize=1)
def _lab_class() -> Any:
    """A ``VBox`` with a short, stable repr (the default one would print every output it holds)."""
    import ipywidgets as widgets

    class HeadLab(widgets.VBox):
        def __repr__(self) -> str:
            return f"HeadLab(head={self.slider.value}, baseline={self.view.baseline}, max={self.slider.max})"

    return HeadLab


def head_lab(baseline: int = EXAMPLE_HEAD, *, warm: bool = True) -> JSON:
    """An ``IntSlider`` (head, 1 to the file's line count) that redraws :func:`head_view`. Lesson 09.

    The returned ``VBox`` has ``.slider``, ``.out`` (an ``Output`` holding the view) and ``.view``.
    ``warm`` runs every head value once up front (about 1-3 s) so each redraw stays far below 100 ms.
    """
    import ipywidgets as widgets

    lines = notes_line_count()
    if warm:
        precompute(range(1, lines + 1), baseline)
    slider = widgets.IntSlider(description="head", min=1, max=lines, value=baseline, continuous_update=False)
    out = widgets.Output()
    box = _lab_class()([slider, out])

    def redraw(head: int) -> None:
        view = head_view(head, baseline)
        box.view = view
        out.outputs = ({"output_type": "display_data", "data": view._repr_mimebundle_(), "metadata": {}},)

    slider.observe(lambda change: redraw(int(change["new"])), names="value")
    box.slider, box.out = slider, out
    redraw(baseline)
    return box
