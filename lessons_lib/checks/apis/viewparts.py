"""The Responses items a Chat or Anthropic message becomes in ``checks.apiview.responses_view``. Lesson 20.

Each API's folder maps its own messages (``apis/<name>/view.py``) with these builders, so the
Responses items are written one way. Nothing is repaired: a missing id stays missing.
Standard library only.
"""

from __future__ import annotations

import json

from lessons_lib.core.jsonvalue import JSON, JSONObject


def text_of_parts(content: JSON) -> JSON:
    """A list of text parts as one text (newlines between); anything else as it is."""
    if isinstance(content, list):
        parts = [str(p["text"]) for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
        return "\n".join(parts) if parts else content
    return content


def message_item(role: JSON, text: JSON) -> JSONObject:
    """A message item; an assistant's text as one output_text part, as a Response holds it."""
    if role == "assistant":
        return {"type": "message", "role": role, "content": [{"type": "output_text", "text": text}]}
    return {"type": "message", "role": role, "content": text}


def call_item(call_id: JSON, name: JSON, arguments: JSON, object_input: bool) -> JSONObject:
    """A ``function_call`` item; an object ``input`` (Anthropic) becomes JSON text."""
    item: JSONObject = {"type": "function_call", "name": name}
    if call_id is not None:
        item["call_id"] = call_id
    item["arguments"] = (
        json.dumps(arguments, ensure_ascii=False)
        if object_input and isinstance(arguments, dict)
        else arguments
    )
    return item


def output_item(call_id: JSON, output: JSON, present: bool = True) -> JSONObject:
    """A ``function_call_output`` item (without ``call_id`` when the message had none)."""
    item: JSONObject = {"type": "function_call_output"}
    if present:
        item["call_id"] = call_id
    item["output"] = output
    return item
