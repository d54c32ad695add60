"""The same call in three APIs: which API a message comes from, and the map between them. Lesson 20.

The verifiers and the doctor were written for Responses messages. A Chat Completions or
Anthropic Messages exchange carries the same parts in other places (the map table of lesson
20), so ``responses_view`` rewrites a request or a response into the Responses places, part
for part, without repairing anything: a missing ``tool_call_id`` stays missing, a stringified
``input`` stays a string, a ``tool_result`` stays where it was sent; each API's half of the map
is in its folder (``apis/<name>/view.py``), held by its registry entry. The API-specific checks
(``lessons_lib.checks.apis.verify``) judge what that map cannot express. Standard library only.
"""

from __future__ import annotations

import copy

from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, objects
from lessons_lib.core.plugins.apiregistry import api_entry, apis, names, reference_api
from lessons_lib.core.traces.tracetypes import FORMAT as TRACE_FORMAT


def api_title(api: str) -> str:
    """The API's title (``Chat Completions``...), from its registry entry."""
    return api_entry(api).title


def api_of_body(body: object) -> str | None:
    """The API whose shape one model request or response has (``responses``...), else None.

    Each API's own test (its entry's ``is_body``, in ``apis/<name>/shapes.py``) is asked in the
    registry's order."""
    if not isinstance(body, dict):
        return None
    return next((entry.name for entry in apis() if entry.is_body(body)), None)


def api_of(data: object) -> str:
    """The API of a trace (its ``model.api``, else its first model request) or a round trip;
    the reference API when nothing says otherwise."""
    if isinstance(data, dict):
        model = data.get("model")
        named = model.get("api") if isinstance(model, dict) else data.get("api")
        if isinstance(named, str) and named in names():
            return named
        if isinstance(data.get("events"), list):
            first = next(
                (
                    e.get("body")
                    for e in data["events"]
                    if isinstance(e, dict) and e.get("label") == "request_1"
                ),
                None,
            )
            return api_of_body(first) or reference_api()
        return api_of_body(data.get("request_1")) or reference_api()
    return reference_api()


def _tools(api: str, tools: JSON) -> JSON:
    if not isinstance(tools, list):
        return tools
    out: list[JSON] = []
    for tool in objects(tools):
        entry = api_entry(api)
        spec = tool.get(entry.wrapper) if entry.wrapper else tool
        schema = get_in(spec, entry.rule)
        name, description = get_in(spec, "name"), get_in(spec, "description")
        out.append({"type": "function", "name": name, "description": description, "parameters": schema})
    return out


def _response(body: JSONObject, output: list[JSON]) -> JSONObject:
    return {"id": body.get("id"), "object": "response", "status": "completed", "output": output}


def responses_view(api: str, body: JSON) -> JSON:
    """One Chat or Anthropic request or response, its parts moved to the Responses places."""
    body = copy.deepcopy(body)
    entry = api_entry(api)
    if entry.reply_items is None or entry.message_items is None or not isinstance(body, dict):
        return body  # the reference API's messages are in the Responses places already
    output = entry.reply_items(body)
    if output is not None:
        return _response(body, output)
    messages = body.get("messages")
    items = (
        [i for m in objects(messages) for i in entry.message_items(m)]
        if isinstance(messages, list)
        else messages
    )
    return {
        "model": body.get("model"),
        "input": items,
        "tools": _tools(api, body.get("tools")),
        "tool_choice": body.get("tool_choice"),
    }


def responses_trace(trace: object, api: str) -> JSONObject:
    """A trace whose model bodies are in the Responses places (MCP frames and links unchanged)."""
    out: JSONObject = copy.deepcopy(trace) if isinstance(trace, dict) else {}
    out["format"] = TRACE_FORMAT
    model = out.get("model")
    if isinstance(model, dict):  # the view is Responses-shaped: absent api = responses
        out["model"] = {k: v for k, v in model.items() if k != "api"}
    for event in objects(out.get("events")):
        if event.get("channel") == "model":
            event["body"] = responses_view(api, event.get("body"))
    return out


def responses_roundtrip(roundtrip: object, api: str) -> JSONObject:
    """A round trip whose four model bodies are in the Responses places."""
    out: JSONObject = copy.deepcopy(roundtrip) if isinstance(roundtrip, dict) else {}
    for key in ("request_1", "response_1", "request_2", "response_2"):
        if key in out:
            out[key] = responses_view(api, out[key])
    return out
