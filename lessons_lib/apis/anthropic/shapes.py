"""Whether a model body has the Anthropic Messages shape (``checks.apiview.api_of_body``). Lesson 20.

The kernel finds this through the API registry's ``shape`` entry, asked after Responses and Chat
Completions. Standard library only.
"""

from __future__ import annotations

from lessons_lib.core.jsonvalue import JSONObject


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
