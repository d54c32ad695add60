"""The head slider of lesson 09: a pure view function plus the ipywidgets control around it.

``head_view(5)`` compares the cached baseline run (head=20) with the run for head=5 and holds
everything the slider shows: the changed fields (lesson 09 shows the key-field table once, above),
the field trees of the MCP request and of the ``function_call_output`` item with the changed
fields highlighted, the MCP request as JSON text, the result text and the chain diagram; at the
baseline itself the lab stores only a note. ``head_lab()`` wires an
``IntSlider`` to it with ``observe`` and writes the view into an ``Output`` widget's
``outputs`` (no ``print``, no ``interact``), so a test can move the slider without a browser.
A head runs the chain only when it is first asked for (a status line says so while it runs);
the lab's MIME bundle carries the view at the current head as ``text/html`` beside the widget,
so GitHub, nbviewer and an HTML export show the view where JupyterLab shows the live slider.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from lessons_lib.core.display import Displayable
from lessons_lib.core.example import EXAMPLE_HEAD
from lessons_lib.core.htmltable import pre
from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, objects
from lessons_lib.core.messages import Language, language, t
from lessons_lib.core.traces import queries as q
from lessons_lib.core.traces.trace import Trace
from lessons_lib.examples.files.whatif import cached_run, compare_head, derived, has_run, notes_line_count
from lessons_lib.views.changetable import ChangeTable
from lessons_lib.views.textwidth import wrapped

if TYPE_CHECKING:
    from ipywidgets import VBox

    from lessons_lib.views.fieldtree import FieldTree

MCP_REQUEST = "mcp_request"
FEEDBACK = "function_call_output"
PAST_END = 4
"""How far the slider reaches past the file's last line (lesson 09: the feedback stops at the end)."""


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

    def trees(self) -> list[FieldTree]:
        """The two field trees with the changed fields highlighted (``lessons_lib.views.fieldtree``)."""
        from lessons_lib.views.fieldtree import field_tree

        return [
            field_tree(
                self.mcp_request,
                highlight=self.highlights[MCP_REQUEST] or None,
                title=t("widgets.tree_title", name=MCP_REQUEST, head=self.head),
            ),
            field_tree(
                self.feedback_item,
                highlight=self.highlights[FEEDBACK] or None,
                title=t("widgets.tree_title", name=FEEDBACK, head=self.head),
            ),
        ]

    def summary(self) -> str:
        """The changed fields by message and kind (``ChangeCounts.changed_line``), plus the file's end."""
        pair = f"head={self.baseline} → head={self.head}"
        return t(
            "widgets.summary", pair=pair, changed=self.table.counts().changed_line(), end=self.past_end()
        )

    def past_end(self) -> str:
        """Said when ``head`` asks for more lines than the file has: the feedback stops at its end."""
        try:
            read = self.table.row(derived("lines"), "line_count").after
        except KeyError:
            return ""
        if not isinstance(read, int) or read >= self.head:
            return ""
        return t("widgets.past_end", head=self.head, read=read)

    def feedback_caption(self) -> str:
        """``function_call_output.output，5 行`` (the lines the model receives in this run)."""
        return t("widgets.feedback_caption", name=FEEDBACK, n=len(self.result_text.splitlines()))

    def text(self) -> str:
        return "\n".join(
            [
                wrapped(t("widgets.lab", summary=self.summary())),
                "",
                self.table.changed(scope=False).text(),
                t("widgets.mcp_request_head", name=MCP_REQUEST, head=self.head),
                self.mcp_request_json,
                "",
                t("widgets.feedback", caption=self.feedback_caption()),
                self.result_text,
                "",
            ]
        )

    def html(self) -> str:
        trees = "".join(
            f'<div style="flex:1 1 24em;min-width:0">{tree.html()}</div>' for tree in self.trees()
        )
        return (
            f'<div class="lessons-headview"><p><b>{t("widgets.lab_html")}</b>{t("widgets.colon")}'
            f"{html.escape(self.summary())}</p>"
            f"{_diagram_html(self.head != self.baseline, language())}"
            f"<details><summary>{html.escape(self.table.changed().title())}</summary>"
            f"{self.table.changed(scope=False).html()}</details>"
            f'<div style="display:flex;gap:1em;flex-wrap:wrap;align-items:flex-start">{trees}</div>'
            f"<p>{html.escape(t('widgets.mcp_request', name=MCP_REQUEST))}</p>{pre(self.mcp_request_json)}"
            f"<p>{html.escape(t('widgets.feedback', caption=self.feedback_caption()))}</p>"
            f"{pre(self.result_text)}</div>"
        )

    def repr_args(self) -> str:
        return f"head={self.head}, baseline={self.baseline}, changed={sum(r.changed for r in self.table)}"


