"""The declared tables: for each message type, which field pattern has which kind. Lesson 03.

One table per message type, read top to bottom: the first pattern that matches a field's path
gives its kind. ``NEST`` marks a subtree that is a message of its own (a trace event's body, a
Responses input item). ``TABLES`` holds the kernel's own (Responses, MCP, the trace and the
attachments); each other API's are in its folder (``apis/<name>/kinds.py``), named by its
registry entry's ``tables`` and merged by :func:`tables` on first use. Standard library only.
"""

from __future__ import annotations

from typing import Final

from lessons_lib.core.fieldkinds.kindrows import ID, NEST, SET, E, R, Row, S, V, at, deep
from lessons_lib.core.fieldpath import Pattern
from lessons_lib.core.messages import catalogue, t
from lessons_lib.core.plugins.apiregistry import apis

# fmt: off
RESPONSES_TOOL: Final[list[Row]] = [
    ("", R), ("type", E), ("name", ID), ("description", R), *deep("parameters", R), ("strict", R),
]
MCP_TOOL: Final[list[Row]] = [
    ("", R), ("name", ID), ("title", R), ("description", R), *deep("inputSchema", R),
    *deep("outputSchema", R), *deep("annotations", R), *deep("icons", R), *deep("_meta", E),
]
FUNCTION_CALL: Final[list[Row]] = [
    ("", E), ("type", E), ("id", ID), ("call_id", ID), ("name", ID), ("arguments", V), ("status", E),
]
FUNCTION_CALL_OUTPUT: Final[list[Row]] = [
    ("", E), ("type", E), ("id", ID), ("call_id", ID), ("status", E), ("output", S),
    ("output[*]", E), ("output[*].type", E), ("output[*].**", S),
]


def _message(content_kind: str) -> list[Row]:
    return [
        ("", E), ("type", E), ("role", E), ("id", ID), ("status", E), ("content", content_kind),
        ("content[*]", E), ("content[*].type", E), ("content[*].text", content_kind),
        ("content[*].**", content_kind),
    ]


USER_MESSAGE: Final = _message(V)  # the user's task: this call's value
ASSISTANT_MESSAGE: Final = _message(V)  # the model's answer: a value the model wrote; no execution made it
INSTRUCTION_MESSAGE: Final = _message(R)  # system / developer text: how to behave
MCP_CALL_RESULT: Final[list[Row]] = [
    ("", E), ("content", S), ("content[*]", E), ("content[*].type", E), ("content[*].mimeType", E),
    *deep("content[*].annotations", E), *deep("content[*]._meta", E), ("content[*].text", S),
    ("content[*].**", S),
    ("isError", S), *deep("structuredContent", S), *deep("_meta", E), ("resultType", E),
]
MCP_CALL_PARAMS: Final[list[Row]] = [("", E), ("name", ID), *deep("arguments", V), *deep("_meta", E)]

_CONFIG: Final[list[Row]] = [  # request options that a response echoes back: rules and settings
    ("model", SET), ("instructions", R), *deep("tool_choice", SET),
    ("tools", R), *at("tools[*]", RESPONSES_TOOL), ("parallel_tool_calls", SET), ("max_tool_calls", SET),
    ("store", SET), ("stream", SET), ("temperature", SET), ("top_p", SET), ("top_logprobs", SET),
    ("max_output_tokens", SET), ("truncation", SET), *deep("text", SET), *deep("reasoning", SET),
    *deep("include", SET), ("background", SET), ("service_tier", SET),
    ("previous_response_id", ID), *deep("conversation", ID), ("user", ID), ("safety_identifier", ID),
    ("prompt_cache_key", ID), *deep("metadata", E),
]


def _items(array: str, *, answer_kind: str) -> list[Row]:
    return [
        *at(f"{array}[type=function_call]", FUNCTION_CALL),
        *at(f"{array}[type=function_call_output]", FUNCTION_CALL_OUTPUT),
        *at(f"{array}[role=user]", USER_MESSAGE),
        *at(f"{array}[role=assistant]", _message(answer_kind)),
        *at(f"{array}[role=system]", INSTRUCTION_MESSAGE),
        *at(f"{array}[role=developer]", INSTRUCTION_MESSAGE),
        (f"{array}[*]", E), (f"{array}[*].type", E), (f"{array}[*].id", ID), (f"{array}[*].status", E),
    ]


RESPONSES_REQUEST: Final[list[Row]] = [
    ("", E), ("input", V, "text"), ("input", E), *_items("input", answer_kind=V), *_CONFIG,
]
RESPONSES_RESPONSE: Final[list[Row]] = [
    ("", E), ("id", ID), ("object", E), ("created_at", E), ("completed_at", E), ("status", E),
    *deep("error", E), *deep("incomplete_details", E), ("output", E), *_items("output", answer_kind=V),
    ("output_text", V), *_CONFIG, *deep("usage", E),
]
_MCP_REQUEST: Final[list[Row]] = [
    ("", E), ("jsonrpc", E), ("method", E), ("id", ID), ("params", E),
    ("params._meta.progressToken", ID), *deep("params._meta", E),
]
_MCP_RESPONSE: Final[list[Row]] = [("", E), ("jsonrpc", E), ("id", ID), ("result", E)]

