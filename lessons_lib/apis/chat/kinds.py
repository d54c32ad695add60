"""Field kinds of the Chat Completions shapes, and how to tell them (lessons 20-22).

Held by the API's entry (``tables``, ``detectors``), read by the kernel (``core.kindtables``,
``core.msgtype``), in the declared-table method of lesson 03: one table per message type, the
first matching pattern gives a field's kind. ``function.parameters`` is the rule, the model's
``arguments`` text the call's value, a ``role: "tool"`` message's content the result,
``tool_call_id`` an identifier, request settings (``model``, ``tool_choice``, ``max_tokens``...)
settings, as in the Responses tables. Standard library only.
"""

from __future__ import annotations

from typing import Final, TypeGuard

from lessons_lib.core.fieldkinds.kindrows import ID, SET, Detector, E, R, Row, S, V, at, deep
from lessons_lib.core.jsonvalue import JSON, JSONObject

# fmt: off
CHAT_TOOL: Final[list[Row]] = [
    ("", R), ("type", E), ("function", E), ("function.name", ID), ("function.description", R),
    *deep("function.parameters", R), ("function.strict", R),
]
CHAT_TOOL_CALL: Final[list[Row]] = [
    ("", E), ("id", ID), ("type", E), ("function", E), ("function.name", ID), ("function.arguments", V),
]
CHAT_LEGACY_FUNCTION: Final[list[Row]] = [("", R), ("name", ID), ("description", R), *deep("parameters", R)]


def _chat_message(content_kind: str) -> list[Row]:
    return [
        ("", E), ("role", E), ("name", ID), ("content", content_kind), ("content[*]", E),
        ("content[*].type", E), ("content[*].**", content_kind), ("refusal", content_kind),
        *deep("annotations", content_kind),
        ("tool_calls", E), *at("tool_calls[*]", CHAT_TOOL_CALL),
        ("function_call", E), ("function_call.name", ID), ("function_call.arguments", V),
        ("tool_call_id", ID), *deep("audio", content_kind),
    ]


CHAT_TOOL_MESSAGE: Final = _chat_message(S)  # role "tool" (and the deprecated "function"): the result
CHAT_SETTINGS: Final[list[Row]] = [
    ("model", SET), *deep("tool_choice", SET), ("parallel_tool_calls", SET), ("temperature", SET),
    ("top_p", SET), ("max_tokens", SET), ("max_completion_tokens", SET), ("n", SET), ("stream", SET),
    ("store", SET), ("seed", SET),
    *deep("stop", SET), *deep("response_format", SET), ("reasoning_effort", SET), ("service_tier", SET),
    *deep("function_call", SET), ("functions", R), *at("functions[*]", CHAT_LEGACY_FUNCTION),
    ("tools", R), *at("tools[*]", CHAT_TOOL), ("user", ID), ("safety_identifier", ID),
    ("prompt_cache_key", ID), *deep("metadata", E),
]
CHAT_REQUEST: Final[list[Row]] = [
    ("", E), ("messages", E),
    *at("messages[role=user]", _chat_message(V)),
    *at("messages[role=system]", _chat_message(R)), *at("messages[role=developer]", _chat_message(R)),
    *at("messages[role=assistant]", _chat_message(V)),
    *at("messages[role=tool]", CHAT_TOOL_MESSAGE), *at("messages[role=function]", CHAT_TOOL_MESSAGE),
    ("messages[*]", E), ("messages[*].role", E),
    *CHAT_SETTINGS,
]
CHAT_RESPONSE: Final[list[Row]] = [
    ("", E), ("id", ID), ("object", E), ("created", E), ("model", SET), ("service_tier", SET),
    ("system_fingerprint", E), ("choices", E), ("choices[*]", E), ("choices[*].index", E),
    ("choices[*].finish_reason", E), *deep("choices[*].logprobs", E),
    *at("choices[*].message", _chat_message(V)), *deep("usage", E),
]
# fmt: on

TABLES: Final[dict[str, list[Row]]] = {
    "chat_request": CHAT_REQUEST,
    "chat_response": CHAT_RESPONSE,
    "chat_tool": CHAT_TOOL,
    "chat_tool_call": CHAT_TOOL_CALL,
    "chat_tool_message": CHAT_TOOL_MESSAGE,
}
"""Each message type's table; its title is the catalogue's ``type.<name>``."""


def _d(m: JSON) -> TypeGuard[JSONObject]:
    return isinstance(m, dict)


DETECTORS: Final[list[Detector]] = [
    Detector("chat_response", "marked", lambda m: _d(m) and m.get("object") == "chat.completion"),
    # broad: any messages list, so an API whose requests also have one (Anthropic) says "narrow"
    Detector(
        "chat_request", "broad", lambda m: _d(m) and isinstance(m.get("messages"), list) and "input" not in m
    ),
    Detector(
        "chat_tool_call",
        "part",
        lambda m: _d(m) and "id" in m and _d(function := m.get("function")) and "arguments" in function,
    ),
    Detector(
        "chat_tool",
        "part",
        lambda m: _d(m) and m.get("type") == "function" and isinstance(m.get("function"), dict),
    ),
    # a tuple, not a set: in a JSON Schema "role" may be an object, which a set cannot hash
    Detector("chat_tool_message", "part", lambda m: _d(m) and m.get("role") in ("tool", "function")),
]
"""Which Chat Completions type a JSON value is, each test with its tier (``core.kindrows.TIERS``)."""
