"""The seven field checks of ``verify_fields`` and the relations the doctor tests too. Lesson 07.

Each check takes the field fragments (see ``lessons_lib.checks.verify``) and returns the PASS reason
or raises ``Fail``. The relations between the pieces of one call -- the reply answers the
request's id, the link ties call_id to that id, the feedback is the tool's own text -- are
helpers here, so ``lessons_lib.checks.doctor`` states them with the same words. Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from lessons_lib.checks._rules import (
    call_values,
    mcp_arguments,
    parse_arguments,
    rule_summary,
    value_in_rule,
    values_follow_rule,
)
from lessons_lib.checks.evidence import feedback_output, result_text
from lessons_lib.checks.jsoncheck import first_text_diff, need, obj, show
from lessons_lib.checks.verify_report import Check, run_check
from lessons_lib.core.example import FAILURE_PREFIX
from lessons_lib.core.jsonvalue import JSON, JSONObject, same
from lessons_lib.core.messages import t


def need_reply_to(reply_id: object, mcp_id: object) -> None:
    """The MCP response answers the request with this JSON-RPC id."""
    need(
        same(reply_id, mcp_id),
        t("fieldchecks.reply_to", reply=show(reply_id), request=show(mcp_id)),
    )


def need_record_ties(record: JSONObject, call_id: object, mcp_id: object, where: str = "link") -> None:
    """The application's call record ties this call_id to the MCP id actually sent."""
    need(
        same(record.get("mcp_id"), mcp_id),
        t(
            "fieldchecks.link_to",
            where=where,
            call_id=call_id,
            linked=show(record.get("mcp_id")),
            mcp_id=show(mcp_id),
        ),
    )


def need_not_mcp_id(got: object, call_ids: list[JSON], mcp_id: object, hint: str = "") -> None:
    """A feedback's call_id is not the MCP id written where the model's call_id belongs."""
    need(
        got in call_ids or mcp_id is None or str(got) != str(mcp_id),
        t("fieldchecks.mixed_ids", got=show(got), hint=hint),
    )


def compare_feedback(output: str, tool_text: str, is_error: bool) -> str:
    """PASS reason if the feedback is the tool's own text and keeps success or failure, else Fail."""
    if is_error:
        need(
            output.startswith(FAILURE_PREFIX),
            t("fieldchecks.failure_unmarked", text=show(tool_text, 40), prefix=show(FAILURE_PREFIX)),
        )
        need(
            output == FAILURE_PREFIX + tool_text,
            t("fieldchecks.failure_other", diff=first_text_diff(FAILURE_PREFIX + tool_text, output)),
        )
        return t("fieldchecks.failure_kept", output=show(output, 50))
    need(not output.startswith(FAILURE_PREFIX), t("fieldchecks.success_as_failure"))
    need(output == tool_text, t("fieldchecks.not_tool_text", diff=first_text_diff(tool_text, output)))
    return t("fieldchecks.same_text", n=len(tool_text))


def check_rule(fragments: object) -> str:
    """The declaration is a rule (types, no values of this call) and the call carries values."""
    fr = obj(fragments, t("fieldchecks.where.fragments"))
    decl = obj(fr.get("declaration"), t("fieldchecks.where.declaration"))
    need(decl.get("type") == "function", t("fieldchecks.declaration_type", got=show(decl.get("type"))))
    call = fr.get("model_call")
    name = call.get("name") if isinstance(call, dict) else None
    need(
        name is None or decl.get("name") == name,
        t("fieldchecks.name_differs", called=show(name), declared=show(decl.get("name"))),
    )
    summary = rule_summary(decl.get("parameters"), "declaration.parameters")
    args = call_values(fr)
    checked = values_follow_rule(args, decl["parameters"]) if args else ""
    values = [v for v in args.values() if isinstance(v, str | int | float) and not isinstance(v, bool)]
    hit = value_in_rule(decl.get("parameters"), values, "declaration.parameters")
    need(hit is None, t("fieldchecks.value_in_rule", hit=hit))
    if fr.get("mcp_declaration") is not None:
        mcp_decl = obj(fr.get("mcp_declaration"), t("fieldchecks.where.mcp_declaration"))
        rule_summary(mcp_decl.get("inputSchema"), "mcp_declaration.inputSchema")
        hit = value_in_rule(mcp_decl.get("inputSchema"), values, "mcp_declaration.inputSchema")
        need(hit is None, t("fieldchecks.value_in_mcp_rule", hit=hit))
    if not args:
        return t("fieldchecks.rule_only", summary=summary)
    return t("fieldchecks.rule_and_values", summary=summary, checked=checked)


def check_text_object(fragments: object) -> str:
    """The model's arguments are JSON text; the MCP arguments are an object."""
    fr = obj(fragments, t("fieldchecks.where.fragments"))
    call = obj(fr.get("model_call"), t("fieldchecks.where.model_call"))
    mcp_args = mcp_arguments(fr.get("mcp_request"))
    parse_arguments(call)
    size = len(call["arguments"])
    return t("fieldchecks.text_and_object", size=size, keys=len(mcp_args))


def check_values_equal(fragments: object) -> str:
    """Parsing the text gives exactly the values the service receives (path, head)."""
    fr = obj(fragments, t("fieldchecks.where.fragments"))
    parsed = parse_arguments(fr.get("model_call"))
    mcp_args = mcp_arguments(fr.get("mcp_request"))
    for key in list(parsed) + [k for k in mcp_args if k not in parsed]:
        need(key in parsed, t("fieldchecks.only_in_mcp", key=key, value=show(mcp_args.get(key))))
        need(key in mcp_args, t("fieldchecks.lost", key=key, value=show(parsed[key])))
        need(
            same(parsed[key], mcp_args[key]),
            t("fieldchecks.changed", key=key, text=show(parsed[key]), mcp=show(mcp_args[key])),
        )
    pairs = t("fieldchecks.sep").join(f"{k}={show(v)}" for k, v in parsed.items()) or t(
        "fieldchecks.no_parameters"
    )
    return t("fieldchecks.values_equal", pairs=pairs)


