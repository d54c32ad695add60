"""Whether a model body has the Chat Completions shape (``checks.apiview.api_of_body``). Lesson 20.

The kernel finds this through the API registry's ``shape`` entry; the entries are tried in the
registry's order, after Responses and before Anthropic Messages, so a ``messages`` list counts as
Chat unless it carries Anthropic's marks. Standard library only.
"""

from __future__ import annotations

from lessons_lib.core.jsonvalue import JSONObject


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
