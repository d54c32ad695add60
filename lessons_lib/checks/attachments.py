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
    call_record_or_first,
    declared_tool,
    first_call,
    first_exchange,
    mcp_declaration,
    model_body,
    pick_feedback,
)
from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.messages import t


def _note(trace: object, what: str, command: str) -> str:
    """The attachment's note; ``what`` is ``fragments`` or ``roundtrip``."""
    model = trace.get("model") if isinstance(trace, dict) else None
    mode = model.get("mode") if isinstance(model, dict) else None
    what = t(f"attachments.what.{what}")
    if mode in ("offline", "live"):
        return t("attachments.note", mode=t(f"attachments.mode.{mode}"), what=what, command=command)
    return t("attachments.note_any_mode", what=what, command=command)


def fragments_from_trace(trace: object) -> JSONObject:
    """The field fragments of a trace's first tool call (missing pieces are null). Lesson 07."""
    tr = as_dict(trace)
    call, record, mcp_request, mcp_result = first_exchange(tr)
    params = mcp_request.get("params") if isinstance(mcp_request, dict) else None
    tool_name = params.get("name") if isinstance(params, dict) else (record or {}).get("tool")
    service = (record or {}).get("service")
    return copy.deepcopy(
        {
            "format": FRAGMENTS_FORMAT,
            "note": _note(tr, "fragments", "verify-fields"),
            "declaration": declared_tool(model_body(tr, "request_1"), (call or {}).get("name")),
            "mcp_declaration": mcp_declaration(tr, tool_name, service),
            "model_call": call,
            "mcp_request": mcp_request,
            "mcp_result": mcp_result,
            "feedback": pick_feedback(model_body(tr, "request_2"), call),
            "link": record,
        }
    )


def roundtrip_from_trace(trace: object) -> JSONObject:
    """The complete two-round exchange with the MCP pair in the middle. Lesson 07."""
    tr = as_dict(trace)
    _, _, mcp_request, mcp_response = first_exchange(tr)
    records = tr.get("links") if isinstance(tr, dict) else None
    return copy.deepcopy(
        {
            "format": ROUNDTRIP_FORMAT,
            "note": _note(tr, "roundtrip", "verify-roundtrip"),
            "request_1": model_body(tr, "request_1"),
            "response_1": model_body(tr, "response_1"),
            "mcp_request": mcp_request,
            "mcp_response": mcp_response,
            "request_2": model_body(tr, "request_2"),
            "response_2": model_body(tr, "response_2"),
            "links": records if isinstance(records, list) else [],
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
        "link": call_record_or_first(rt.get("links"), call),
    }