def check_route(fragments: object) -> str:
    """The application's link maps the alias back to the tool and ties call_id to the MCP id."""
    fr = obj(fragments, t("fieldchecks.where.fragments"))
    call = obj(fr.get("model_call"), t("fieldchecks.where.model_call"))
    need(fr.get("mcp_request") is not None, t("fieldchecks.not_routed"))
    request = obj(fr.get("mcp_request"), "mcp_request")
    tool = obj(request.get("params"), "mcp_request.params").get("name")
    alias, call_id, mcp_id = call.get("name"), call.get("call_id"), request.get("id")
    need(fr.get("link") is not None, t("fieldchecks.no_link"))
    record = obj(fr.get("link"), t("fieldchecks.where.link"))
    need(
        record.get("alias") == alias,
        t("fieldchecks.link_alias", linked=show(record.get("alias")), alias=show(alias)),
    )
    need(
        record.get("tool") == tool,
        t("fieldchecks.alias_maps", alias=alias, linked=show(record.get("tool")), tool=show(tool)),
    )
    need(
        record.get("call_id") == call_id,
        t("fieldchecks.link_call_id", linked=show(record.get("call_id")), call_id=show(call_id)),
    )
    need_record_ties(record, call_id, mcp_id)
    decl = fr.get("mcp_declaration")
    declared = decl.get("name") if isinstance(decl, dict) else tool
    need(declared == tool, t("fieldchecks.declared_tool", declared=show(declared), tool=show(tool)))
    return t(
        "fieldchecks.routed",
        alias=alias,
        call_id=call_id,
        service=record.get("service"),
        tool=tool,
        mcp_id=show(mcp_id),
    )


def check_mcp_pair(fragments: object) -> str:
    """The MCP request and response pair by their JSON-RPC id."""
    fr = obj(fragments, t("fieldchecks.where.fragments"))
    need(fr.get("mcp_request") is not None, t("fieldchecks.nothing_to_pair"))
    request = obj(fr.get("mcp_request"), "mcp_request")
    mcp_id = request.get("id")
    need(
        isinstance(mcp_id, int | str) and not isinstance(mcp_id, bool),
        t("fieldchecks.request_id", got=show(mcp_id)),
    )
    need(fr.get("mcp_result") is not None, t("fieldchecks.no_response", mcp_id=show(mcp_id)))
    response = obj(fr.get("mcp_result"), "mcp_result")
    need_reply_to(response.get("id"), mcp_id)
    need(
        request.get("jsonrpc") == "2.0" and response.get("jsonrpc") == "2.0",
        t("fieldchecks.jsonrpc"),
    )
    need(("result" in response) != ("error" in response), t("fieldchecks.result_or_error"))
    return t("fieldchecks.mcp_pair", request=show(mcp_id), response=show(response["id"]))


def check_call_pair(fragments: object) -> str:
    """The model's function_call and the feedback pair by call_id."""
    fr = obj(fragments, t("fieldchecks.where.fragments"))
    call = obj(fr.get("model_call"), t("fieldchecks.where.model_call"))
    call_id = call.get("call_id")
    need(isinstance(call_id, str) and call_id, t("fieldchecks.call_id_type", got=show(call_id)))
    need(fr.get("feedback") is not None, t("fieldchecks.unpaired_call", call_id=call_id))
    feedback = obj(fr.get("feedback"), t("fieldchecks.where.feedback"))
    need(
        feedback.get("type") == "function_call_output",
        t("fieldchecks.feedback_type", got=show(feedback.get("type"))),
    )
    got = feedback.get("call_id")
    request = fr.get("mcp_request")
    mcp_id = request.get("id") if isinstance(request, dict) else None
    need_not_mcp_id(got, [call_id], mcp_id, t("fieldchecks.should_be", want=show(call_id)))
    need(got == call_id, t("fieldchecks.call_id_differs", got=show(got), call_id=show(call_id)))
    return t("fieldchecks.call_pair", call_id=call_id)


def check_feedback(fragments: object) -> str:
    """The feedback text is the tool's own result text and keeps success or failure."""
    fr = obj(fragments, t("fieldchecks.where.fragments"))
    need(fr.get("mcp_result") is not None, t("fieldchecks.no_result"))
    tool_text, is_error = result_text(fr.get("mcp_result"), "mcp_result")
    need(fr.get("feedback") is not None, t("fieldchecks.no_feedback"))
    return compare_feedback(feedback_output(fr.get("feedback")), tool_text, is_error)


def field_checks(fr: object) -> list[Check]:
    """The seven checks of ``verify_fields`` on one set of fragments, in the source lesson's order."""
    return [run_check(key, t(f"fieldchecks.check.{key}"), fn, fr) for key, fn in FIELD_CHECKS]


FIELD_CHECKS: Final[tuple[tuple[str, Callable[[object], str]], ...]] = (
    ("rule", check_rule),
    ("text_object", check_text_object),
    ("values_equal", check_values_equal),
    ("route", check_route),
    ("mcp_pair", check_mcp_pair),
    ("call_pair", check_call_pair),
    ("feedback", check_feedback),
)
"""The seven checks by key, in the source lesson's order; each one's name is ``fieldchecks.check.<key>``."""