@lru_cache(maxsize=4)
def _diagram_html(changed: bool, lang: Language) -> str:
    """The chain diagram; with a change the call step is lit: the new value enters the chain there."""
    from lessons_lib.views.diagrams import chain_diagram

    # without a Graphviz renderer the bundle holds the DOT text and an install hint instead of SVG
    bundle = chain_diagram("call" if changed else None)._repr_mimebundle_()
    note = t("widgets.diagram_note") if changed else ""  # ``lang`` keys the cache: the note's language
    picture = bundle.get("image/svg+xml") or pre(bundle.get("text/plain", ""))
    return f'<div class="lessons-chain">{picture}<p>{html.escape(note)}</p></div>'


def _relative(paths: list[str], prefix: str) -> list[str]:
    return [p[len(prefix) :].lstrip(".") for p in paths if p.startswith(prefix) and p != prefix]


def head_view(head: int, baseline: int = EXAMPLE_HEAD) -> HeadView:
    """The pure view behind the slider: baseline run vs the run for ``head`` (both cached). Lesson 09."""
    table = compare_head(baseline, head)
    trace = cached_run(head)
    request = q.mcp_exchanges(trace)[0].request
    items = objects(get_in(q.model_body(trace, "request_2"), "input"))
    index, item = next(
        ((i, x) for i, x in enumerate(items) if x.get("type") == "function_call_output"), (0, {})
    )
    highlights = {
        MCP_REQUEST: table.changed_paths(MCP_REQUEST),
        FEEDBACK: _relative(table.changed_paths("request_2"), f"input[{index}]"),
    }
    return HeadView(head, baseline, table, trace, request, item, highlights)


@lru_cache(maxsize=1)
def _lab_class() -> type[VBox]:
    """A ``VBox`` with a short repr and a MIME bundle that also holds the current view's HTML."""
    import ipywidgets as widgets

    class HeadLab(widgets.VBox):
        def __repr__(self) -> str:
            return f"HeadLab(head={self.slider.value}, baseline={self.view.baseline}, max={self.slider.max})"

        def _repr_mimebundle_(self, **kwargs: object) -> dict[str, object]:
            # JupyterLab renders the widget view (its renderer ranks first); static renderers and
            # strict nbval (which skips widget views, their model ids are random) read text/html.
            bundle: dict[str, object] = super()._repr_mimebundle_(**kwargs) or {}
            low, high, head = self.slider.min, self.slider.max, self.slider.value
            if head == self.view.baseline:  # nothing changed: a stored 20-vs-20 view would say nothing
                note = t("p1b.lab_at_baseline", low=low, high=high, head=head)
                bundle["text/html"] = f'<div class="lessons-headlab"><p>{html.escape(note)}</p></div>'
                bundle["text/plain"] = f"{self!r}\n{wrapped(note)}"
                return bundle
            view: dict[str, str] = self.view._repr_mimebundle_()
            note = t("widgets.slider_note", low=low, high=high, head=head)
            bundle["text/html"] = (
                f'<div class="lessons-headlab"><p>{html.escape(note)}</p>{view["text/html"]}</div>'
            )
            bundle["text/plain"] = f"{self!r}\n{note}\n\n{view['text/plain']}"
            return bundle

    return HeadLab


def _status(head: int, fresh: bool, ran: list[int], lines: int) -> str:
    done = t("widgets.fresh") if fresh else t("widgets.cached")
    end = t("widgets.file_lines", lines=lines) if head > lines else ""
    heads = t("sep.list").join(map(str, ran))
    return t("widgets.status", head=head, end=end, done=done, heads=heads)


def head_lab(baseline: int = EXAMPLE_HEAD) -> JSON:
    """An ``IntSlider`` (head, 1 to just past the file's end) redrawing :func:`head_view`. Lesson 09.

    The returned ``VBox`` has ``.slider``, ``.status`` (what was run), ``.out`` (an ``Output``
    holding the view) and ``.view``. Building it runs only the baseline; every other head runs
    the chain once, when it is first selected, and the status line says so while it runs.
    """
    import ipywidgets as widgets

    lines = notes_line_count()
    slider = widgets.IntSlider(
        description="head", min=1, max=lines + PAST_END, value=baseline, continuous_update=False
    )
    status, out = widgets.HTML(), widgets.Output()
    box = _lab_class()([slider, status, out])
    ran: set[int] = set()

    def redraw(head: int) -> None:
        fresh = not has_run(head)
        if fresh:
            status.value = html.escape(t("widgets.running", head=head))
        view = head_view(head, baseline)
        ran.add(head)
        box.view = view
        out.outputs = ({"output_type": "display_data", "data": view._repr_mimebundle_(), "metadata": {}},)
        status.value = html.escape(_status(head, fresh, sorted(ran), lines))

    slider.observe(lambda change: redraw(int(change["new"])), names="value")
    box.slider, box.status, box.out = slider, status, out
    redraw(baseline)
    return box
