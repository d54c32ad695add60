"""How Anthropic Messages spells a model exchange: the shape test, the readers and writers. Lesson 20.

Held by the Anthropic entry (``shapes``, ``is_body``). The shape tests are tried in the
registry's order, so this one may assume that Responses and Chat said no. Standard library only.
"""

from __future__ import annotations

import copy

from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, objects
from lessons_lib.core.plugins.apitypes import ApiShape, DeclaredTool, Feedback, ToolCall, tool_call


def is_body(body: JSONObject) -> bool:
    """A `message` reply, a request with `max_tokens`, or a `messages` request with an `input_schema` tool."""
    if body.get("type") == "message" or "max_tokens" in body:
        return True
    tools = body.get("tools") or []
    return (
        isinstance(body.get("messages"), list)
        and isinstance(tools, list)
        and any(isinstance(t, dict) and "input_schema" in t for t in tools)
    )


def _typed(items: list[JSONObject], kind: str) -> list[JSONObject]:
    return [i for i in items if i.get("type") == kind]


def calls(response: JSON) -> list[ToolCall]:
    blocks = _typed(objects(get_in(response, "content")), "tool_use")
    return [tool_call(b.get("id"), b.get("name"), b.get("input"), b) for b in blocks]


def inputs(request: JSON) -> list[JSONObject]:
    return objects(get_in(request, "messages"))


def feedback(request: JSON) -> list[Feedback]:
    users = [m for m in inputs(request) if m.get("role") == "user"]
    blocks = [b for m in users for b in _typed(objects(m.get("content")), "tool_result")]
    return [Feedback(b.get("tool_use_id"), b.get("content"), b.get("is_error", False), b) for b in blocks]


def answer(response: JSON) -> str:
    texts = [b.get("text") for b in _typed(objects(get_in(response, "content")), "text")]
    return "\n".join(t for t in texts if isinstance(t, str))


def tools(request: JSON) -> list[DeclaredTool]:
    return [DeclaredTool(t.get("name"), t.get("input_schema"), t) for t in objects(get_in(request, "tools"))]


def declare(name: str, description: str, rule: JSONObject) -> JSONObject:
    """An Anthropic tool: flat, its rule under ``input_schema``."""
    return {"name": name, "description": description, "input_schema": copy.deepcopy(rule)}


def reply(call_id: str, text: str, failed: bool) -> JSONObject:
    """A ``tool_result`` block: a failure is said by ``is_error``, the text stays as it is."""
    return {"type": "tool_result", "tool_use_id": call_id, "content": text, "is_error": failed}


SHAPE = ApiShape(calls, feedback, answer, tools, inputs, "tool_use", "tool_result", declare, reply)
