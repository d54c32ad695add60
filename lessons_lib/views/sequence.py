"""A trace as rows of a sequence diagram, with the expected messages that are missing (lesson 04).

Pure data: ``build_rows(trace_dict)`` gives the lanes (user, application, model, each service)
and one ``SeqRow`` per arrow, in order. An expected message that is not in the trace (no
``tools/call`` after a ``function_call``, no reply to an MCP request, no ``function_call_output``
in a later model request, no response to a model request) becomes a row with ``missing=True``.
``trace_diagram`` draws them with ``graphviz.Digraph``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from lessons_lib.core import apishapes, glossary
from lessons_lib.core import queries as q
from lessons_lib.core.example import ALIAS_SEPARATOR
from lessons_lib.core.trace import Trace, event_number, load_trace
from lessons_lib.core.tracetypes import Event, TraceData
from lessons_lib.views.dot import Diagram, box, chain, digraph, same_rank
from lessons_lib.views.textwidth import ems, shorten


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
        for item in q.objects(items):
            kind = item.get("type")
            if kind == "function_call" and "output" in body:
                lines += [f"function_call {item.get('name')}", f"call_id={item.get('call_id')}"]
            elif kind == "function_call_output":
                lines += ["function_call_output", f"call_id={item.get('call_id')}"]
            elif kind == "message" and "output" in body:
                lines.append("message：答复文本")
        if "input" in body and len(lines) == 1:
            lines.append("input：任务 + tools 声明" if body.get("tools") else "input：任务")
        return "\n".join(lines)
    if "method" in body:
        head = f"{event_number(e)} {body['method']}" + (f" · id={body['id']}" if "id" in body else "（通知）")
        if body["method"] == "tools/call":
            name, arguments = q.get_in(body, "params", "name"), q.get_in(body, "params", "arguments")
            return f"{head}\n{name} {_short(arguments, 26)}"
        return head
    head = f"{event_number(e)} {label} 的结果 · id={body.get('id')}"
    if "error" in body:
        return f"{head}\nerror {_short(body['error'], 24)}"
    result = body.get("result")
    if isinstance(result, dict) and "isError" in result:
        return f"{head}\nisError={json.dumps(result['isError'])}"
    return head


def build_rows(data: TraceData) -> tuple[list[str], list[SeqRow]]:
    """The lanes and the arrows of a trace, with a ``missing`` row for each expected message not there."""
    from lessons_lib.checks.apiview import api_of, responses_trace

    api = api_of(data)
    if api != "responses":  # Chat / Anthropic (lesson 20): the same rules on the Responses view
        from lessons_lib.views.apiviews import native_rows

        lanes, rows = build_rows(responses_trace(dict(data), api))  # type: ignore[arg-type]
        return lanes, native_rows(rows, data, api)
    events = data["events"]
    lanes = ["user", "application", "model"]
    for name in [t["service"] for t in data["tools"]] + [x for e in events for x in (e["from"], e["to"])]:
        if name and name not in lanes:
            lanes.append(name)
    after: dict[int, list[SeqRow]] = {}  # event index -> missing rows drawn after it
    replies: dict[int, list[SeqRow]] = {}  # missing replies come before missing feedback
    services = lanes[3:] or ["service"]
    exchanges = q.mcp_exchanges(data, method=None)  # every request, paired by service + JSON-RPC id
    for x in exchanges:
        if x.reply is None:
            e = events[x.request_at]
            text = f"缺失：{x.request.get('method')} 的结果\nid={x.id}"
            replies.setdefault(x.request_at, []).append(SeqRow(e["to"], e["from"], text, True))
    model_at = [i for i, e in enumerate(events) if e["channel"] == "model"]
    api = q.model_api(data)
    for i in model_at:
        e, body = events[i], events[i]["body"]
        later = [j for j in model_at if j > i]
        if "input" in body and (not later or "input" in events[later[0]]["body"]):
            missing = e["label"].replace("request", "response")
            after.setdefault(i, []).append(SeqRow("model", "application", f"缺失：{missing}", True))
        if "output" not in body:
            continue
        for call in q.tool_calls(body, api):
            link = q.link_for(data, call.call_id)
            service = (link["service"] if link else None) or str(call.name or "").split(ALIAS_SEPARATOR)[0]
            service = service if service in lanes else services[0]
            exchange = q.exchange_for(data, call.call_id)
            if exchange is None:
                text = f"缺失：tools/call\ncall_id={call.call_id} 没有对应的 MCP 请求"
                after.setdefault(i, []).append(SeqRow("application", service, text, True))
            fed = any(apishapes.feedback_for(events[j]["body"], call.call_id, api) for j in later)
            if not fed:
                where = i if exchange is None else (exchange.reply_at or exchange.request_at)
                text = "function_call_output" if later else "下一次模型请求（function_call_output）"
                after.setdefault(where, []).append(
                    SeqRow("application", "model", f"缺失：{text}\ncall_id={call.call_id}", True)
                )
    rows = [SeqRow("user", "application", f"任务\n{_short(data['task'], 18)}")]
    for i, e in enumerate(events):
        rows.append(SeqRow(e["from"], e["to"], _event_label(e)))
        rows += replies.get(i, []) + after.get(i, [])
    if data.get("answer"):
        rows.append(SeqRow("application", "user", f"呈现答复\n{_short(data['answer'], 18)}"))
    elif not any(r.missing for r in rows):
        reason = (data.get("outcome") or {}).get("status", "")
        rows.append(SeqRow("application", "user", f"缺失：呈现答复\noutcome: {reason}", True))
    return lanes, rows


# ---------------------------------------------------------------- drawing the rows
def trace_diagram(trace: Trace | TraceData | str | Path) -> Diagram:
    """Every message of a run in order, lanes user / application / model / services (lesson 04).

    Accepts a ``Trace``, its dict or a trace file (read through ``load_trace``: a malformed
    trace is refused with one line). Arrows carry ``call_id`` and MCP ``id``; an expected
    message that is missing is drawn as a red dashed link labelled 缺失.
    """
    from lessons_lib.views.diagrams import MISSING_COLOUR

    data = _trace_dict(trace)
    lanes, rows = build_rows(data)
    a = glossary.ACTOR_ZH
    model = data["model"]
    titles = {
        "user": a["user"],
        "application": f"{a['application']}\n（含 MCP 客户端）",
        "model": f"{a['model']}\n{model.get('name', '')}"
        + ("（离线替身）" if model.get("mode") == "offline" else ""),
    }
    g = digraph("trace", rankdir="TB", nodesep="0.12", ranksep="0.18", pad="0.2", splines="line")
    for j, lane in enumerate(lanes):
        box(g, f"h{j}", titles.get(lane, f"{a['service']}\n{lane}"), fillcolor="#F2F2F2")
    heads = [f"h{j}" for j in range(len(lanes))]
    same_rank(g, heads)
    chain(g, heads, style="invis")
    for i, row in enumerate(rows):
        pts = [f"p{i}_{j}" for j in range(len(lanes))]
        for p in pts:
            g.node(p, "", shape="point", width="0.04", color="#999999")
        src, dst = lanes.index(row.sender), lanes.index(row.receiver)
        lo, hi = min(src, dst), max(src, dst)
        colour = MISSING_COLOUR if row.missing else "#222222"
        box(
            g,
            f"m{i}",
            row.label,
            fontsize=10,
            shape="plaintext",
            style="filled",
            fillcolor="#FFFFFF",
            fontcolor=colour,
            pad=(0.7, 0.08),
        )
        same_rank(g, [*pts, f"m{i}"])
        chain(g, pts, style="invis")
        style, head = ("dashed", "tee") if row.missing else ("solid", "normal")
        g.edge(
            pts[lo], f"m{i}", color=colour, style=style, dir="back" if dst < src else "none", arrowtail=head
        )
        g.edge(
            f"m{i}",
            pts[hi],
            color=colour,
            style=style,
            dir="forward" if dst > src else "none",
            arrowhead=head,
        )
    for j in range(len(lanes)):
        chain(
            g,
            [f"h{j}", *(f"p{i}_{j}" for i in range(len(rows)))],
            arrowhead="none",
            style="dashed",
            color="#BBBBBB",
            weight="100",
        )
    zh = {lane: titles.get(lane, f"{a['service']} {lane}").split("\n")[0] for lane in lanes}
    text = "图：运行记录的时序\n" + "\n".join(
        f"{i + 1:>2}. {zh[r.sender]} → {zh[r.receiver]}：{r.label.replace(chr(10), ' ')}"
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
