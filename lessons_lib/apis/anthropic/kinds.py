"""Field kinds of the Anthropic Messages shapes, and how to tell them (lessons 20-22).

Held by the API's entry (``tables``, ``detectors``), read by the kernel (``core.kindtables``,
``core.msgtype``), in the declared-table method of lesson 03: one table per message type, the
first matching pattern gives a field's kind. ``input_schema`` is the rule, a ``tool_use``
block's ``input`` object the call's value, a ``tool_result`` block's content the result,
``tool_use_id`` an identifier, request settings (``model``, ``max_tokens``, ``tool_choice``...)
settings, as in the Responses tables. Standard library only.
"""

from __future__ import annotations

from typing import Final, TypeGuard

from lessons_lib.core.fieldkinds.kindrows import ID, SET, Detector, E, R, Row, S, V, at, deep
from lessons_lib.core.jsonvalue import JSON, JSONObject, objects

# fmt: off
ANTHROPIC_TOOL: Final[list[Row]] = [
    ("", R), ("type", E), ("name", ID), ("description", R), *deep("input_schema", R), ("strict", R),
    *deep("cache_control", E),
]
TOOL_USE: Final[list[Row]] = [
    ("", E), ("type", E), ("id", ID), ("name", ID), *deep("input", V), *deep("caller", E),
]
TOOL_RESULT: Final[list[Row]] = [
    ("", E), ("type", E), ("tool_use_id", ID), ("content", S), ("content[*]", E), ("content[*].type", E),
    ("content[*].**", S), ("is_error", S), *deep("cache_control", E),
]


def _blocks(array: str, text_kind: str) -> list[Row]:
    return [
        *at(f"{array}[type=tool_use]", TOOL_USE), *at(f"{array}[type=tool_result]", TOOL_RESULT),
        (f"{array}[type=text]", E), (f"{array}[type=text].type", E), (f"{array}[type=text].text", text_kind),
        *deep(f"{array}[type=text].citations", text_kind), (f"{array}[*]", E), (f"{array}[*].type", E),
    ]


def _anthropic_message(text_kind: str) -> list[Row]:
    return [
        ("", E), ("role", E), ("content", text_kind, "text"), ("content", E), *_blocks("content", text_kind),
    ]


ANTHROPIC_REQUEST: Final[list[Row]] = [
    ("", E), ("messages", E),
    *at("messages[role=user]", _anthropic_message(V)),
    *at("messages[role=assistant]", _anthropic_message(V)),
    ("messages[*]", E), ("messages[*].role", E),
    ("model", SET), ("max_tokens", SET), ("system", R), *deep("system", R), *deep("tool_choice", SET),
    ("tools", R), *at("tools[*]", ANTHROPIC_TOOL), ("temperature", SET), ("top_p", SET), ("top_k", SET),
    *deep("stop_sequences", SET), ("stream", SET), *deep("thinking", SET), ("service_tier", SET),
    ("metadata", E), ("metadata.user_id", ID), *deep("metadata", E),
]
ANTHROPIC_RESPONSE: Final[list[Row]] = [
    ("", E), ("id", ID), ("type", E), ("role", E), ("model", SET), ("content", E), *_blocks("content", V),
    ("stop_reason", E), ("stop_sequence", E), *deep("stop_details", E), *deep("usage", E),
    *deep("container", E), *deep("diagnostics", E),
]
# fmt: on

TABLES: Final[dict[str, list[Row]]] = {
    "anthropic_request": ANTHROPIC_REQUEST,
    "anthropic_response": ANTHROPIC_RESPONSE,
    "anthropic_tool": ANTHROPIC_TOOL,
    "tool_use": TOOL_USE,
    "tool_result": TOOL_RESULT,
}
"""Each message type's table; its title is the catalogue's ``type.<name>``."""


def _d(m: JSON) -> TypeGuard[JSONObject]:
    return isinstance(m, dict)


def _anthropic_blocks(m: JSONObject) -> bool:
    for message in objects(m.get("messages")):
        content = message.get("content")
        if isinstance(content, list) and any(
            isinstance(b, dict) and b.get("type") in ("tool_use", "tool_result") for b in content
        ):
            return True
    return any("input_schema" in t for t in objects(m.get("tools")))


DETECTORS: Final[list[Detector]] = [
    Detector(
        "anthropic_response",
        "marked",
        lambda m: _d(m) and m.get("type") == "message" and "stop_reason" in m and "content" in m,
    ),
    # narrow: a messages request with Anthropic's marks, tried before the broad messages test (Chat)
    Detector(
        "anthropic_request",
        "narrow",
        lambda m: (
            _d(m) and isinstance(m.get("messages"), list) and ("max_tokens" in m or _anthropic_blocks(m))
        ),
    ),
    Detector("anthropic_tool", "part", lambda m: _d(m) and "input_schema" in m),
    Detector("tool_use", "part", lambda m: _d(m) and m.get("type") == "tool_use"),
    Detector("tool_result", "part", lambda m: _d(m) and m.get("type") == "tool_result"),
]
"""Which Anthropic Messages type a JSON value is, each test with its tier (``core.kindrows.TIERS``)."""
