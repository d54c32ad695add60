"""Reading a trace and the messages inside it, for the verifiers and the doctor (lessons 07-08).

Every reader takes plain JSON (dicts and lists) of any shape and answers None or an empty
list where a piece is missing: judging a wrong shape is the checks' job, not the readers'.
A ``lessons_lib.core.trace.Trace`` is turned into its dict first by ``as_dict``. Standard library only.
"""

from __future__ import annotations

from typing import Any, Final

from lessons_lib.checks._jsoncheck import list_of, need, obj, same, show, text_of

TRACE_FORMAT: Final = "lessons_lib.trace/1"
FRAGMENTS_FORMAT: Final = "lessons_lib.field_fragments/1"
ROUNDTRIP_FORMAT: Final = "lessons_lib.roundtrip/1"


def as_dict(trace: Any) -> Any:
    """A ``lessons_lib.core.trace.Trace`` becomes its dict; anything else is returned as is."""
    to_dict = getattr(trace, "to_dict", None)
    return to_dict() if callable(to_dict) else trace


def require_trace(data: Any) -> dict[str, Any]:
    """The data itself if it is a trace (an object with an "events" list), else ValueError."""
    if not isinstance(data, dict) or not isinstance(data.get("events"), list):
        raise ValueError('不是 trace：需要一个带 "events" 列表的 JSON 对象（格式 lessons_lib.trace/1）')
    return data


def events(trace: Any) -> list[dict[str, Any]]:
    found = trace.get("events") if isinstance(trace, dict) else None
    return [e for e in found if isinstance(e, dict)] if isinstance(found, list) else []


def model_body(trace: Any, label: str) -> Any:
    """The body of the first event with this label (request_1, response_1, ...), or None."""
    return next((e.get("body") for e in events(trace) if e.get("label") == label), None)


def is_call(item: Any) -> bool:
    return isinstance(item, dict) and item.get("type") == "function_call"


def calls_in(response: Any) -> list[dict[str, Any]]:
    output = response.get("output") if isinstance(response, dict) else None
    return [i for i in output if is_call(i)] if isinstance(output, list) else []


def first_call(response: Any) -> dict[str, Any] | None:
    calls = calls_in(response)
    return calls[0] if calls else None


def input_items(request: Any) -> list[Any]:
    """A request's ``input`` as a list (a plain string is one user message)."""
    found = request.get("input") if isinstance(request, dict) else None
    if isinstance(found, str):
        return [{"role": "user", "content": found}]
    return found if isinstance(found, list) else []


def is_output(item: Any) -> bool:
    return isinstance(item, dict) and item.get("type") == "function_call_output"


def feedback_items(request: Any) -> list[dict[str, Any]]:
    return [i for i in input_items(request) if is_output(i)]


def pick_feedback(request: Any, call: Any, index: int = 0) -> dict[str, Any] | None:
    """The function_call_output for this call, else the one at the call's position (so a wrong id is seen)."""
    outs = feedback_items(request)
    call_id = call.get("call_id") if isinstance(call, dict) else None
    return next((o for o in outs if o.get("call_id") == call_id), outs[index] if len(outs) > index else None)


def link_records(links: Any, call_id: Any = None) -> list[dict[str, Any]]:
    """The application's link records (those of this call_id when one is given)."""
    records = [r for r in links if isinstance(r, dict)] if isinstance(links, list) else []
    return records if call_id is None else [r for r in records if r.get("call_id") == call_id]


def link_for(links: Any, call: Any) -> dict[str, Any] | None:
    """The application's link record for this call, else the first one."""
    records = link_records(links)
    call_id = call.get("call_id") if isinstance(call, dict) else None
    return next((r for r in records if r.get("call_id") == call_id), records[0] if records else None)


def declared_tool(request: Any, name: Any) -> dict[str, Any] | None:
    """The Responses tools entry with this name, else the first function tool."""
    tools = request.get("tools") if isinstance(request, dict) else None
    found = [t for t in tools if isinstance(t, dict)] if isinstance(tools, list) else []
    return next((t for t in found if t.get("name") == name), found[0] if found else None)