TABLES: Final[dict[str, list[Row]]] = {
    "responses_request": RESPONSES_REQUEST,
    "responses_response": RESPONSES_RESPONSE,
    "mcp_request/tools/call": [*_MCP_REQUEST, *at("params", MCP_CALL_PARAMS)],
    "mcp_request/tools/list": [*_MCP_REQUEST, ("params.cursor", ID)],
    "mcp_request/initialize": [
        *_MCP_REQUEST, ("params.protocolVersion", R), *deep("params.capabilities", R),
        *deep("params.clientInfo", ID),
    ],
    "mcp_request": _MCP_REQUEST,
    "mcp_response/tools/call": [*_MCP_RESPONSE, *at("result", MCP_CALL_RESULT)],
    "mcp_response/tools/list": [
        *_MCP_RESPONSE, ("result.tools", R), *at("result.tools[*]", MCP_TOOL), ("result.nextCursor", ID),
        *deep("result._meta", E),
    ],
    "mcp_response/initialize": [
        *_MCP_RESPONSE, ("result.protocolVersion", R), *deep("result.capabilities", R),
        *deep("result.serverInfo", ID), ("result.instructions", R), *deep("result._meta", E),
    ],
    "mcp_response/error": [
        ("", E), ("jsonrpc", E), ("id", ID), ("error", E), ("error.code", E), ("error.message", E),
        *deep("error.data", E),  # a refused request: nothing ran, so nothing here is a result
    ],
    "mcp_response": [*_MCP_RESPONSE, *deep("result._meta", E)],
    # fragments: parts of the messages above, as the verifier's attachments hold them
    "responses_tool": RESPONSES_TOOL,
    "mcp_tool": MCP_TOOL,
    "function_call": FUNCTION_CALL,
    "function_call_output": FUNCTION_CALL_OUTPUT,
    "user_message": USER_MESSAGE,
    "assistant_message": ASSISTANT_MESSAGE,
    "instruction_message": INSTRUCTION_MESSAGE,
    "mcp_call_params": MCP_CALL_PARAMS,
    "mcp_call_result": MCP_CALL_RESULT,
    # a whole trace file (lessons_lib.trace/1): bodies are classified as messages of their own
    "trace": [
        ("", E), ("format", E), ("task", V), *deep("model", SET), ("tools", E), ("tools[*]", E),
        ("tools[*].**", ID), ("events", E), ("events[*]", E), ("events[*].seq", ID),
        ("events[*].body", NEST), ("events[*].*", E), ("links", E), ("links[*]", E), ("links[*].*", ID),
        ("answer", V), *deep("outcome", E),
    ],
    # the verifier's attachments (lesson 07): each part is classified by its own shape
    "field_fragments": [
        ("", E), ("format", E), ("note", E), ("declaration", NEST), ("mcp_declaration", NEST),
        ("model_call", NEST), ("mcp_request", NEST), ("mcp_result", NEST), ("feedback", NEST),
        ("link", E), ("link.*", ID),
    ],
    "roundtrip": [
        ("", E), ("format", E), ("note", E), ("request_1", NEST), ("response_1", NEST), ("mcp_request", NEST),
        ("mcp_response", NEST), ("request_2", NEST), ("response_2", NEST), ("links", E), ("links[*]", E),
        ("links[*].*", ID), ("api", E),  # the API a round trip of data/chat/ or data/anthropic/ speaks
    ],
}

TYPE_TITLES: Final[dict[str, str]] = {
    key.removeprefix("type."): texts["zh"] for key, texts in catalogue().items() if key.startswith("type.")
}
"""Each message type's Chinese title; :func:`type_title` gives it in the current language."""

# fmt: on

_MERGED: dict[tuple[str, ...], dict[str, list[Row]]] = {}
_COMPILED: dict[str, tuple[list[Row], list[tuple[Pattern, str, str | None]]]] = {}


def tables() -> dict[str, list[Row]]:
    """The kernel's ``TABLES`` and every API's own (its registry entry's ``tables``), in the
    registry's order."""
    entries = apis()
    key = tuple(e.name for e in entries)
    merged = _MERGED.get(key)
    if merged is None:
        merged = dict(TABLES)
        for entry in entries:
            merged.update(entry.tables or {})
        _MERGED[key] = merged
    return merged


def compiled_table(message_type: str) -> list[tuple[Pattern, str, str | None]]:
    """The table of ``message_type`` (one of ``tables()``), its patterns compiled once."""
    rows = tables()[message_type]
    cached = _COMPILED.get(message_type)
    if cached is None or cached[0] is not rows:
        cached = rows, [(Pattern.compile(row[0]), row[1], row[2] if len(row) > 2 else None) for row in rows]
        _COMPILED[message_type] = cached
    return cached[1]


def type_title(message_type: str) -> str:
    """A message type's title in the current language (the type itself when it has none)."""
    key = f"type.{message_type}"
    return t(key) if key in catalogue() else message_type
