"""A trace as rows of a sequence diagram, with the expected messages that are missing (lesson 04).

Pure data: ``build_rows(trace_dict)`` gives the lanes (user, model, application, each service)
and one ``SeqRow`` per arrow, in order. An expected message that is not in the trace (no
``tools/call`` after a ``function_call``, no reply to an MCP request, no ``function_call_output``
in a later model request, no response to a model request) becomes a row with ``missing=True``.
``trace_diagram`` draws them with ``graphviz.Digraph``: the model's column on the left, the
application in the middle and the services on the right, so an MCP frame never passes the
model's lifeline (lessons 04 and 05: the model and the service never talk).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from lessons_lib.core import glossary
from lessons_lib.core.example import ALIAS_SEPARATOR
from lessons_lib.core.jsonvalue import get_in, objects
from lessons_lib.core.messages import t
from lessons_lib.core.plugins import apishapes
from lessons_lib.core.plugins.apiregistry import is_reference
from lessons_lib.core.plugins.apishapes import tool_calls
from lessons_lib.core.traces import queries as q
from lessons_lib.core.traces.trace import Trace, event_number, load_trace
from lessons_lib.core.traces.tracetypes import Event, TraceData
from lessons_lib.views.dot import Diagram, box, chain, digraph, same_rank
from lessons_lib.views.textwidth import ems, shorten, wrap

if TYPE_CHECKING:
    from graphviz import Digraph

LABEL_EM = 15  # widest line of an arrow's label, in ems: the diagram stays within 1,000 px
LABEL_PT = 9  # its font size (the lane heads keep 12)


@dataclass(frozen=True)
class SeqRow:
    """One arrow of the sequence: a message, or an expected message that is missing."""

    sender: str
    receiver: str
    label: str
    missing: bool = False


def _short(text: object, em: float) -> str:
    """The first line of ``text`` cut to about ``em`` ems."""
    s = text if isinstance(text, str) else json.dumps(text, ensure_ascii=False)
    s = next((ln for ln in s.splitlines() if ln.strip()), "")
    return shorten(s, em, room=0, measure=ems)


def _event_label(e: Event) -> str:
    body, label = e["body"], e["label"]
    head = f"{event_number(e)} {label}"
    if e.get("channel") == "model":
        items = body.get("input") if "input" in body else body.get("output")
        lines = [head]
        for item in objects(items):
            kind = item.get("type")
            if kind == "function_call" and "output" in body:
                lines += [f"function_call {item.get('name')}", f"call_id={item.get('call_id')}"]
            elif kind == "function_call_output":
                lines += ["function_call_output", f"call_id={item.get('call_id')}"]
            elif kind == "message" and "output" in body:
                lines.append(t("sequence.answer_text"))
        if "input" in body and len(lines) == 1:
            lines.append(t("sequence.input_tools") if body.get("tools") else t("sequence.input_task"))
        return "\n".join(lines)
    if "method" in body:  # a request: "· id=N" on its first line; a notification has no id
        head = f"{event_number(e)} " + (
            f"{body['method']} · id={body['id']}" if "id" in body else t("sequence.notification")
        )
        if "id" not in body:
            return f"{head}\n{body['method']}"
        if body["method"] == "tools/call":
            name, arguments = get_in(body, "params", "name"), get_in(body, "params", "arguments")
            return f"{head}\n{name}\n{_short(arguments, 2 * LABEL_EM)}"
        return head
    head, rid = (
        t("sequence.result_of", number=event_number(e), label=label),
        f"id={body.get('id')}",
    )  # a reply: the id below
    if "error" in body:
        return f"{head}\n{rid} · error\n{_short(body['error'], 2 * LABEL_EM)}"
    result = body.get("result")
    if isinstance(result, dict) and "isError" in result:
        return f"{head}\n{rid} · isError={json.dumps(result['isError'])}"
    return f"{head}\n{rid}"


def build_rows(data: TraceData) -> tuple[list[str], list[SeqRow]]:
    """The lanes and the arrows of a trace, with a ``missing`` row for each expected message not there."""
    from lessons_lib.checks.apis.view import api_of, responses_trace

    api = api_of(data)
    if not is_reference(api):  # Chat / Anthropic (lesson 20): the same rules on the Responses view
        from lessons_lib.views.apiviews import native_rows

        lanes, rows = build_rows(responses_trace(dict(data), api))  # type: ignore[arg-type]
        return lanes, native_rows(rows, data, api)
    events = data["events"]
    lanes = ["user", "model", "application"]  # the order drawn: model | application | services
    for name in [tool["service"] for tool in data["tools"]] + [
        x for e in events for x in (e["from"], e["to"])
    ]:
        if name and name not in lanes:
            lanes.append(name)
    after: dict[int, list[SeqRow]] = {}  # event index -> missing rows drawn after it
    replies: dict[int, list[SeqRow]] = {}  # missing replies come before missing feedback
    services = lanes[3:] or ["service"]
    exchanges = q.mcp_exchanges(data, method=None)  # every request, paired by service + JSON-RPC id
    for x in exchanges:
        if x.reply is None:
            e = events[x.request_at]
            text = t("sequence.missing_result", method=x.request.get("method"), id=x.id)
            replies.setdefault(x.request_at, []).append(SeqRow(e["to"], e["from"], text, True))
    model_at = [i for i, e in enumerate(events) if e["channel"] == "model"]
    api = q.model_api(data)
    for i in model_at:
        e, body = events[i], events[i]["body"]
        later = [j for j in model_at if j > i]
        if "input" in body and (not later or "input" in events[later[0]]["body"]):
            missing = e["label"].replace("request", "response")
            after.setdefault(i, []).append(
                SeqRow("model", "application", t("sequence.missing", what=missing), True)
            )
        if "output" not in body:
            continue
        for call in tool_calls(body, api):
            record = q.call_record(data, call.call_id)
            service = (record["service"] if record else None) or str(call.name or "").split(ALIAS_SEPARATOR)[
                0
            ]
            service = service if service in lanes else services[0]
            exchange = q.exchange_for(data, call.call_id)
            if exchange is None:
                text = t("sequence.missing_call", call_id=call.call_id)
                after.setdefault(i, []).append(SeqRow("application", service, text, True))
            fed = any(apishapes.feedback_for(events[j]["body"], call.call_id, api) for j in later)
            if not fed:
                where = i if exchange is None else (exchange.reply_at or exchange.request_at)
                text = "function_call_output" if later else t("sequence.next_request")
                after.setdefault(where, []).append(
                    SeqRow(
                        "application",
                        "model",
                        t("sequence.missing_fed", what=text, call_id=call.call_id),
                        True,
                    )
                )
    rows = [SeqRow("user", "application", t("sequence.task", task=_short(data["task"], 2 * LABEL_EM)))]
    for i, e in enumerate(events):
        rows.append(SeqRow(e["from"], e["to"], _event_label(e)))
        rows += replies.get(i, []) + after.get(i, [])
    if data.get("answer"):
        rows.append(
            SeqRow("application", "user", t("sequence.answer", answer=_short(data["answer"], 2 * LABEL_EM)))
        )
    elif not any(r.missing for r in rows):
        reason = (data.get("outcome") or {}).get("status", "")
        rows.append(SeqRow("application", "user", t("sequence.missing_answer", reason=reason), True))
    return lanes, rows


# ---------------------------------------------------------------- drawing the rows
def channel(row: SeqRow) -> str:
    """``"user"``, ``"model"`` or ``"mcp"``: which conversation an arrow belongs to (its SVG class)."""
    ends = {row.sender, row.receiver}
    return "user" if "user" in ends else "model" if "model" in ends else "mcp"


def _tag(g: Digraph, node: str, id_: str, css: str) -> None:
    """Give a drawn node an SVG ``id`` and ``class`` (a second statement: ``box`` took the rest)."""
    g.node(node, _attributes={"id": id_, "class": css})


def _label(text: str) -> str:
    """Each line of an arrow's label wrapped to ``LABEL_EM`` (the one text-width rule)."""
    return "\n".join(part for line in text.split("\n") for part in wrap(line, LABEL_EM))


