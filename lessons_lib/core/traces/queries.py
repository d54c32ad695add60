"""The one set of questions every reader asks a trace: host, checks, lab, views and CLI. Lesson 03.

A trace may be a :class:`~lessons_lib.core.traces.trace.Trace`, its dict, or any JSON a learner or a
sabotage edited: every query reads tolerantly (None, "" or [] where a piece is missing) and
never judges; the verifiers do that. Model messages are read through
:mod:`lessons_lib.core.plugins.apishapes`, chosen by the trace's ``model.api``, so a Chat Completions
or Anthropic run answers the same questions. MCP frames are paired by service + JSON-RPC id
(each connection numbers its own requests, so two services may both send id 3).
Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, cast

from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, objects, same
from lessons_lib.core.plugins.apiregistry import names, reference_api
from lessons_lib.core.plugins.apishapes import answer_text, declared_tools, feedback_items, tool_calls
from lessons_lib.core.plugins.apitypes import DeclaredTool, Feedback, ToolCall
from lessons_lib.core.traces.tracetypes import CallRecord, Event


class _HasDict(Protocol):
    def to_dict(self) -> object: ...


TraceLike = "_HasDict | JSON | object"


def as_data(trace: object) -> JSON:
    """A ``Trace`` becomes its dict; JSON is returned as it is."""
    to_dict = getattr(trace, "to_dict", None)
    return cast(JSON, to_dict() if callable(to_dict) else trace)


def events(trace: object) -> list[Event]:
    """The trace's events that are objects, in order (a malformed entry is skipped)."""
    return cast("list[Event]", objects(get_in(as_data(trace), "events")))


def _body(event: Event) -> JSONObject | None:
    body = event.get("body")
    return body if isinstance(body, dict) else None


def model_api(trace: object) -> str:
    """Which model API the run spoke; a trace without ``model.api`` spoke the reference (Responses)."""
    api = get_in(as_data(trace), "model", "api")
    return api if isinstance(api, str) and api in names() else reference_api()


# ------------------------------------------------------------------ the model side
@dataclass(frozen=True)
class ModelRound:
    """Round ``n`` (from 1): the request the application sent and the model's reply (None if none)."""

    n: int
    request: JSONObject
    response: JSONObject | None


def model_body(trace: object, label: str) -> JSONObject | None:
    """The body of the first event with this label (``request_1``, ``response_2``...), or None."""
    return next((b for e in events(trace) if e.get("label") == label and (b := _body(e)) is not None), None)


def model_rounds(trace: object) -> list[ModelRound]:
    """Every model request with its response, in order."""
    rounds, n = [], 1
    while (request := model_body(trace, f"request_{n}")) is not None:
        rounds.append(ModelRound(n, request, model_body(trace, f"response_{n}")))
        n += 1
    return rounds


def calls(trace: object, round_n: int | None = None) -> list[ToolCall]:
    """The tool calls the model made (in round ``round_n`` only, when given), in order."""
    api = model_api(trace)
    chosen = [r for r in model_rounds(trace) if round_n is None or r.n == round_n]
    return [c for r in chosen for c in tool_calls(r.response, api)]


def sent_feedback(trace: object) -> list[Feedback]:
    """Each tool result as the model first received it, in order (one per call id)."""
    api, seen, out = model_api(trace), set(), []
    for r in model_rounds(trace):
        for item in feedback_items(r.request, api):
            key = repr(item.call_id)
            if key not in seen:
                seen.add(key)
                out.append(item)
    return out


def feedback_for_call(trace: object, call_id: JSON) -> Feedback | None:
    """The tool result sent back for this call id (pairing by ``call_id``), or None."""
    return next((f for f in sent_feedback(trace) if f.call_id == call_id), None)


def final_answer(trace: object) -> str | None:
    """The answer the application showed (``trace.answer``), or None."""
    answer = get_in(as_data(trace), "answer")
    return answer if isinstance(answer, str) else None


def response_text(trace: object, round_n: int) -> str:
    """What the model wrote in round ``round_n`` ("" when it wrote nothing)."""
    return answer_text(model_body(trace, f"response_{round_n}"), model_api(trace))


def declared(trace: object, round_n: int = 1) -> list[DeclaredTool]:
    """The tools declared to the model in round ``round_n``'s request."""
    return declared_tools(model_body(trace, f"request_{round_n}"), model_api(trace))


# ------------------------------------------------------------------ the MCP side
@dataclass(frozen=True)
class McpExchange:
    """One JSON-RPC request to a service and its reply (None when none came back)."""

    service: str
    request: JSONObject
    reply: JSONObject | None
    request_at: int
    """Position of the request among the trace's events."""
    reply_at: int | None

    @property
    def id(self) -> JSON:
        return self.request.get("id")


def is_reply(body: JSONObject) -> bool:
    """A JSON-RPC response (result or error), not a request or notification."""
    return "method" not in body and ("result" in body or "error" in body)


