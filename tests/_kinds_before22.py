"""The shape tests as ``core.msgtype`` tried them before issue 22 moved each API's into its folder.

A frozen copy, the oracle of ``test_kinds_order``: the kernel's, then the Chat Completions and
Anthropic Messages ones interleaved as ``core/kinds_apis.py`` listed them, then the Responses
ones. Do not edit it to follow a change of the package: a change of the order is a change of
every classification, and the test that reads this copy is there to notice it. One change made
with the move: the three ``in {...}`` membership tests became ``in (...)``, since a JSON Schema
under ``data/specs/`` has a ``role`` (or ``type``) that is an object, which a set cannot hash
(``TypeError``); for every other value the answer is the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _d(m: Any) -> bool:
    return isinstance(m, dict)


def _anthropic_blocks(m: dict[str, Any]) -> bool:
    for message in m.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list) and any(
            isinstance(b, dict) and b.get("type") in ("tool_use", "tool_result") for b in content
        ):
            return True
    return any(isinstance(t, dict) and "input_schema" in t for t in m.get("tools") or [])


BEFORE: list[tuple[str, Callable[[Any], bool]]] = [
    ("trace", lambda m: _d(m) and str(m.get("format", "")).startswith("lessons_lib.trace/")),
    (
        "field_fragments",
        lambda m: _d(m) and (m.get("format") == "lessons_lib.field_fragments/1" or "model_call" in m),
    ),
    (
        "roundtrip",
        lambda m: (
            _d(m) and (m.get("format") == "lessons_lib.roundtrip/1" or {"request_1", "response_1"} <= set(m))
        ),
    ),
    ("mcp_request", lambda m: _d(m) and "jsonrpc" in m and "method" in m),
    ("mcp_response", lambda m: _d(m) and "jsonrpc" in m and ("result" in m or "error" in m)),
    ("chat_response", lambda m: _d(m) and m.get("object") == "chat.completion"),
    (
        "anthropic_response",
        lambda m: _d(m) and m.get("type") == "message" and "stop_reason" in m and "content" in m,
    ),
    (
        "anthropic_request",
        lambda m: (
            _d(m) and isinstance(m.get("messages"), list) and ("max_tokens" in m or _anthropic_blocks(m))
        ),
    ),
    ("chat_request", lambda m: _d(m) and isinstance(m.get("messages"), list) and "input" not in m),
    (
        "chat_tool_call",
        lambda m: (
            _d(m) and isinstance(m.get("function"), dict) and "id" in m and "arguments" in m["function"]
        ),
    ),
    ("chat_tool", lambda m: _d(m) and m.get("type") == "function" and isinstance(m.get("function"), dict)),
    ("chat_tool_message", lambda m: _d(m) and m.get("role") in ("tool", "function")),
    ("anthropic_tool", lambda m: _d(m) and "input_schema" in m),
    ("tool_use", lambda m: _d(m) and m.get("type") == "tool_use"),
    ("tool_result", lambda m: _d(m) and m.get("type") == "tool_result"),
    ("responses_response", lambda m: _d(m) and m.get("object") == "response"),
    ("responses_request", lambda m: _d(m) and "input" in m and ("model" in m or "tools" in m)),
    ("responses_tool", lambda m: _d(m) and m.get("type") == "function" and "parameters" in m),
    ("mcp_tool", lambda m: _d(m) and "name" in m and "inputSchema" in m),
    ("function_call", lambda m: _d(m) and m.get("type") == "function_call"),
    ("function_call_output", lambda m: _d(m) and m.get("type") == "function_call_output"),
    ("user_message", lambda m: _d(m) and m.get("role") == "user" and "content" in m),
    ("assistant_message", lambda m: _d(m) and m.get("role") == "assistant" and "content" in m),
    ("instruction_message", lambda m: _d(m) and m.get("role") in ("system", "developer")),
    (
        "mcp_call_params",
        lambda m: _d(m) and isinstance(m.get("arguments"), dict) and set(m) <= {"name", "arguments", "_meta"},
    ),
    (
        "mcp_call_result",
        lambda m: (
            _d(m)
            and isinstance(m.get("content"), list)
            and set(m) <= {"content", "isError", "structuredContent", "_meta"}
        ),
    ),
]


def first_match(message: Any) -> str | None:
    """The type the first test that holds names, as before issue 22 (None: no test holds)."""
    return next((name for name, test in BEFORE if test(message)), None)
