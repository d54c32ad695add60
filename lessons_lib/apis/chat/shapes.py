"""How Chat Completions spells a model exchange: the shape test, the readers and writers. Lesson 20.

Held by the Chat entry (``shapes``, ``is_body``). The shape tests are tried in the registry's
order, after Responses and before Anthropic Messages, so a ``messages`` list counts as Chat
unless it carries Anthropic's marks. Standard library only.
"""

from __future__ import annotations

import copy

from lessons_lib.core.example import FAILURE_PREFIX
from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, joined_text, objects
from lessons_lib.core.plugins.apitypes import ApiShape, DeclaredTool, Feedback, ToolCall, tool_call


def anthropic_marks(body: JSONObject) -> bool:
    """What only an Anthropic body has: a ``message`` reply, ``max_tokens``, an ``input_schema`` tool."""
    tools = body.get("tools") or []
    return (
        body.get("type") == "message"
        or "max_tokens" in body
        or (isinstance(tools, list) and any(isinstance(t, dict) and "input_schema" in t for t in tools))
    )


def is_body(body: JSONObject) -> bool:
    """A `chat.completion` (or a body with `choices`), or a `messages` request without Anthropic's marks."""
    if body.get("object") == "chat.completion" or "choices" in body:
        return True
    return isinstance(body.get("messages"), list) and not anthropic_marks(body)


def calls(response: JSON) -> list[ToolCall]:
    items = objects(get_in(response, "choices", 0, "message", "tool_calls"))
    return [
        tool_call(i.get("id"), get_in(i, "function", "name"), get_in(i, "function", "arguments"), i)
        for i in items
    ]


def inputs(request: JSON) -> list[JSONObject]:
    return objects(get_in(request, "messages"))


def feedback(request: JSON) -> list[Feedback]:
    items = [m for m in inputs(request) if m.get("role") == "tool"]
    return [Feedback(m.get("tool_call_id"), m.get("content"), None, m) for m in items]


def answer(response: JSON) -> str:
    return joined_text(get_in(response, "choices", 0, "message", "content")) or ""


def tools(request: JSON) -> list[DeclaredTool]:
    return [
        DeclaredTool(get_in(t, "function", "name"), get_in(t, "function", "parameters"), t)
        for t in objects(get_in(request, "tools"))
    ]


def declare(name: str, description: str, rule: JSONObject) -> JSONObject:
    """A Chat Completions tool: the Responses fields, one level down under ``function``."""
    spec: JSONObject = {"name": name, "description": description, "parameters": copy.deepcopy(rule)}
    return {"type": "function", "function": {**spec, "strict": False}}


def reply(call_id: str, text: str, failed: bool) -> JSONObject:
    """A ``role: "tool"`` message (a failure is marked in the text: there is no error field)."""
    return {"role": "tool", "tool_call_id": call_id, "content": FAILURE_PREFIX + text if failed else text}


SHAPE = ApiShape(calls, feedback, answer, tools, inputs, "tool_calls", "tool", declare, reply)
