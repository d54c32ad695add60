"""Anthropic Messages messages in the Responses places (``checks.apiview.responses_view``). Lesson 20.

Held by the API's registry entry (``reply_items``, ``message_items``). Standard library only.
"""

from __future__ import annotations

from lessons_lib.checks.apis.viewparts import call_item, message_item, output_item, text_of_parts
from lessons_lib.core.example import FAILURE_PREFIX
from lessons_lib.core.jsonvalue import JSON, JSONObject, objects


def message_items(message: JSONObject) -> list[JSON]:
    """The Responses items one message of this API becomes."""
    role, content = message.get("role"), message.get("content")
    if isinstance(content, str):
        return [message_item(role, content)]
    items: list[JSON] = []
    for block in objects(content):
        kind = block.get("type")
        if kind == "text":
            items.append(message_item(role, block.get("text")))
        elif kind == "tool_use":
            items.append(call_item(block.get("id"), block.get("name"), block.get("input"), True))
        elif kind == "tool_result":
            text = text_of_parts(block.get("content"))
            failed = block.get("is_error") is True and isinstance(text, str)
            items.append(output_item(block.get("tool_use_id"), f"{FAILURE_PREFIX}{text}" if failed else text))
    return items


def reply_items(body: JSONObject) -> list[JSON] | None:
    """A response's items in the Responses ``output`` places, or None for a request."""
    if body.get("type") != "message":
        return None  # a request
    return message_items({"role": "assistant", "content": body.get("content")})
