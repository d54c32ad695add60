"""The two attachments of lesson 07, cut from a recorded trace (never typed by hand).

``python -m lessons_lib record`` writes both from the trace of one run: ``field_fragments.json``
(format ``lessons_lib.field_fragments/1``, the pieces of the first tool call) and
``responses_roundtrip.json`` (format ``lessons_lib.roundtrip/1``, the bodies as sent). The
keys are listed in ``lessons_lib.checks.verify``. Standard library only.
"""

from __future__ import annotations

import copy

from lessons_lib.checks.evidence import (
    FRAGMENTS_FORMAT,
    ROUNDTRIP_FORMAT,
    as_dict,
    declared_tool,
    first_call,
    first_exchange,
    link_or_first,
    mcp_declaration,
    model_body,
    pick_feedback,
)
from lessons_lib.core.jsonvalue import JSONObject


def _note(trace: object, what: str, command: str) -> str:
    model = trace.get("model") if isinstance(trace, dict) else None
    mode = model.get("mode") if isinstance(model, dict) else None
    mode = {"offline": "离线", "live": "在线"}.get(mode if isinstance(mode, str) else "", "")
    return (
        f"由 python -m lessons_lib record 从{mode}运行的 trace 摘出的{what}，不是手写的；"
        f"改动后可用 python -m lessons_lib {command} 核对。"
    )


def fragments_from_trace(trace: object) -> JSONObject:
    """The field fragments of a trace's first tool call (missing pieces are null). Lesson 07."""
    t = as_dict(trace)
    call, link, mcp_request, mcp_result = first_exchange(t)
    params = mcp_request.get("params") if isinstance(mcp_request, dict) else None
    tool_name = params.get("name") if isinstance(params, dict) else (link or {}).get("tool")
    service = (link or {}).get("service")
    return copy.deepcopy(
        {
            "format": FRAGMENTS_FORMAT,
            "note": _note(t, "字段片段", "verify-fields"),
            "declaration": declared_tool(model_body(t, "request_1"), (call or {}).get("name")),
            "mcp_declaration": mcp_declaration(t, tool_name, service),
            "model_call": call,
            "mcp_request": mcp_request,
            "mcp_result": mcp_result,
            "feedback": pick_feedback(model_body(t, "request_2"), call),
            "link": link,
        }
    )


def roundtrip_from_trace(trace: object) -> JSONObject:
    """The complete two-round exchange with the MCP pair in the middle. Lesson 07."""
    t = as_dict(trace)
    _, _, mcp_request, mcp_response = first_exchange(t)
    links = t.get("links") if isinstance(t, dict) else None
    return copy.deepcopy(
        {
            "format": ROUNDTRIP_FORMAT,
            "note": _note(t, "完整两轮往返", "verify-roundtrip"),
            "request_1": model_body(t, "request_1"),
            "response_1": model_body(t, "response_1"),
            "mcp_request": mcp_request,
            "mcp_response": mcp_response,
            "request_2": model_body(t, "request_2"),
            "response_2": model_body(t, "response_2"),
            "links": links if isinstance(links, list) else [],
        }
    )


def fragments_from_roundtrip(roundtrip: object) -> JSONObject:
    """The field fragments inside a round trip (it has no MCP declaration)."""
    rt = roundtrip if isinstance(roundtrip, dict) else {}
    call = first_call(rt.get("response_1"))
    return {
        "format": FRAGMENTS_FORMAT,
        "declaration": declared_tool(rt.get("request_1"), (call or {}).get("name")),
        "mcp_declaration": None,
        "model_call": call,
        "mcp_request": rt.get("mcp_request"),
        "mcp_result": rt.get("mcp_response"),
        "feedback": pick_feedback(rt.get("request_2"), call),
        "link": link_or_first(rt.get("links"), call),
    }