def mcp_declaration(trace: Any, tool_name: Any, service: Any = None) -> dict[str, Any] | None:
    """The tool entry with this name in the service's MCP tools/list result, or None."""
    for event in events(trace):
        if service is not None and event.get("from") not in (None, service):
            continue
        body = event.get("body")
        result = body.get("result") if isinstance(body, dict) else None
        tools = result.get("tools") if isinstance(result, dict) else None
        if event.get("label") == "tools/list" and isinstance(tools, list):
            found = [t for t in tools if isinstance(t, dict)]
            return next((t for t in found if t.get("name") == tool_name), found[0] if found else None)
    return None


def _is_mcp(event: dict[str, Any]) -> bool:
    body = event.get("body")
    return isinstance(body, dict) and (event.get("channel") == "mcp" or "jsonrpc" in body)


def mcp_exchange(
    trace: Any, mcp_id: Any = None, service: Any = None
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The tools/call request (to this service with this id, else the first) and its response.

    The response comes from the same service: the one with the same JSON-RPC id, else the
    next tools/call response (so a response that answers with the wrong id is still judged).
    Each service numbers its own requests, so two services may both use id 3.
    """
    evs = [e for e in events(trace) if _is_mcp(e)]
    calls = [n for n, e in enumerate(evs) if e["body"].get("method") == "tools/call"]
    if service is not None and any(evs[n].get("to") == service for n in calls):
        calls = [n for n in calls if evs[n].get("to") == service]
    if not calls:
        return None, None
    chosen = [n for n in calls if mcp_id is not None and same(evs[n]["body"].get("id"), mcp_id)]
    start = (chosen or calls)[0]
    request, target = evs[start]["body"], evs[start].get("to")
    replies = [
        e
        for e in evs[start + 1 :]
        if "method" not in e["body"]
        and ("result" in e["body"] or "error" in e["body"])
        and (target is None or e.get("from") in (None, target))
    ]
    match = next((e for e in replies if same(e["body"].get("id"), request.get("id"))), None)
    match = match or next((e for e in replies if e.get("label") == "tools/call"), None)
    return request, (match["body"] if match else None)


def result_text(frame: Any, where: str = "MCP 响应") -> tuple[str, bool]:
    """The text an MCP response carries and whether it reports a failure."""
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
    need(isinstance(is_error, bool), f"{where}.result.isError 应当是 true 或 false，实际是 {show(is_error)}")
    return "\n".join(texts), is_error


def feedback_output(item: Any, where: str = "feedback") -> str:
    """The text of a function_call_output (a string, or a list of input_text parts)."""
    out = obj(item, where).get("output")
    if isinstance(out, list):
        return "\n".join(
            text_of(obj(p, f"{where}.output[]").get("text"), f"{where}.output[].text") for p in out
        )
    return text_of(out, f"{where}.output")


def message_text(response: Any) -> str:
    """The assistant's output_text in a Response, joined (empty if there is none)."""
    output = response.get("output") if isinstance(response, dict) else None
    texts = []
    for item in output if isinstance(output, list) else []:
        if isinstance(item, dict) and item.get("type") == "message" and item.get("role") == "assistant":
            content = item.get("content")
            for part in content if isinstance(content, list) else []:
                if (
                    isinstance(part, dict)
                    and part.get("type") == "output_text"
                    and isinstance(part.get("text"), str)
                ):
                    texts.append(part["text"])
    return "\n".join(texts)


def first_exchange(trace: Any) -> tuple[Any, Any, Any, Any]:
    """The first tool call of a trace, its link record, and the MCP request and response it led to."""
    call = first_call(model_body(trace, "response_1"))
    link = link_for(trace.get("links") if isinstance(trace, dict) else None, call)
    request, response = mcp_exchange(trace, *((link.get("mcp_id"), link.get("service")) if link else ()))
    return call, link, request, response


def kind_of(data: Any) -> str | None:
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
