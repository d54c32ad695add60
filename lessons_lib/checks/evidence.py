"""What the verifiers and the doctor pick out of a trace (lessons 07-08), on the one set of queries.

The reading itself is :mod:`lessons_lib.core.traces.queries` (and :mod:`lessons_lib.core.plugins.apishapes`
for the model's messages); this module adds only what a judge needs on top: a fallback to the
piece at the same position when the pairing key is wrong (so a wrong ``call_id`` or JSON-RPC id
is seen and named, not silently "missing"), the raw items as sent, and two readers that turn a
wrong shape into a ``Fail`` sentence. Standard library only.
"""

from __future__ import annotations

from typing import Final

from lessons_lib.checks.jsoncheck import list_of, need, obj, show, text_of
from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, objects, same
from lessons_lib.core.messages import t
from lessons_lib.core.plugins.apishapes import answer_text, declared_tools, feedback_items, tool_calls
from lessons_lib.core.traces import queries as q
from lessons_lib.core.traces.tracetypes import FORMAT as TRACE_FORMAT

FRAGMENTS_FORMAT: Final = "lessons_lib.field_fragments/1"
ROUNDTRIP_FORMAT: Final = "lessons_lib.roundtrip/1"
CALL_TYPE: Final = "function_call"
"""The Responses item of one call: the checks judge every API in the Responses places."""
OUTPUT_TYPE: Final = "function_call_output"

as_dict = q.as_data
model_body = q.model_body
message_text = answer_text
mcp_declaration = q.mcp_tool


def require_trace(data: JSON) -> JSONObject:
    """The data itself if it is a trace (an object with an "events" list), else ValueError.

    Lenient on purpose: the doctor (lesson 08) walks a trace with odd events and names the link
    they break. The verifiers use :func:`checked_trace`.
    """
    if not isinstance(data, dict) or not isinstance(data.get("events"), list):
        raise ValueError(t("evidence.not_a_trace"))
    return data


def checked_trace(data: JSON) -> JSONObject:
    """The data itself if it has the trace's own shape, else ValueError saying what it is not.

    The verifiers (lessons 07 and 31) pass nothing that is not a trace: ``"events":
    null``, a list of numbers or null bodies are refused by
    :func:`~lessons_lib.core.traces.tracetypes.check_trace` before any check could say "passed".
    """
    from lessons_lib.core.traces.tracetypes import TraceShapeError, check_trace

    found = require_trace(data)
    try:
        check_trace(found)
    except TraceShapeError as exc:
        raise ValueError(t("hostile.not_a_trace", reason=exc)) from None
    return found


def is_call(item: JSON) -> bool:
    return isinstance(item, dict) and item.get("type") == CALL_TYPE


def is_output(item: JSON) -> bool:
    return isinstance(item, dict) and item.get("type") == OUTPUT_TYPE


def call_items(response: JSON) -> list[JSONObject]:
    """The call items of a model response, as received."""
    return [c.item for c in tool_calls(response)]


def first_call(response: JSON) -> JSONObject | None:
    calls = call_items(response)
    return calls[0] if calls else None


def output_items(request: JSON) -> list[JSONObject]:
    """The feedback items of a model request, as sent."""
    return [f.item for f in feedback_items(request)]


def pick_feedback(request: JSON, call: JSON, index: int = 0) -> JSONObject | None:
    """The feedback for this call, else the one at the call's position (so a wrong id is seen)."""
    outs = output_items(request)
    call_id = get_in(call, "call_id")
    return next((o for o in outs if o.get("call_id") == call_id), outs[index] if len(outs) > index else None)


def link_records(links: JSON, call_id: JSON = None) -> list[JSONObject]:
    """The application's link records (those of this call_id when one is given)."""
    records = objects(links)
    return records if call_id is None else [r for r in records if r.get("call_id") == call_id]


def link_or_first(links: JSON, call: JSON) -> JSONObject | None:
    """The application's link record for this call, else the first one (``core.queries.link_for``
    takes a trace and a call id and answers None when no link has it)."""
    records = link_records(links)
    call_id = get_in(call, "call_id")
    return next((r for r in records if r.get("call_id") == call_id), records[0] if records else None)


def declared_tool(request: JSON, name: JSON) -> JSONObject | None:
    """The declared tools entry with this name, else the first one."""
    found = [t.item for t in declared_tools(request)]
    return next((t for t in found if t.get("name") == name), found[0] if found else None)


def mcp_exchange(
    trace: JSON, service: JSON = None, mcp_id: JSON = None
) -> tuple[JSONObject | None, JSONObject | None]:
    """The tools/call request (to this service with this id, else the first) and its response.

    The parameters come in the order of ``core.queries.mcp_exchange`` (trace, service, id).

    The response comes from the same service: the one with the same JSON-RPC id, else the
    next tools/call response (so a response that answers with the wrong id is still judged).
    """
    exchanges = q.mcp_exchanges(trace)
    if isinstance(service, str) and any(x.service == service for x in exchanges):
        exchanges = [x for x in exchanges if x.service == service]
    if not exchanges:
        return None, None
    chosen = next((x for x in exchanges if mcp_id is not None and same(x.id, mcp_id)), exchanges[0])
    return chosen.request, q.loose_reply(trace, chosen)


def result_text(frame: JSON, where: str | None = None) -> tuple[str, bool]:
    """The text an MCP response carries and whether it reports a failure."""
    where = t("evidence.mcp_response") if where is None else where
    f = obj(frame, where)
    if "error" in f and "result" not in f:
        error = obj(f["error"], f"{where}.error")
        message = text_of(error.get("message"), f"{where}.error.message")
        return f"protocol error {error.get('code')}: {message}", True
    result = obj(f.get("result"), f"{where}.result")
    texts = []
    for n, block in enumerate(list_of(result.get("content"), f"{where}.result.content")):
        b = obj(block, f"{where}.result.content[{n}]")
        if b.get("type") == "text":
            texts.append(text_of(b.get("text"), f"{where}.result.content[{n}].text"))
    is_error = result.get("isError", False)
    need(isinstance(is_error, bool), t("evidence.is_error", where=where, got=show(is_error)))
    return "\n".join(texts), is_error


def feedback_output(item: JSON, where: str = "feedback") -> str:
    """The text of a function_call_output (a string, or a list of input_text parts)."""
    out = obj(item, where).get("output")
    if isinstance(out, list):
        return "\n".join(
            text_of(obj(p, f"{where}.output[]").get("text"), f"{where}.output[].text") for p in out
        )
    return text_of(out, f"{where}.output")


def first_exchange(
    trace: JSON,
) -> tuple[JSONObject | None, JSONObject | None, JSONObject | None, JSONObject | None]:
    """The first tool call of a trace, its link record, and the MCP request and response it led to."""
    call = first_call(model_body(trace, "response_1"))
    link = link_or_first(get_in(trace, "links"), call)
    request, response = mcp_exchange(trace, *((link.get("service"), link.get("mcp_id")) if link else ()))
    return call, link, request, response


def attachment_kind(data: JSON) -> str | None:
    """'trace', 'roundtrip', 'fragments' or None, from the format key or else the keys present."""
    if not isinstance(data, dict):
        return None
    by_format = {TRACE_FORMAT: "trace", ROUNDTRIP_FORMAT: "roundtrip", FRAGMENTS_FORMAT: "fragments"}
    found = data.get("format")
    if isinstance(found, str) and found in by_format:
        return by_format[found]
    for key, kind in (("events", "trace"), ("request_1", "roundtrip"), ("model_call", "fragments")):
        if key in data:
            return kind
    return None
