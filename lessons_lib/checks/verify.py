"""Offline checks of the field fragments and of the two-round exchange. Introduced in lesson 07.

Standard library only, like the source lesson's attachment scripts: it runs where nothing else is
installed and works on plain dicts or a ``lessons_lib.core.traces.trace.Trace``. The work is split over
small stdlib-only modules: ``evidence`` (reading a trace), ``_rules`` (rules and values),
``fieldchecks`` and ``roundtripchecks`` (the checks), ``attachments`` (cutting the
attachments from a trace), ``verify_report`` (``Report``, ``Check``); the command lines live in
``lessons_lib.cli.checks``.
Both attachments are written by ``python -m lessons_lib record`` from the recorded trace
through ``fragments_from_trace`` and ``roundtrip_from_trace``, never typed by hand.

``field_fragments.json`` (``"format": "lessons_lib.field_fragments/1"``), one fragment each::

    declaration      the Responses tools entry the model saw (type, name, parameters = rule)
    mcp_declaration  the MCP tools/list entry behind the alias (name, inputSchema) or null
    model_call       the function_call item of response_1 (arguments = JSON text)
    mcp_request      the tools/call JSON-RPC request (params.arguments = object)
    mcp_result       the JSON-RPC response with the same id (result.content, isError)
    feedback         the function_call_output item of request_2 (output = text)
    link             the application's record tying call_id to the MCP id, or null

``responses_roundtrip.json`` (``"format": "lessons_lib.roundtrip/1"``): the bodies as sent,
``request_1, response_1, mcp_request, mcp_response, request_2, response_2``, then ``links``.

A failed tool call reaches the model as ``FAILURE_PREFIX + text`` (the application's marker,
see ``lessons_lib.engine.host.feedback_text``); a JSON-RPC error as
``FAILURE_PREFIX + "protocol error CODE: MESSAGE"``.
Every check answers PASS or FAIL with a reason; a wrong shape is a FAIL, never an exception.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from lessons_lib.checks.apis.verify import api_checks, api_trials
from lessons_lib.checks.apis.view import api_of, api_title, responses_roundtrip, responses_trace
from lessons_lib.checks.attachments import (
    fragments_from_roundtrip,
    fragments_from_trace,
    roundtrip_from_trace,
)
from lessons_lib.checks.evidence import (
    as_dict,
    attachment_kind,
    checked_trace,
)
from lessons_lib.checks.fieldchecks import field_checks
from lessons_lib.checks.roundtripchecks import roundtrip_checks, trials
from lessons_lib.checks.verify_report import Check, Report
from lessons_lib.core.jsonvalue import JSON, JSONObject
from lessons_lib.core.messages import t
from lessons_lib.core.plugins.apiregistry import is_reference

FIELDS_LIMITS: Final = ("json", "arguments", "pairs", "feedback")
"""What ``verify_fields`` cannot prove, by key: ``verify.fields.<key>.what/criterion/cannot``."""
ROUNDTRIP_LIMITS: Final = ("connected", "path", "choice", "answer")
"""What ``verify_roundtrip`` cannot prove, by key: ``verify.roundtrip.<key>.what/criterion/cannot``."""


def limits(verifier: str, keys: tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    """The (what, criterion, cannot prove) rows of one verifier, in the current language."""
    return tuple(
        (
            t(f"verify.{verifier}.{k}.what"),
            t(f"verify.{verifier}.{k}.criterion"),
            t(f"verify.{verifier}.{k}.cannot"),
        )
        for k in keys
    )


def verify_fields(fragments: object) -> Report:
    """Seven offline checks of the field fragments (the source lesson's field checklist). Lesson 07.

    Also accepts a full trace (dict or ``Trace``) or a round trip, which it converts first.
    """
    fr = as_dict(fragments)
    kind = attachment_kind(fr)
    fr = checked_trace(fr) if kind == "trace" else fr  # say what it is not before checking fields
    if kind in ("trace", "roundtrip") and not is_reference(
        api := api_of(fr)
    ):  # Chat / Anthropic (lesson 22): the same parts, in the Responses places
        fr = responses_trace(fr, api) if kind == "trace" else responses_roundtrip(fr, api)
    fr = fragments_from_trace(fr) if kind == "trace" else fr
    fr = fragments_from_roundtrip(fr) if kind == "roundtrip" else fr
    return Report(t("verify.title.fields"), field_checks(fr), limits("fields", FIELDS_LIMITS))


def verify_roundtrip(roundtrip: object, *, sabotage: bool = True) -> Report:
    """Check the two-round exchange, then require three sabotaged copies to fail. Lesson 07."""
    rt = as_dict(roundtrip)
    rt = checked_trace(rt) if attachment_kind(rt) == "trace" else rt
    api = api_of(rt)
    rt = roundtrip_from_trace(rt) if attachment_kind(rt) == "trace" else rt
    if not is_reference(api):
        return _verify_api_roundtrip(rt, api, sabotage)
    checks = roundtrip_checks(rt)
    title = t("verify.title.roundtrip")
    return Report(title, checks, limits("roundtrip", ROUNDTRIP_LIMITS), trials(rt) if sabotage else [])


def _verify_api_roundtrip(given: JSON, api: str, sabotage: bool) -> Report:
    """Chat / Anthropic (lesson 22): the API's own checks, then the six on the Responses view."""

    rt: JSONObject = given if isinstance(given, dict) else {}

    def judge(r: JSONObject) -> list[Check]:
        mapped = [
            replace(c, name=t("verify.mapped", name=c.name))
            for c in roundtrip_checks(responses_roundtrip(r, api))
        ]
        return api_checks(r, api) + mapped

    title = t("verify.title.api_roundtrip", api=api_title(api))
    given_limits = limits("roundtrip", ROUNDTRIP_LIMITS)
    return Report(title, judge(rt), given_limits, api_trials(rt, api, judge) if sabotage else [])


__all__ = ["verify_fields", "verify_roundtrip"]
