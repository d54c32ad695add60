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

R: Final = "rule"
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

_CONFIG: Final[list[Row]] = [  # request options that a response echoes back: how to produce, = rules
    ("model", R), ("instructions", R), *_tree("tool_choice", R),
    ("tools", R), *_under("tools[*]", RESPONSES_TOOL), ("parallel_tool_calls", R), ("max_tool_calls", R),
    ("store", R), ("stream", R), ("temperature", R), ("top_p", R), ("top_logprobs", R),
    ("max_output_tokens", R), ("truncation", R), *_tree("text", R), *_tree("reasoning", R),
    *_tree("include", R), ("background", R), ("service_tier", R),
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
        ("", E), ("jsonrpc", E), ("id", ID), ("error", E), ("error.code", E), ("error.message", S),
        *_tree("error.data", S),
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
        ("", E), ("format", E), ("task", V), *_tree("model", R), ("tools", E), ("tools[*]", E),
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
    "responses_request": "Responses 请求（POST /v1/responses）",
    "responses_response": "Responses 响应",
    "mcp_request/tools/call": "MCP 请求 tools/call",
    "mcp_request/tools/list": "MCP 请求 tools/list",
    "mcp_request/initialize": "MCP 请求 initialize",
    "mcp_request": "MCP 请求（其他方法）",
    "mcp_response/tools/call": "MCP 响应 tools/call",
    "mcp_response/tools/list": "MCP 响应 tools/list",
    "mcp_response/initialize": "MCP 响应 initialize",
    "mcp_response/error": "MCP 协议错误响应",
    "mcp_response": "MCP 响应（其他方法）",
    "responses_tool": "片段：Responses 工具声明",
    "mcp_tool": "片段：MCP 工具声明",
    "function_call": "片段：function_call 调用项",
    "function_call_output": "片段：function_call_output 反馈项",
    "user_message": "片段：用户消息",
    "assistant_message": "片段：助手消息",
    "instruction_message": "片段：system/developer 消息",
    "mcp_call_params": "片段：MCP tools/call 的 params",
    "mcp_call_result": "片段：MCP tools/call 的 result",
    "trace": "运行记录（trace）",
    "field_fragments": "字段片段（field_fragments.json）",
    "roundtrip": "完整往返（responses_roundtrip.json）",
    "bundle": "消息集合（各部分按自身形状分类）",
    "unclassified": "未识别的形状（未分类）",
}

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
