"""How the Responses API spells a model exchange: the shape test, the readers and writers. Lessons 06 and 20.

Held by the Responses entry (``shapes``, ``is_body``): ``checks.apis.view.api_of_body`` asks the
entries' shape tests in the registry's order, so this test is asked first; ``core.plugins.apishapes``
reads the calls, the feedback and the answer through it. Standard library only.
"""

from __future__ import annotations

import copy

from lessons_lib.core.example import FAILURE_PREFIX
from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, objects
from lessons_lib.core.plugins.apitypes import ApiShape, DeclaredTool, Feedback, ToolCall, tool_call


def is_body(body: JSONObject) -> bool:
    """A Responses request (it has ``input``) or response (``object: "response"``)."""
    return "input" in body or body.get("object") == "response"


def _typed(items: list[JSONObject], kind: str) -> list[JSONObject]:
    return [i for i in items if i.get("type") == kind]


def calls(response: JSON) -> list[ToolCall]:
    items = _typed(objects(get_in(response, "output")), "function_call")
    return [tool_call(i.get("call_id"), i.get("name"), i.get("arguments"), i) for i in items]


def inputs(request: JSON) -> list[JSONObject]:
    found = get_in(request, "input")
    if isinstance(found, str):  # a plain string is one user message
        return [{"role": "user", "content": found}]
    return objects(found)


def feedback(request: JSON) -> list[Feedback]:
    items = _typed(inputs(request), "function_call_output")
    return [Feedback(i.get("call_id"), i.get("output"), None, i) for i in items]


def answer(response: JSON) -> str:
    messages = [
        m for m in _typed(objects(get_in(response, "output")), "message") if m.get("role") == "assistant"
    ]
    parts = [p for m in messages for p in _typed(objects(m.get("content")), "output_text")]
    return "\n".join(t for t in (p.get("text") for p in parts) if isinstance(t, str))


def tools(request: JSON) -> list[DeclaredTool]:
    return [DeclaredTool(t.get("name"), t.get("parameters"), t) for t in objects(get_in(request, "tools"))]


def declare(name: str, description: str, rule: JSONObject) -> JSONObject:
    """A ``function`` tool (``strict: false``, as the course's fixtures)."""
    return {
        "type": "function",
        "name": name,
        "description": description,
        "parameters": copy.deepcopy(rule),
        "strict": False,
    }


def reply(call_id: str, text: str, failed: bool) -> JSONObject:
    """A ``function_call_output`` item (a failure is marked in the text: there is no error field)."""
    return {
        "type": "function_call_output",
        "call_id": call_id,
        "output": FAILURE_PREFIX + text if failed else text,
    }


SHAPE = ApiShape(
    calls, feedback, answer, tools, inputs, "function_call", "function_call_output", declare, reply
)
