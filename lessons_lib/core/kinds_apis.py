"""Field kinds of the Chat Completions and Anthropic Messages shapes. Introduced in lesson 20.

The same declared-table method as ``lessons_lib.core.kinds`` (which merges these tables and
detectors into its own): one table per message type, the first matching pattern gives a
field's kind. The rule (``function.parameters`` / ``input_schema``) is a rule in every API;
the model's ``arguments`` text (Chat) and ``input`` object (Anthropic) are the call's value;
``role: "tool"`` content and ``tool_result`` content are results; ``tool_call_id`` and
``tool_use_id`` are identifiers; request settings (``model``, ``tool_choice``,
``max_tokens``...) are settings, as in the Responses tables. Standard library only,
imports nothing from ``kinds`` (it is imported by it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from lessons_lib.core.messages import zh

Row = tuple[str, str] | tuple[str, str, str]
R: Final = "rule"
SET: Final = "setting"
V: Final = "value"
S: Final = "result"
ID: Final = "identifier"
E: Final = "envelope"


def _deep(name: str, kind: str) -> list[Row]:
    """A field and everything under it."""
    return [(name, kind), (f"{name}.**", kind)]


def _at(prefix: str, rows: Sequence[Row]) -> list[Row]:
    """Rows relative to ``prefix`` (``""`` is the prefix itself, ``[...]`` an index of it)."""
    return [
        (prefix if not r[0] else prefix + r[0] if r[0].startswith("[") else f"{prefix}.{r[0]}", *r[1:])
        for r in rows
    ]


# fmt: off
# ------------------------------------------------------------------ Chat Completions
CHAT_TOOL: Final[list[Row]] = [
    ("", R), ("type", E), ("function", E), ("function.name", ID), ("function.description", R),
    *_deep("function.parameters", R), ("function.strict", R),
]
CHAT_TOOL_CALL: Final[list[Row]] = [
    ("", E), ("id", ID), ("type", E), ("function", E), ("function.name", ID), ("function.arguments", V),
]
CHAT_LEGACY_FUNCTION: Final[list[Row]] = [("", R), ("name", ID), ("description", R), *_deep("parameters", R)]


def _chat_message(content_kind: str) -> list[Row]:
    return [
        ("", E), ("role", E), ("name", ID), ("content", content_kind), ("content[*]", E),
        ("content[*].type", E), ("content[*].**", content_kind), ("refusal", S), *_deep("annotations", S),
        ("tool_calls", E), *_at("tool_calls[*]", CHAT_TOOL_CALL),
        ("function_call", E), ("function_call.name", ID), ("function_call.arguments", V),
        ("tool_call_id", ID), *_deep("audio", S),
    ]


CHAT_TOOL_MESSAGE: Final = _chat_message(S)  # role "tool" (and the deprecated "function"): the result
CHAT_SETTINGS: Final[list[Row]] = [
    ("model", SET), *_deep("tool_choice", SET), ("parallel_tool_calls", SET), ("temperature", SET),
    ("top_p", SET), ("max_tokens", SET), ("max_completion_tokens", SET), ("n", SET), ("stream", SET),
    ("store", SET), ("seed", SET),
    *_deep("stop", SET), *_deep("response_format", SET), ("reasoning_effort", SET), ("service_tier", SET),
    *_deep("function_call", SET), ("functions", R), *_at("functions[*]", CHAT_LEGACY_FUNCTION),
    ("tools", R), *_at("tools[*]", CHAT_TOOL), ("user", ID), ("safety_identifier", ID),
    ("prompt_cache_key", ID), *_deep("metadata", E),
]
CHAT_REQUEST: Final[list[Row]] = [
    ("", E), ("messages", E),
    *_at("messages[role=user]", _chat_message(V)),
    *_at("messages[role=system]", _chat_message(R)), *_at("messages[role=developer]", _chat_message(R)),
    *_at("messages[role=assistant]", _chat_message(S)),
    *_at("messages[role=tool]", CHAT_TOOL_MESSAGE), *_at("messages[role=function]", CHAT_TOOL_MESSAGE),
    ("messages[*]", E), ("messages[*].role", E),
    *CHAT_SETTINGS,
]
CHAT_RESPONSE: Final[list[Row]] = [
    ("", E), ("id", ID), ("object", E), ("created", E), ("model", SET), ("service_tier", SET),
    ("system_fingerprint", E), ("choices", E), ("choices[*]", E), ("choices[*].index", E),
    ("choices[*].finish_reason", E), *_deep("choices[*].logprobs", E),
    *_at("choices[*].message", _chat_message(S)), *_deep("usage", E),
]

# ------------------------------------------------------------------ Anthropic Messages
ANTHROPIC_TOOL: Final[list[Row]] = [
    ("", R), ("type", E), ("name", ID), ("description", R), *_deep("input_schema", R), ("strict", R),
    *_deep("cache_control", E),
]
TOOL_USE: Final[list[Row]] = [
    ("", E), ("type", E), ("id", ID), ("name", ID), *_deep("input", V), *_deep("caller", E),
]
TOOL_RESULT: Final[list[Row]] = [
    ("", E), ("type", E), ("tool_use_id", ID), ("content", S), ("content[*]", E), ("content[*].type", E),
    ("content[*].**", S), ("is_error", S), *_deep("cache_control", E),
]


def _blocks(array: str, text_kind: str) -> list[Row]:
    return [
        *_at(f"{array}[type=tool_use]", TOOL_USE), *_at(f"{array}[type=tool_result]", TOOL_RESULT),
        (f"{array}[type=text]", E), (f"{array}[type=text].type", E), (f"{array}[type=text].text", text_kind),
        *_deep(f"{array}[type=text].citations", S), (f"{array}[*]", E), (f"{array}[*].type", E),
    ]


def _anthropic_message(text_kind: str) -> list[Row]:
    return [
        ("", E), ("role", E), ("content", text_kind, "text"), ("content", E), *_blocks("content", text_kind),
    ]


ANTHROPIC_REQUEST: Final[list[Row]] = [
    ("", E), ("messages", E),
    *_at("messages[role=user]", _anthropic_message(V)),
    *_at("messages[role=assistant]", _anthropic_message(S)),
    ("messages[*]", E), ("messages[*].role", E),
    ("model", SET), ("max_tokens", SET), ("system", R), *_deep("system", R), *_deep("tool_choice", SET),
    ("tools", R), *_at("tools[*]", ANTHROPIC_TOOL), ("temperature", SET), ("top_p", SET), ("top_k", SET),
    *_deep("stop_sequences", SET), ("stream", SET), *_deep("thinking", SET), ("service_tier", SET),
    ("metadata", E), ("metadata.user_id", ID), *_deep("metadata", E),
]
ANTHROPIC_RESPONSE: Final[list[Row]] = [
    ("", E), ("id", ID), ("type", E), ("role", E), ("model", SET), ("content", E), *_blocks("content", S),
    ("stop_reason", E), ("stop_sequence", E), *_deep("stop_details", E), *_deep("usage", E),
    *_deep("container", E), *_deep("diagnostics", E),
]
# fmt: on

TABLES: Final[dict[str, list[Row]]] = {
    "chat_request": CHAT_REQUEST,
    "chat_response": CHAT_RESPONSE,
    "anthropic_request": ANTHROPIC_REQUEST,
    "anthropic_response": ANTHROPIC_RESPONSE,
    "chat_tool": CHAT_TOOL,
    "chat_tool_call": CHAT_TOOL_CALL,
    "chat_tool_message": CHAT_TOOL_MESSAGE,
    "anthropic_tool": ANTHROPIC_TOOL,
    "tool_use": TOOL_USE,
    "tool_result": TOOL_RESULT,
}

TYPE_TITLES: Final[dict[str, str]] = {name: zh(f"type.{name}") for name in TABLES}
"""Each type's Chinese title (catalogue ``type.<name>``); ``kindtables.type_title`` speaks the language."""


def _d(m: Any) -> bool:
    return isinstance(m, dict)


def _anthropic_blocks(m: dict[str, Any]) -> bool:
    for message in m.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list) and any(
            isinstance(b, dict) and b.get("type") in {"tool_use", "tool_result"} for b in content
        ):
            return True
    return any(isinstance(t, dict) and "input_schema" in t for t in m.get("tools") or [])


DETECTORS: Final[list[tuple[str, Callable[[Any], bool]]]] = [
    # tried before the Responses fragments (an Anthropic response is also a type "message")
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
    ("chat_tool_message", lambda m: _d(m) and m.get("role") in {"tool", "function"}),
    ("anthropic_tool", lambda m: _d(m) and "input_schema" in m),
    ("tool_use", lambda m: _d(m) and m.get("type") == "tool_use"),
    ("tool_result", lambda m: _d(m) and m.get("type") == "tool_result"),
]
