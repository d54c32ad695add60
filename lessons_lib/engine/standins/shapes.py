"""The Responses API shapes the offline stand-ins answer with: a response body, an error reply.

Introduced in lesson 01 (``apis/responses/standin.py``); the order desk's stand-in (lesson 30) and
the stored-state stand-in (``apis/responses/standin_state.py``) answer with the same shapes, so
they live here under public names. Placeholders, chosen to stay valid under
``specs/openai/openapi.yaml``: ``created_at: 0``, no ``usage`` (the schema has no
``usage: null``, and zeros would claim a measurement).
"""

from __future__ import annotations

import httpx2

from lessons_lib.core.jsonvalue import JSONObject


def response_body(resp_id: str, body: JSONObject, output: list[JSONObject]) -> JSONObject:
    """A completed ``response`` object for the request ``body``, with ``output`` as its items."""
    return {
        "id": resp_id,
        "object": "response",
        "created_at": 0,
        "status": "completed",
        "error": None,
        "incomplete_details": None,
        "instructions": body.get("instructions"),
        "max_output_tokens": None,
        "model": body.get("model", ""),
        "output": [*output],
        "parallel_tool_calls": True,
        "previous_response_id": None,
        "reasoning": {"effort": None, "summary": None},
        "store": body.get("store", True) is not False,  # the real API stores unless told not to
        "temperature": 1.0,
        "text": {"format": {"type": "text"}},
        "tool_choice": body.get("tool_choice", "auto"),
        "tools": body.get("tools", []),
        "top_p": 1.0,
        "truncation": "disabled",
        "metadata": {},
    }


def error_reply(
    request: httpx2.Request, status: int, message: str, param: str | None = None, code: str | None = None
) -> httpx2.Response:
    """An HTTP error reply with the API's ``{"error": {...}}`` body (``invalid_request_error``)."""
    error = {"message": message, "type": "invalid_request_error", "param": param, "code": code}
    return httpx2.Response(status, json={"error": error}, request=request)
