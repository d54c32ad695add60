"""Which kind every field of a message is: rule, value, result, identifier or envelope.

Introduced in lesson 03. The kinds come from declared tables, one per message type, never
from guessing: a message's type is detected from its shape (``DETECTORS``), then the first
pattern of that type's table (``TABLES``) that matches a field's path gives its kind.
A field no pattern covers is shown as an envelope labelled "unclassified" (未分类).

Patterns use the path spelling of the field trees, ``tools[0].parameters.properties.path.type``,
plus wildcards: ``*`` any key, ``[*]`` any index, ``**`` any depth (zero or more steps), and
``[type=function_call]`` an index whose element has that field value.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from lessons_lib.core import kinds_apis
from lessons_lib.core.glossary import Kind

PathT = tuple[str | int, ...]
R: Final = "rule"
V: Final = "value"
S: Final = "result"
ID: Final = "identifier"
E: Final = "envelope"
NEST: Final = "nest"  # the subtree is a message of its own: classify it by its own shape

# ---------------------------------------------------------------- paths and patterns
_PLAIN_KEY = re.compile(r"^[A-Za-z_$@][\w$@/-]*$")
_TOKEN = re.compile(r'\.?(\*\*|\*|[A-Za-z_$@][\w$@/-]*)|\[(\*|\d+|[\w$@-]+=[^\]]*|"(?:[^"\\]|\\.)*")\]')


def format_path(path: Sequence[str | int]) -> str:
    """``("tools", 0, "name")`` -> ``tools[0].name``; the root is the empty string."""
    out = ""
    for seg in path:
        if isinstance(seg, int):
            out += f"[{seg}]"
        elif _PLAIN_KEY.match(seg) and seg not in {"*", "**"}:
            out += f".{seg}" if out else seg
        else:
            out += f"[{json.dumps(seg, ensure_ascii=False)}]"
    return out


def _tokens(text: str) -> list[tuple[str, Any]]:
    tokens: list[tuple[str, Any]] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or (m.group(0).startswith(".") and pos == 0):
            raise ValueError(f"cannot read the path {text!r} at position {pos}: write it like tools[0].name")
        key, sel = m.group(1), m.group(2)
        if key is not None:
            tokens.append(("deep", None) if key == "**" else ("anykey", None) if key == "*" else ("key", key))
        elif sel == "*":
            tokens.append(("anyindex", None))
        elif sel.isdigit():
            tokens.append(("index", int(sel)))
        elif sel.startswith('"'):
            tokens.append(("key", json.loads(sel)))
        else:
            field, _, want = sel.partition("=")
            tokens.append(("select", (field, want)))
        pos = m.end()
    return tokens


def parse_path(text: str) -> PathT:
    """``tools[0].name`` -> ``("tools", 0, "name")``; wildcards are not allowed here."""
    out: list[str | int] = []
    for kind, arg in _tokens(text):
        if kind not in {"key", "index"}:
            raise ValueError(f"{text!r} is a pattern, not a path: use a concrete path like tools[0].name")
        out.append(arg)
    return tuple(out)


@dataclass(frozen=True)
class Pattern:
    """A compiled path pattern; ``matches(path, nodes)`` needs the values along the path."""

    text: str
    tokens: tuple[tuple[str, Any], ...]

    @classmethod
    def compile(cls, text: str) -> Pattern:
        return cls(text, tuple(_tokens(text)))

    def matches(self, path: PathT, nodes: Sequence[Any]) -> bool:
        return _match(self.tokens, 0, path, 0, nodes)


def _match(tokens: Sequence[tuple[str, Any]], ti: int, path: PathT, pi: int, nodes: Sequence[Any]) -> bool:
    if ti == len(tokens):
        return pi == len(path)
    kind, arg = tokens[ti]
    if kind == "deep":
        return any(_match(tokens, ti + 1, path, p, nodes) for p in range(pi, len(path) + 1))
    if pi == len(path):
        return False
    seg = path[pi]
    if kind == "key":
        ok = seg == arg
    elif kind == "anykey":
        ok = isinstance(seg, str)
    elif kind == "index":
        ok = isinstance(seg, int) and seg == arg
    elif kind == "anyindex":
        ok = isinstance(seg, int)
    else:  # select
        element = nodes[pi + 1]
        ok = isinstance(seg, int) and isinstance(element, dict) and _as_text(element.get(arg[0])) == arg[1]
    return ok and _match(tokens, ti + 1, path, pi + 1, nodes)


def _as_text(value: Any) -> str | None:
    return value if isinstance(value, str) else None if value is None else json.dumps(value)


# ---------------------------------------------------------------- the declared tables
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

_COMPILED: dict[str, list[tuple[Pattern, str, str | None]]] = {}


def _table(message_type: str) -> list[tuple[Pattern, str, str | None]]:
    if message_type not in _COMPILED:
        _COMPILED[message_type] = [
            (Pattern.compile(row[0]), row[1], row[2] if len(row) > 2 else None)
            for row in TABLES[message_type]
        ]
    return _COMPILED[message_type]


# ---------------------------------------------------------------- detecting the type
_MCP_METHODS: Final = ("tools/call", "tools/list", "initialize")


def _mcp_response_type(d: dict[str, Any], method: str | None = None) -> str:
    if "error" in d:
        return "mcp_response/error"
    result = d.get("result")
    if isinstance(result, dict):
        if {"content", "isError", "structuredContent"} & set(result):
            return "mcp_response/tools/call"
        if "tools" in result:
            return "mcp_response/tools/list"
        if "protocolVersion" in result:
            return "mcp_response/initialize"
    return f"mcp_response/{method}" if method in _MCP_METHODS else "mcp_response"


def _is_dict(m: Any) -> bool:
    return isinstance(m, dict)


DETECTORS: Final[list[tuple[str, Callable[[Any], bool]]]] = [
    # (type, shape test), tried in order; the first that holds names the message type
    ("trace", lambda m: _is_dict(m) and str(m.get("format", "")).startswith("lessons_lib.trace/")),
    (
        "field_fragments",
        lambda m: _is_dict(m) and (m.get("format") == "lessons_lib.field_fragments/1" or "model_call" in m),
    ),
    (
        "roundtrip",
        lambda m: (
            _is_dict(m)
            and (m.get("format") == "lessons_lib.roundtrip/1" or {"request_1", "response_1"} <= set(m))
        ),
    ),
    ("mcp_request", lambda m: _is_dict(m) and "jsonrpc" in m and "method" in m),
    ("mcp_response", lambda m: _is_dict(m) and "jsonrpc" in m and ("result" in m or "error" in m)),
    ("responses_response", lambda m: _is_dict(m) and m.get("object") == "response"),
    ("responses_request", lambda m: _is_dict(m) and "input" in m and ("model" in m or "tools" in m)),
    ("responses_tool", lambda m: _is_dict(m) and m.get("type") == "function" and "parameters" in m),
    ("mcp_tool", lambda m: _is_dict(m) and "name" in m and "inputSchema" in m),
    ("function_call", lambda m: _is_dict(m) and m.get("type") == "function_call"),
    ("function_call_output", lambda m: _is_dict(m) and m.get("type") == "function_call_output"),
    ("user_message", lambda m: _is_dict(m) and m.get("role") == "user" and "content" in m),
    ("assistant_message", lambda m: _is_dict(m) and m.get("role") == "assistant" and "content" in m),
    ("instruction_message", lambda m: _is_dict(m) and m.get("role") in {"system", "developer"}),
    (
        "mcp_call_params",
        lambda m: (
            _is_dict(m) and isinstance(m.get("arguments"), dict) and set(m) <= {"name", "arguments", "_meta"}
        ),
    ),
    (
        "mcp_call_result",
        lambda m: (
            _is_dict(m)
            and isinstance(m.get("content"), list)
            and set(m) <= {"content", "isError", "structuredContent", "_meta"}
        ),
    ),
]

# The Chat Completions and Anthropic Messages shapes (lesson 20), tried before the Responses ones.
_RESPONSES_AT: Final = next(n for n, (name, _) in enumerate(DETECTORS) if name == "responses_response")
DETECTORS[_RESPONSES_AT:_RESPONSES_AT] = kinds_apis.DETECTORS
TABLES.update(kinds_apis.TABLES)
TYPE_TITLES.update(kinds_apis.TYPE_TITLES)
TABLES["roundtrip"].append(("api", E))  # which API a round trip of data/chat/ or data/anthropic/ speaks


def detect_type(message: Any, *, label: str | None = None) -> str:
    """The message type from its shape (``label``: a trace event's JSON-RPC method, if known)."""
    for name, test in DETECTORS:
        if test(message):
            if name == "mcp_request":
                method = message.get("method")
                return f"mcp_request/{method}" if method in _MCP_METHODS else "mcp_request"
            if name == "mcp_response":
                return _mcp_response_type(message, label)
            return name
    if _holds_known(message, depth=4):
        return "bundle"
    return "unclassified"


def _holds_known(node: Any, depth: int) -> bool:
    children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    for child in children:
        if isinstance(child, dict | list):
            if detect_known(child) or (depth > 1 and _holds_known(child, depth - 1)):
                return True
    return False


def detect_known(node: Any) -> str | None:
    """The type if one of ``DETECTORS`` recognises the node itself, else None (no bundles)."""
    if any(test(node) for _, test in DETECTORS):
        return detect_type(node)
    return None


# ---------------------------------------------------------------- classifying fields
@dataclass(frozen=True)
class Match:
    """How one field was classified: its kind, the table used and the pattern that matched."""

    kind: Kind
    message_type: str
    pattern: str | None  # None: no pattern covers the field -> shown as envelope, "unclassified"

    @property
    def unclassified(self) -> bool:
        return self.pattern is None


def nodes_along(message: Any, path: PathT) -> list[Any]:
    """The values at path[:0], path[:1], ... path; ValueError if the path is not in the message."""
    nodes = [message]
    for i, seg in enumerate(path):
        node = nodes[-1]
        try:
            if isinstance(seg, int) != isinstance(node, list) or isinstance(node, str):
                raise KeyError(seg)
            nodes.append(node[seg])
        except (KeyError, IndexError, TypeError):
            where = format_path(path[:i]) or "the message root"
            raise ValueError(
                f"no field {format_path(path)!r} in this message (nothing at {seg!r} under {where})"
            ) from None
    return nodes


def _classify(
    message_type: str, path: PathT, nodes: Sequence[Any], hint: Callable[[Any], str] | None
) -> Match:
    if message_type == "bundle":
        for i in range(1, len(path) + 1):
            inner = detect_known(nodes[i])
            if inner is not None:
                return _classify(inner, path[i:], nodes[i:], None)
        if isinstance(nodes[-1], dict | list):
            return Match("envelope", "bundle", "(容器)")
        return Match("envelope", "bundle", None)
    if message_type not in TABLES:
        return Match("envelope", message_type, None)
    value = nodes[-1]
    for pattern, kind, when in _table(message_type):
        if when == "text" and not isinstance(value, str):
            continue
        if kind == NEST:  # the pattern names the subtree's root; it covers every field below it
            depth = len(pattern.tokens)
            if len(path) < depth or not pattern.matches(path[:depth], nodes[: depth + 1]):
                continue
            inner_nodes = nodes[depth:]
            inner = hint(nodes[depth - 1]) if hint else detect_type(inner_nodes[0])
            if inner == "unclassified" and len(path) == depth:  # e.g. a part that is null
                return Match("envelope", message_type, pattern.text)
            return _classify(inner, path[depth:], inner_nodes, None)
        if not pattern.matches(path, nodes):
            continue
        return Match(kind, message_type, pattern.text)  # type: ignore[arg-type]
    return Match("envelope", message_type, None)


def _event_hint(event: Any) -> str:
    return (
        detect_type(event.get("body"), label=event.get("label"))
        if isinstance(event, dict)
        else "unclassified"
    )


def classify(message: Any, path: str | Sequence[str | int], message_type: str | None = None) -> Match:
    """Classify one field; ``path`` like ``output[0].arguments`` or a tuple of keys/indices."""
    p = parse_path(path) if isinstance(path, str) else tuple(path)
    nodes = nodes_along(message, p)
    mtype = message_type or detect_type(message)
    return _classify(mtype, p, nodes, _event_hint if mtype == "trace" else None)


def kind_of(message: Any, path: str | Sequence[str | int], message_type: str | None = None) -> Kind:
    """The kind of the field at ``path``: ``kind_of(response_1, "output[0].call_id") == "identifier"``.

    Introduced in lesson 03. Unclassified fields count as ``"envelope"``; see ``classify``.
    """
    return classify(message, path, message_type).kind


@dataclass(frozen=True)
class Field:
    """One field of a message, as the field tree shows it."""

    path: PathT
    value: Any
    match: Match

    @property
    def path_text(self) -> str:
        return format_path(self.path)

    @property
    def kind(self) -> Kind:
        return self.match.kind


def walk(message: Any, message_type: str | None = None) -> Iterator[Field]:
    """Every field of the message, depth first in document order, root first."""
    mtype = message_type or detect_type(message)
    hint = _event_hint if mtype == "trace" else None

    def visit(path: PathT, nodes: list[Any]) -> Iterator[Field]:
        node = nodes[-1]
        yield Field(path, node, _classify(mtype, path, nodes, hint))
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, child in items:
            yield from visit((*path, key), [*nodes, child])

    yield from visit((), [message])
