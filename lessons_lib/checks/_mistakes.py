"""The source lesson's seven troubleshooting mistakes, each made in a copy of a good trace. Lesson 08.

Every function takes a trace (dict or ``lessons_lib.core.traces.trace.Trace``), never touches it, and
returns an edited deep copy whose events are renumbered; ``lessons_lib.checks.sabotage`` lists them
with the link each should break. Standard library only.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any, Final

from lessons_lib.checks.evidence import (
    as_dict,
    call_items,
    declared_tool,
    first_call,
    first_exchange,
    is_call,
    is_output,
    model_body,
    require_trace,
    result_text,
)
from lessons_lib.checks.jsoncheck import Fail
from lessons_lib.core.jsonvalue import JSON, JSONObject
from lessons_lib.core.plugins.apishapes import input_items

Trace = dict[str, Any]


def _copy(trace: object) -> Trace:
    return require_trace(copy.deepcopy(as_dict(trace)))


def _drop_events(t: Trace, keep: Callable[[JSONObject], bool]) -> None:
    t["events"] = [e for e in t["events"] if not isinstance(e, dict) or keep(e)]
    for n, event in enumerate(e for e in t["events"] if isinstance(e, dict)):
        event["seq"] = n


def _round(label: object) -> int:
    head, _, number = str(label).rpartition("_")
    return int(number) if head in ("request", "response") and number.isdigit() else 0


def _later_inputs(t: Trace) -> list[JSONObject]:
    """The input items of every model request after the first."""
    return [
        i
        for e in t["events"]
        if _round(e.get("label")) > 1 and str(e.get("label")).startswith("request")
        for i in input_items(e.get("body"))
    ]


def _call_copies(t: Trace) -> list[JSONObject]:
    call = first_call(model_body(t, "response_1")) or {}
    items = call_items(model_body(t, "response_1")) + _later_inputs(t)
    return [i for i in items if is_call(i) and i.get("call_id") == call.get("call_id")]


def _feedback_items(t: Trace) -> list[JSONObject]:
    return [i for i in _later_inputs(t) if is_output(i)]


def _edit_arguments(t: Trace, edit: Callable[[JSONObject], None]) -> None:
    """Change this call's values everywhere they travel: the arguments text and the MCP object."""
    copies = _call_copies(t)
    if not copies:
        return
    args = json.loads(str(copies[0]["arguments"]))
    edit(args)
    for item in copies:
        item["arguments"] = json.dumps(args, ensure_ascii=False)
    _, _, request, _ = first_exchange(t)
    params = request.get("params") if request is not None else None
    if isinstance(params, dict):
        params["arguments"] = copy.deepcopy(args)


def _replace_text(value: JSON, old: str, new: str) -> JSON:
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, list):
        return [_replace_text(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: _replace_text(v, old, new) for k, v in value.items()}
    return value


# ----------------------------------------------------------------------------- the seven mistakes


def declaration_as_execution(trace: object) -> Trace:
    """Mistake 1: the declaration is taken for code that runs. No tools/call is sent; what the
    application feeds back as the "result" is the declared tool itself (its tools entry as text)."""
    t = _copy(trace)
    call, _, request, response = first_exchange(t)
    declared = declared_tool(model_body(t, "request_1"), (call or {}).get("name"))
    _drop_events(t, lambda e: e.get("body") is not request and e.get("body") is not response)
    for link in t.get("links") or []:
        if isinstance(link, dict):
            link["mcp_id"] = None
    for item in _feedback_items(t):
        item["output"] = json.dumps(declared, ensure_ascii=False)
    return t


def rule_as_value(trace: object) -> Trace:
    """The rule {"type": "number"} travels as the value of head."""
    t = _copy(trace)
    _edit_arguments(t, lambda args: args.__setitem__("head", {"type": "number"}))
    return t


BOTH_HEAD_AND_TAIL: Final = "Cannot specify both head and tail parameters simultaneously"
"""The file service's own refusal of a call that gives both head and tail (a test holds it to
``lessons_lib.services.files.service``)."""


def parse_as_read(trace: object) -> Trace:
    """Mistake 3: the call also asks for ``tail`` 5; its arguments parse, the service refuses
    (head and tail together) and says so, yet the feedback carries the file's lines as if read."""
    t = _copy(trace)
    _edit_arguments(t, lambda args: args.__setitem__("tail", 5))
    _, _, _, response = first_exchange(t)
    if isinstance(response, dict):
        response.pop("error", None)
        response["result"] = {"content": [{"type": "text", "text": BOTH_HEAD_AND_TAIL}], "isError": True}
    return t


def format_as_permission(trace: object) -> Trace:
    """A well-formed path outside the root comes back as a successful read."""
    t = _copy(trace)
    copies = _call_copies(t)
    old = json.loads(str(copies[0]["arguments"])).get("path") if copies else None
    if not isinstance(old, str) or not old:
        return t
    replaced = _replace_text(t, old, "/workspace/../etc/passwd")
    return replaced if isinstance(replaced, dict) else t


def mixed_ids(trace: object) -> Trace:
    """The feedback carries the MCP JSON-RPC id where the model's call_id belongs."""
    t = _copy(trace)
    _, _, request, _ = first_exchange(t)
    for item in _feedback_items(t):
        item["call_id"] = str((request or {}).get("id"))
    return t


def logged_not_fed_back(trace: object) -> Trace:
    """The result stays in the application (a log); the next model input has no function_call_output."""
    t = _copy(trace)
    for event in t["events"]:
        if isinstance(event, dict) and _round(event.get("label")) > 1 and isinstance(event.get("body"), dict):
            body = event["body"]
            if isinstance(body.get("input"), list):
                body["input"] = [i for i in body["input"] if not is_output(i)]
    return t


def raw_as_answer(trace: object) -> Trace:
    """No second model request: the raw tool text is shown to the user as the answer."""
    t = _copy(trace)
    _, _, _, response = first_exchange(t)
    try:
        text, _ = result_text(response)
    except Fail:
        text = ""
    _drop_events(t, lambda e: _round(e.get("label")) < 2)
    t["answer"] = text
    return t