def _arrow(g: Digraph, i: int, row: SeqRow, ends: tuple[str, str], forward: bool) -> None:
    """A message as two edges through its label node ``m{i}``; ``forward``: drawn tail to head."""
    from lessons_lib.views.diagrams import MISSING_COLOUR

    colour = MISSING_COLOUR if row.missing else "#222222"
    box(g, f"m{i}", _label(row.label), fontsize=LABEL_PT, shape="plaintext", style="filled",
        fillcolor="#FFFFFF", fontcolor=colour, pad=(0.25, 0.08))  # fmt: skip
    style, head = ("dashed", "tee") if row.missing else ("solid", "normal")
    css = {"class": f"seq-arrow seq-{channel(row)}", "color": colour, "style": style}
    back = {"dir": "none"} if forward else {"dir": "back", "arrowtail": head}
    g.edge(ends[0], f"m{i}", id=f"seq-r{i}-a", **css, **back)
    ahead = {"dir": "forward", "arrowhead": head} if forward else {"dir": "none"}
    g.edge(f"m{i}", ends[1], id=f"seq-r{i}-b", **css, **ahead)


def trace_diagram(trace: Trace | TraceData | str | Path) -> Diagram:
    """Every message of a run in order: columns model | application | services (lessons 04, 05).

    The user stands above and below the application's column (task in, answer out), so no
    arrow passes a lifeline it does not belong to. Accepts a ``Trace``, its dict or a trace file
    (read through ``load_trace``: a malformed trace is refused with one line). Arrows carry
    ``call_id`` and MCP ``id``, and the SVG classes ``seq-arrow seq-model|seq-mcp|seq-user``
    (lane heads: ``seq-lane seq-model|seq-application|seq-service``); an expected message that is
    missing is drawn as a red dashed link labelled 缺失 (missing).
    """
    data = _trace_dict(trace)
    lanes, rows = build_rows(data)
    columns = [lane for lane in lanes if lane != "user"]
    app = columns.index("application")
    a = {actor: glossary.actor_name(actor) for actor in ("user", "application", "model", "service")}
    model = data["model"]
    titles = {
        "application": t("sequence.application", application=a["application"]),
        "model": f"{a['model']}\n{model.get('name', '')}"
        + (t("sequence.offline") if model.get("mode") == "offline" else ""),
    }
    g = digraph("trace", rankdir="TB", nodesep="0.08", ranksep="0.18", pad="0.05", splines="line")
    for j, lane in enumerate(columns):
        kind = lane if lane in titles else "service"
        title = titles.get(lane, f"{a['service']}\n{lane}")
        box(g, f"h{j}", title, fillcolor="#F2F2F2")
        _tag(g, f"h{j}", f"seq-lane-{j}", f"seq-lane seq-{kind}")
    heads = [f"h{j}" for j in range(len(columns))]
    same_rank(g, heads)
    chain(g, heads, style="invis")
    middle = [i for i, row in enumerate(rows) if channel(row) != "user"]
    if rows and channel(rows[0]) == "user":  # the task comes down into the application's header
        box(g, "u_top", a["user"], fillcolor="#F2F2F2")
        _tag(g, "u_top", "seq-user-top", "seq-user")
        _arrow(g, 0, rows[0], ("u_top", heads[app]), forward=True)
    for i in middle:
        row = rows[i]
        pts = [f"p{i}_{j}" for j in range(len(columns))]
        for p in pts:
            g.node(p, "", shape="point", width="0.04", color="#999999")
        src, dst = columns.index(row.sender), columns.index(row.receiver)
        lo, hi = min(src, dst), max(src, dst)
        _arrow(g, i, row, (pts[lo], pts[hi]), forward=dst > src)
        same_rank(g, [*pts, f"m{i}"])
        chain(g, pts, style="invis")
    last = f"p{middle[-1]}_{app}" if middle else heads[app]
    bottom = [i for i, row in enumerate(rows) if i > 0 and channel(row) == "user"]
    if bottom:  # the answer goes down from the application's lifeline to the user
        box(g, "u_bottom", a["user"], fillcolor="#F2F2F2")
        _tag(g, "u_bottom", "seq-user-bottom", "seq-user")
    for i in bottom:
        _arrow(g, i, rows[i], (last, "u_bottom"), forward=True)
    for j in range(len(columns)):
        chain(g, [f"h{j}", *(f"p{i}_{j}" for i in middle)], arrowhead="none", style="dashed",
              color="#BBBBBB", weight="100", **{"class": "seq-lifeline"})  # fmt: skip
    zh = {lane: titles.get(lane, f"{a['service']} {lane}").split("\n")[0] for lane in columns}
    zh["user"] = a["user"]
    order = " | ".join(zh[lane] for lane in columns)
    text = t("sequence.caption", order=order, user=a["user"], application=zh["application"]) + "\n".join(
        t(
            "sequence.row",
            n=f"{i + 1:>2}",
            sender=zh[r.sender],
            receiver=zh[r.receiver],
            label=r.label.replace(chr(10), " "),
        )
        for i, r in enumerate(rows)
    )
    return Diagram("trace", g.source, text)


def _trace_dict(trace: Trace | TraceData | str | Path) -> TraceData:
    if isinstance(trace, Trace):
        return trace.to_dict()
    if isinstance(trace, str | Path):
        return load_trace(trace).to_dict()
    if isinstance(trace, dict):
        return Trace.from_dict(trace).to_dict()
    raise ValueError(f"trace_diagram needs a Trace, its dict or a trace file, not a {type(trace).__name__}")
