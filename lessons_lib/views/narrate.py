"""One readable line per trace event, for the terminal and the lessons. Introduced in lesson 05."""

from __future__ import annotations

from collections import Counter

from lessons_lib.core.glossary import ACTOR_ZH, actor_name
from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, objects
from lessons_lib.core.messages import t
from lessons_lib.core.outcomes import outcome_text
from lessons_lib.core.plugins.apiregistry import is_reference
from lessons_lib.core.traces import queries as q
from lessons_lib.core.traces.trace import Trace, event_number
from lessons_lib.core.traces.tracetypes import Event
from lessons_lib.views.textwidth import one_line, shorten


def _who(actor: str) -> str:
    return actor_name(actor) if actor in ACTOR_ZH else t("narrate.service", name=actor)


def describe_event(event: Event) -> str:
    """E.g. ``[07] 应用 → 服务 fs  tools/call id=3 read_text_file {"path": ..., "head": 20}``."""
    raw = event.get("body")
    body: JSONObject = raw if isinstance(raw, dict) else {}
    head = f"{event_number(event)} {_who(str(event.get('from')))} → {_who(str(event.get('to')))}  "
    label = str(event.get("label"))
    if event.get("channel") == "model":
        return head + label + ": " + _model_summary(label, body)
    return head + label + " " + _mcp_summary(body)


def describe_http(event: Event) -> str | None:
    """The HTTP envelope of an MCP event that came over the network (lesson 60), as one line; else None.

    E.g. ``HTTP: POST → 200, an SSE stream · mcp-protocol-version: 2025-11-25, mcp-session-id: (session id)``.
    """
    envelope = event.get("http")
    if not isinstance(envelope, dict):
        return None
    headers = ", ".join(f"{name}: {value}" for name, value in envelope.get("headers", {}).items())
    return t(
        "net.narrate.http",
        method=envelope.get("method"),
        status=envelope.get("status"),
        stream=t(f"net.narrate.stream.{envelope.get('stream')}"),
        headers=f" · {headers}" if headers else "",
    )


def _model_summary(label: str, body: JSONObject) -> str:
    from lessons_lib.checks.apis.view import api_of_body

    api = api_of_body(body)
    if api is not None and not is_reference(api):  # lesson 20: told in that API's own words
        from lessons_lib.views.apiviews import model_summary

        return model_summary(label, body, api)
    if label.startswith("request_"):
        raw = body.get("input")
        items: list[JSON] = raw if isinstance(raw, list) else []
        kinds = [str(i.get("type", i.get("role", "?"))) for i in items if isinstance(i, dict)]
        tools = [t.get("name") for t in objects(body.get("tools"))]
        return f"input=[{', '.join(kinds)}] tools={tools} tool_choice={body.get('tool_choice')}"
    if label.startswith("response_"):
        parts = []
        for item in objects(body.get("output")):  # a live reply may hold anything
            if item.get("type") == "function_call":
                parts.append(
                    f"function_call {item.get('name')} call_id={item.get('call_id')} "
                    f"arguments={shorten(one_line(item.get('arguments')), 60)}"
                )
            elif item.get("type") == "message":
                texts = [str(c.get("text", "")) for c in objects(item.get("content"))]
                parts.append(f"message {shorten(one_line(' '.join(texts)), 60)}")
            else:
                parts.append(str(item.get("type")))
        return "; ".join(parts) or t("narrate.no_output")
    raw = body.get("error")
    error: JSONObject = raw if isinstance(raw, dict) else {}
    return t("narrate.http_error", message=shorten(one_line(error.get("message", body)), 100))


def _mcp_summary(body: JSONObject) -> str:
    rid = f"id={body['id']} " if "id" in body else ""
    if "method" in body:
        if body["method"] == "tools/call":
            name, arguments = get_in(body, "params", "name"), get_in(body, "params", "arguments")
            return f"{rid}{name} {shorten(one_line(arguments), 60)}".rstrip()
        return rid.rstrip() or t("narrate.notification")
    if "error" in body:
        code, message = get_in(body, "error", "code"), get_in(body, "error", "message")
        return f"{rid}error {code}: {shorten(one_line(message), 60)}"
    given = body.get("result")
    result: JSONObject = given if isinstance(given, dict) else {}
    if "content" in result:
        text = "\n".join(str(c.get("text", "")) for c in objects(result["content"]))
        lines = len(text.split("\n")) if text else 0
        flag = str(result.get("isError", False)).lower()
        return t("narrate.content", rid=rid, flag=flag, lines=lines, text=shorten(one_line(text), 40))
    if "tools" in result:
        return f"{rid}tools={[t.get('name') for t in objects(result['tools'])]}"
    return t("narrate.result", rid=rid)


def unsent_calls(trace: object, label: str) -> list[str]:
    """For the reply ``response_N``: one line per call of it that never reached a service.

    An alias the application cannot route is the application's failure, not the tool's: no
    ``tools/call`` frame exists for it (lesson 05). Arguments that are no JSON object stop
    the call in the application too.
    """
    if not label.startswith("response_") or not label[len("response_") :].isdigit():
        return []
    lines = []
    for call in q.calls(trace, int(label[len("response_") :])):
        record = q.call_record(trace, call.call_id)
        if record is None or record.get("mcp_id") is not None:
            continue
        if record.get("service") is None:
            lines.append(t("narrate.unrouted", name=call.name))
        else:
            lines.append(t("narrate.not_object", name=call.name))
    return lines


def narrate(trace: Trace) -> str:
    """The whole run as text: one line per message, then the outcome and the answer."""
    model = t("narrate.model", label=trace.model.get("label"), name=trace.model.get("name"))
    lines = [t("narrate.task", task=trace.task), model, ""]
    for event in trace.events:
        lines.append(describe_event(event))
        http = describe_http(event)
        if http is not None:
            lines.append(http)
        if event.get("channel") == "model":
            lines += unsent_calls(trace, str(event.get("label")))
    lines += ["", t("narrate.outcome", outcome=outcome_text(trace.outcome))]
    if trace.answer is not None:
        lines += ["", t("narrate.answer"), trace.answer]
    return "\n".join(lines)


def message_counts(trace: object) -> str:
    """How many messages each side exchanged, in one sentence per channel (lesson 08)."""
    model = [e for e in q.events(trace) if e.get("channel") == "model"]
    mcp = [e for e in q.events(trace) if e.get("channel") == "mcp"]
    by_label = Counter(str(e.get("label")) for e in mcp)
    frames = t("sep.list").join(t("narrate.frames_of", label=label, n=n) for label, n in by_label.items())
    requests = sum(1 for e in model if str(e.get("label")).startswith("request_"))
    return t(
        "narrate.counts",
        model=len(model),
        requests=requests,
        replies=len(model) - requests,
        mcp=len(mcp),
        frames=frames,
    )
