"""Which type of message a JSON value is, from its shape (:func:`detectors`). Lesson 03.

The type picks the table in :mod:`lessons_lib.core.fieldkinds.kindtables`. The kernel's own shape tests
are ``FIRST_DETECTORS`` (a trace, the attachments, MCP) and ``RESPONSES_DETECTORS`` (the
reference API); every other API's are in its folder (``apis/<name>/kinds.py``), named by its
registry entry's ``detectors`` and tried between the two, tier by tier (the rule is in
``core.plugins.apiregistry``). Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeGuard

from lessons_lib.core.fieldkinds.kindrows import TIERS, Detector
from lessons_lib.core.jsonvalue import JSON, JSONObject
from lessons_lib.core.plugins.apiregistry import apis

_MCP_METHODS: Final = ("tools/call", "tools/list", "initialize")


def _mcp_response_type(d: JSONObject, method: str | None = None) -> str:
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


def _is_dict(m: JSON) -> TypeGuard[JSONObject]:
    return isinstance(m, dict)


Test = Callable[[JSON], bool]
"""A shape test: does this JSON value look like one message type?"""

FIRST_DETECTORS: Final[list[tuple[str, Test]]] = [
    # (type, shape test), tried in order before every API's; the first that holds names the type
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
]
RESPONSES_DETECTORS: Final[list[tuple[str, Test]]] = [
    # the Responses shapes, tried after every API's (an Anthropic response is also a type "message")
    ("responses_response", lambda m: _is_dict(m) and m.get("object") == "response"),
    ("responses_request", lambda m: _is_dict(m) and "input" in m and ("model" in m or "tools" in m)),
    ("responses_tool", lambda m: _is_dict(m) and m.get("type") == "function" and "parameters" in m),
    ("mcp_tool", lambda m: _is_dict(m) and "name" in m and "inputSchema" in m),
    ("function_call", lambda m: _is_dict(m) and m.get("type") == "function_call"),
    ("function_call_output", lambda m: _is_dict(m) and m.get("type") == "function_call_output"),
    ("user_message", lambda m: _is_dict(m) and m.get("role") == "user" and "content" in m),
    ("assistant_message", lambda m: _is_dict(m) and m.get("role") == "assistant" and "content" in m),
    # a tuple, not a set: in a JSON Schema "role" may be an object, which a set cannot hash
    ("instruction_message", lambda m: _is_dict(m) and m.get("role") in ("system", "developer")),
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


_MERGED: dict[tuple[str, ...], list[tuple[str, Test]]] = {}


def detectors() -> list[tuple[str, Test]]:
    """Every shape test in the order tried: ``FIRST_DETECTORS``, each API's ``DETECTORS`` (its
    registry entry's ``detectors``) tier by tier, the registry's order within a tier, then
    ``RESPONSES_DETECTORS``."""
    entries = apis()
    key = tuple(e.name for e in entries)
    merged = _MERGED.get(key)
    if merged is None:
        plugged: list[Detector] = [d for entry in entries for d in entry.detectors]
        ranked = sorted(plugged, key=lambda d: TIERS.index(d.tier))  # stable: the registry's order
        merged = [*FIRST_DETECTORS, *((d.name, d.test) for d in ranked), *RESPONSES_DETECTORS]
        _MERGED[key] = merged
    return merged


def detect_type(message: JSON, *, label: str | None = None) -> str:
    """The message type from its shape (``label``: a trace event's JSON-RPC method, if known)."""
    for name, test in detectors():
        if test(message):
            if not isinstance(message, dict):
                return name
            if name == "mcp_request":
                method = message.get("method")
                return f"mcp_request/{method}" if method in _MCP_METHODS else "mcp_request"
            if name == "mcp_response":
                return _mcp_response_type(message, label)
            return name
    if _holds_known(message, depth=4):
        return "bundle"
    return "unclassified"


def _holds_known(node: JSON, depth: int) -> bool:
    children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    for child in children:
        if isinstance(child, dict | list):
            if detect_known(child) or (depth > 1 and _holds_known(child, depth - 1)):
                return True
    return False


def detect_known(node: JSON) -> str | None:
    """The type if one of :func:`detectors` recognises the node itself, else None (no bundles)."""
    if any(test(node) for _, test in detectors()):
        return detect_type(node)
    return None
