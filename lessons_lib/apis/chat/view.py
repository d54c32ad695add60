"""Chat Completions messages in the Responses places (``checks.apiview.responses_view``). Lesson 20.

Held by the API's registry entry (``reply_items``, ``message_items``). Standard library only.
"""

from __future__ import annotations

from lessons_lib.checks.apis.viewparts import call_item, message_item, output_item, text_of_parts
from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, objects


def message_items(message: JSONObject) -> list[JSON]:
    """The Responses items one message of this API becomes."""
    role = message.get("role")
    if role == "tool":
        return [
            output_item(
                message.get("tool_call_id"), text_of_parts(message.get("content")), "tool_call_id" in message
            )
        ]
    items: list[JSON] = []
    if message.get("content") not in (None, ""):
        items.append(message_item(role, text_of_parts(message.get("content"))))
    for call in objects(message.get("tool_calls")):
        name, arguments = get_in(call, "function", "name"), get_in(call, "function", "arguments")
        items.append(call_item(call.get("id"), name, arguments, False))
    return items


def reply_items(body: JSONObject) -> list[JSON] | None:
    """A response's items in the Responses ``output`` places, or None for a request."""
    if "choices" not in body:
        return None  # a request
    message = get_in(body, "choices", 0, "message")
    return message_items(message) if isinstance(message, dict) else []
