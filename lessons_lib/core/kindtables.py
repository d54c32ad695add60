"""The declared tables: for each message type, which field pattern has which kind. Lesson 03.

One table per message type (``TABLES``), read top to bottom: the first pattern that matches a
field's path gives its kind. ``NEST`` marks a subtree that is a message of its own (a trace
event's body, a Responses input item). Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from lessons_lib.core import kinds_apis
from lessons_lib.core.fieldpath import Pattern
from lessons_lib.core.messages import catalogue, t

R: Final = "rule"
SET: Final = "setting"  # request settings: how this request is handled, not how arguments are filled
V: Final = "value"
S: Final = "result"
ID: Final = "identifier"
E: Final = "envelope"
NEST: Final = "nest"  # the subtree is a message of its own: classify it by its own shape

# fmt: off
Row = tuple[str, str] | tuple[str, str, str]  # (pattern, kind) or (pattern, kind, "text"|"container")


def _under(prefix: str, rows: Sequence[Row]) -> list[Row]:
    """Re-root relative rows at ``prefix`` (``""`` -> the prefix itself)."""
    out: list[Row] = []
    for row in rows:
        pat = row[0]
        full = prefix if not pat else prefix + pat if pat.startswith("[") else f"{prefix}.{pat}"
        out.append((full, *row[1:]))
    return out


def _tree(name: str, kind: str) -> list[Row]:
    return [(name, kind), (f"{name}.**", kind)]


RESPONSES_TOOL: Final[list[Row]] = [
    ("", R), ("type", E), ("name", ID), ("description", R), *_tree("parameters", R), ("strict", R),
]
MCP_TOOL: Final[list[Row]] = [
    ("", R), ("name", ID), ("title", R), ("description", R), *_tree("inputSchema", R),
    *_tree("outputSchema", R), *_tree("annotations", R), *_tree("icons", R), *_tree("_meta", E),
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
ASSISTANT_MESSAGE: Final = _message(S)  # the model's answer: produced by running the model
INSTRUCTION_MESSAGE: Final = _message(R)  # system / developer text: how to behave
MCP_CALL_RESULT: Final[list[Row]] = [
    ("", E), ("content", S), ("content[*]", E), ("content[*].type", E), ("content[*].mimeType", E),
    *_tree("content[*].annotations", E), *_tree("content[*]._meta", E), ("content[*].text", S),
    ("content[*].**", S),
    ("isError", S), *_tree("structuredContent", S), *_tree("_meta", E), ("resultType", E),
]
MCP_CALL_PARAMS: Final[list[Row]] = [("", E), ("name", ID), *_tree("arguments", V), *_tree("_meta", E)]

_CONFIG: Final[list[Row]] = [  # request options that a response echoes back: rules and settings
    ("model", SET), ("instructions", R), *_tree("tool_choice", SET),
    ("tools", R), *_under("tools[*]", RESPONSES_TOOL), ("parallel_tool_calls", SET), ("max_tool_calls", SET),
    ("store", SET), ("stream", SET), ("temperature", SET), ("top_p", SET), ("top_logprobs", SET),
    ("max_output_tokens", SET), ("truncation", SET), *_tree("text", SET), *_tree("reasoning", SET),
    *_tree("include", SET), ("background", SET), ("service_tier", SET),
    ("previous_response_id", ID), *_tree("conversation", ID), ("user", ID), ("safety_identifier", ID),
    ("prompt_cache_key", ID), *_tree("metadata", E),
]


def _items(array: str, *, answer_kind: str) -> list[Row]:
    return [
        *_under(f"{array}[type=function_call]", FUNCTION_CALL),
        *_under(f"{array}[type=function_call_output]", FUNCTION_CALL_OUTPUT),
        *_under(f"{array}[role=user]", USER_MESSAGE),
        *_under(f"{array}[role=assistant]", _message(answer_kind)),
        *_under(f"{array}[role=system]", INSTRUCTION_MESSAGE),
        *_under(f"{array}[role=developer]", INSTRUCTION_MESSAGE),
        (f"{array}[*]", E), (f"{array}[*].type", E), (f"{array}[*].id", ID), (f"{array}[*].status", E),
    ]


RESPONSES_REQUEST: Final[list[Row]] = [
    ("", E), ("input", V, "text"), ("input", E), *_items("input", answer_kind=S), *_CONFIG,
]
RESPONSES_RESPONSE: Final[list[Row]] = [
    ("", E), ("id", ID), ("object", E), ("created_at", E), ("completed_at", E), ("status", E),
    *_tree("error", E), *_tree("incomplete_details", E), ("output", E), *_items("output", answer_kind=S),
    ("output_text", S), *_CONFIG, *_tree("usage", E),
]
_MCP_REQUEST: Final[list[Row]] = [
    ("", E), ("jsonrpc", E), ("method", E), ("id", ID), ("params", E),
    ("params._meta.progressToken", ID), *_tree("params._meta", E),
]
_MCP_RESPONSE: Final[list[Row]] = [("", E), ("jsonrpc", E), ("id", ID), ("result", E)]

TABLES: Final[dict[str, list[Row]]] = {
    "responses_request": RESPONSES_REQUEST,
    "responses_response": RESPONSES_RESPONSE,
    "mcp_request/tools/call": [*_MCP_REQUEST, *_under("params", MCP_CALL_PARAMS)],
    "mcp_request/tools/list": [*_MCP_REQUEST, ("params.cursor", ID)],
    "mcp_request/initialize": [
        *_MCP_REQUEST, ("params.protocolVersion", R), *_tree("params.capabilities", R),
        *_tree("params.clientInfo", ID),
    ],
    "mcp_request": _MCP_REQUEST,
    "mcp_response/tools/call": [*_MCP_RESPONSE, *_under("result", MCP_CALL_RESULT)],
    "mcp_response/tools/list": [
        *_MCP_RESPONSE, ("result.tools", R), *_under("result.tools[*]", MCP_TOOL), ("result.nextCursor", ID),
        *_tree("result._meta", E),
    ],
    "mcp_response/initialize": [
        *_MCP_RESPONSE, ("result.protocolVersion", R), *_tree("result.capabilities", R),
        *_tree("result.serverInfo", ID), ("result.instructions", R), *_tree("result._meta", E),
    ],
    "mcp_response/error": [
        ("", E), ("jsonrpc", E), ("id", ID), ("error", E), ("error.code", E), ("error.message", E),
        *_tree("error.data", E),  # a refused request: nothing ran, so nothing here is a result
    ],
    "mcp_response": [*_MCP_RESPONSE, *_tree("result._meta", E)],
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
        ("", E), ("format", E), ("task", V), *_tree("model", SET), ("tools", E), ("tools[*]", E),
        ("tools[*].**", ID), ("events", E), ("events[*]", E), ("events[*].seq", ID),
        ("events[*].body", NEST), ("events[*].*", E), ("links", E), ("links[*]", E), ("links[*].*", ID),
        ("answer", S), *_tree("outcome", E),
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
        ("links[*].*", ID),
    ],
}

TYPE_TITLES: Final[dict[str, str]] = {
    key.removeprefix("type."): texts["zh"] for key, texts in catalogue().items() if key.startswith("type.")
}
"""Each message type's Chinese title; :func:`type_title` gives it in the current language."""

# fmt: on

# The Chat Completions and Anthropic Messages shapes (lesson 20): their own tables, and the API
# a round trip of data/chat/ or data/anthropic/ speaks.
TABLES.update(kinds_apis.TABLES)
TYPE_TITLES.update(kinds_apis.TYPE_TITLES)
TABLES["roundtrip"].append(("api", E))

_COMPILED: dict[str, list[tuple[Pattern, str, str | None]]] = {}


def compiled_table(message_type: str) -> list[tuple[Pattern, str, str | None]]:
    if message_type not in _COMPILED:
        _COMPILED[message_type] = [
            (Pattern.compile(row[0]), row[1], row[2] if len(row) > 2 else None)
            for row in TABLES[message_type]
        ]
    return _COMPILED[message_type]


def type_title(message_type: str) -> str:
    """A message type's title in the current language (the type itself when it has none)."""
    if f"type.{message_type}" in catalogue():
        return t(f"type.{message_type}")
    return TYPE_TITLES.get(message_type, message_type)  # kinds_apis' titles: not yet in the catalogue