def _mcp(trace: object) -> list[tuple[int, Event, JSONObject]]:
    found = []
    for n, e in enumerate(events(trace)):
        body = _body(e)
        if body is not None and (e.get("channel") == "mcp" or "jsonrpc" in body):
            found.append((n, e, body))
    return found


def mcp_exchanges(
    trace: object, method: str | None = "tools/call", service: str | None = None
) -> list[McpExchange]:
    """Every MCP request of ``method`` (all methods when None) with its reply, in order.

    A reply is paired by service and JSON-RPC id: it comes from the service the request went
    to and carries the request's id.
    """
    frames, out = _mcp(trace), []
    for k, (at, event, body) in enumerate(frames):
        target = event.get("to")
        if "method" not in body or "id" not in body or (method is not None and body["method"] != method):
            continue
        if service is not None and target != service:
            continue
        reply = next(
            (
                (n, b)
                for n, e, b in frames[k + 1 :]
                if is_reply(b) and e.get("from") == target and same(b.get("id"), body["id"])
            ),
            None,
        )
        name = target if isinstance(target, str) else ""
        out.append(McpExchange(name, body, reply[1] if reply else None, at, reply[0] if reply else None))
    return out


def mcp_exchange(trace: object, service: str | None = None, mcp_id: JSON = None) -> McpExchange | None:
    """The tools/call exchange with this service and id (the first one when not given), or None."""
    found = mcp_exchanges(trace, "tools/call", service)
    return next((x for x in found if mcp_id is None or same(x.id, mcp_id)), None)


def loose_reply(trace: object, exchange: McpExchange) -> JSONObject | None:
    """The exchange's reply; failing that, the next tools/call reply from the same service.

    For the verifiers: a reply that answers with the wrong id is still found, so it is judged.
    """
    if exchange.reply is not None:
        return exchange.reply
    return next(
        (
            b
            for n, e, b in _mcp(trace)
            if n > exchange.request_at
            and is_reply(b)
            and e.get("from") == exchange.service
            and e.get("label") == "tools/call"
        ),
        None,
    )


def listed_tools(trace: object, service: str | None = None) -> list[JSONObject]:
    """The tools a service's MCP ``tools/list`` result declared (the first service's by default)."""
    for x in mcp_exchanges(trace, "tools/list", service):
        tools = objects(get_in(x.reply, "result", "tools"))
        if tools:
            return tools
    return []


def mcp_tool(trace: object, name: JSON, service: JSON = None) -> JSONObject | None:
    """The ``tools/list`` entry with this name, else the first one listed, or None."""
    tools = listed_tools(trace, service if isinstance(service, str) else None)
    return next((t for t in tools if t.get("name") == name), tools[0] if tools else None)


def reply_text(reply: JSON | None) -> str:
    """The text blocks of an MCP ``tools/call`` result joined by newlines ("" for none or an error)."""
    blocks = objects(get_in(reply, "result", "content"))
    return "\n".join(t for b in blocks if b.get("type") == "text" and isinstance(t := b.get("text"), str))


def reply_is_error(reply: JSON | None) -> bool | None:
    """``result.isError`` of a reply (True for a JSON-RPC error), None when there is no result."""
    if isinstance(reply, dict) and "error" in reply and "result" not in reply:
        return True
    flag = get_in(reply, "result", "isError")
    return flag if isinstance(flag, bool) else (False if isinstance(get_in(reply, "result"), dict) else None)


# ------------------------------------------------------------- the application's call records (``links``)
def call_records(trace: object) -> list[CallRecord]:
    """The application's call records, a trace's ``links`` (call id -> alias -> service, tool -> MCP id)."""
    return cast("list[CallRecord]", objects(get_in(as_data(trace), "links")))


def call_record(trace: object, call_id: JSON) -> CallRecord | None:
    """The call record of this call id, or None."""
    return next((k for k in call_records(trace) if k.get("call_id") == call_id), None)


def exchange_for(trace: object, call_id: JSON) -> McpExchange | None:
    """The MCP tools/call that this model call led to (through its call record), or None."""
    record = call_record(trace, call_id)
    if record is None or record.get("mcp_id") is None or record.get("service") is None:
        return None
    return mcp_exchange(trace, record["service"], record["mcp_id"])


__all__ = [
    "McpExchange",
    "ModelRound",
    "as_data",
    "call_record",
    "call_records",
    "calls",
    "declared",
    "events",
    "exchange_for",
    "feedback_for_call",
    "final_answer",
    "is_reply",
    "listed_tools",
    "loose_reply",
    "mcp_exchange",
    "mcp_exchanges",
    "mcp_tool",
    "model_api",
    "model_body",
    "model_rounds",
    "reply_is_error",
    "reply_text",
    "response_text",
    "sent_feedback",
]
