"""The seven links of the chain, each a step that reads a trace and returns its evidence. Lesson 08.

The order is the source lesson's troubleshooting order: 模型响应、解析结果、路由目标、服务检查、
实际反馈、关联标识、后续模型输入. A step returns the evidence for "ok" or raises ``Fail`` with the
reason the link is broken. One ``Chain`` follows one function_call of ``response_1`` (``index``),
so a trace that calls two services is walked once per call. Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Final

from lessons_lib.checks._rules import (
    inside_root,
    normalised,
    parse_arguments,
    rule_summary,
    values_follow_rule,
)
from lessons_lib.checks.evidence import (
    call_items,
    call_records_in,
    declared_tool,
    feedback_output,
    is_call,
    mcp_exchange,
    message_text,
    model_body,
    pick_feedback,
    result_text,
)
from lessons_lib.checks.fieldchecks import compare_feedback, need_not_mcp_id, need_record_ties, need_reply_to
from lessons_lib.checks.jsoncheck import Fail, need, obj, show
from lessons_lib.core.jsonvalue import JSONObject, diff_path
from lessons_lib.core.messages import t
from lessons_lib.core.paths import LOGICAL_ROOT
from lessons_lib.core.plugins.apishapes import input_items

LINKS: Final = ("model_response", "parse", "route", "service", "feedback", "ids", "next_input")
"""The seven links by key, in the troubleshooting order."""


def link_name(key: str) -> str:
    """A link's name in the current language (``chainsteps.link.<key>``), e.g. 服务检查 / service check."""
    return t(f"chainsteps.link.{key}")


class LinkNames:
    """The links as ``(key, name)`` pairs, the name looked up when read (in the language then chosen)."""

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter([(key, link_name(key)) for key in LINKS])

    def __len__(self) -> int:
        return len(LINKS)


LINK_NAMES: Final = LinkNames()


class Chain:
    """What the walk has found so far; each step reads the trace and fills in its part."""

    def __init__(self, trace: dict[str, Any], index: int = 0) -> None:
        self.trace = trace
        self.index = index
        self.request_1 = model_body(trace, "request_1")
        self.request_2 = model_body(trace, "request_2")
        self.call: JSONObject = {}
        self.args: JSONObject = {}
        self.request: JSONObject = {}
        self.response: JSONObject = {}
        self.tool_text: str | None = None
        self.tool_failed = False
        self.feedback: JSONObject | None = None


def _model_response(c: Chain) -> str:
    need(c.request_1 is not None, t("chainsteps.no_request_1"))
    labels = [e.get("label") for e in c.trace["events"] if isinstance(e, dict)]
    need("http_error_1" not in labels, t("chainsteps.http_error_1"))
    response = obj(model_body(c.trace, "response_1"), "response_1")
    calls = call_items(response)
    if not calls:
        said = message_text(response)
        raise Fail(t("chainsteps.no_call", said=show(said, 40)))
    call = c.call = calls[c.index]
    need(isinstance(call.get("name"), str) and call["name"], t("chainsteps.no_name"))
    need(isinstance(call.get("call_id"), str) and call["call_id"], t("chainsteps.no_call_id"))
    need(
        response.get("status", "completed") == "completed",
        t("chainsteps.status", status=show(response.get("status"))),
    )
    what = t("chainsteps.called", name=call["name"], call_id=call["call_id"])
    return t("chainsteps.model_response", what=what)


def _parse(c: Chain) -> str:
    c.args = parse_arguments(c.call, "function_call.arguments")
    tool = declared_tool(c.request_1, c.call["name"])
    if tool is None or tool.get("name") != c.call["name"]:
        keys = ", ".join(c.args) or t("chainsteps.no_keys")
        return t("chainsteps.parsed_unchecked", keys=keys)
    rule_summary(tool.get("parameters"), t("chainsteps.where.parameters", name=c.call["name"]))
    rule = obj(tool.get("parameters"), "parameters")
    return t("chainsteps.parsed", values=values_follow_rule(c.args, rule))


def _route(c: Chain) -> str:
    alias, call_id = c.call["name"], c.call["call_id"]
    routes = [r for r in c.trace.get("tools") or [] if isinstance(r, dict) and r.get("alias") == alias]
    aliases = [str(r.get("alias")) for r in c.trace.get("tools") or [] if isinstance(r, dict)]
    known = ", ".join(aliases) or t("chainsteps.none")
    need(routes, t("chainsteps.unknown_alias", alias=alias, known=known))
    service, tool = routes[0].get("service"), routes[0].get("name")
    records = call_records_in(c.trace.get("links"), call_id)
    request, response = mcp_exchange(c.trace, service, records[0].get("mcp_id") if records else None)
    if request is None:
        unsent = t("chainsteps.unsent") if records and records[0].get("mcp_id") is None else ""
        raise Fail(t("chainsteps.not_sent", call_id=call_id, service=service, unsent=unsent))
    c.request, c.response = request, response or {}
    params = obj(request.get("params"), t("chainsteps.where.params"))
    need(
        params.get("name") == tool,
        t("chainsteps.wrong_tool", alias=alias, service=service, tool=tool, called=show(params.get("name"))),
    )
    changed = diff_path(c.args, params.get("arguments"), "arguments")
    need(changed is None, t("chainsteps.values_changed", changed=changed))
    return t("chainsteps.routed", alias=alias, service=service, tool=tool)


def _service(c: Chain) -> str:
    need(c.response, t("chainsteps.no_answer", mcp_id=show(c.request.get("id"))))
    c.tool_text, c.tool_failed = text, failed = result_text(c.response, t("chainsteps.where.response"))
    path, head, tail = c.args.get("path"), c.args.get("head"), c.args.get("tail")
    if isinstance(path, str) and inside_root(path) is None:
        norm = normalised(path)
        need(
            failed,
            t("chainsteps.outside_root", path=path, norm=norm, root=LOGICAL_ROOT),
        )
        return t("chainsteps.refused_outside", path=path, text=show(text, 60))
    if failed:
        return t("chainsteps.check_failed", text=show(text, 60))
    need(head is None or tail is None, t("chainsteps.head_and_tail"))
    lines = len(text.split("\n")) if text else 0
    for key, limit in (("head", head), ("tail", tail)):
        need(
            not isinstance(limit, int) or lines <= limit,
            t("chainsteps.too_many_lines", key=key, limit=limit, lines=lines),
        )
    return t("chainsteps.service_ok", lines=lines)


def _feedback(c: Chain) -> str:
    c.feedback = pick_feedback(c.request_2, c.call, c.index)
    if c.feedback is None:
        return t("chainsteps.feedback_later")
    output = feedback_output(c.feedback, "function_call_output")
    return compare_feedback(output, c.tool_text or "", c.tool_failed)


def _ids(c: Chain) -> str:
    call_id, mcp_id = c.call["call_id"], c.request.get("id")
    answered = c.response.get("id")
    need_reply_to(answered, mcp_id)
    records = call_records_in(c.trace.get("links"), call_id)
    need(records, t("chainsteps.no_link", call_id=call_id))
    need_record_ties(records[0], call_id, mcp_id, "links")
    if c.feedback is not None:
        got = c.feedback.get("call_id")
        need_not_mcp_id(got, [call_id], mcp_id)
        need(got == call_id, t("chainsteps.wrong_feedback_id", got=show(got), call_id=call_id))
    return t("chainsteps.ids", call_id=call_id, mcp_id=show(mcp_id))


def _next_input(c: Chain) -> str:
    answer = c.trace.get("answer")
    if c.request_2 is None:
        raw = isinstance(answer, str) and c.tool_text is not None and answer.strip() == c.tool_text.strip()
        need(not raw, t("chainsteps.raw_answer"))
        raise Fail(t("chainsteps.no_request_2"))
    before, after = input_items(c.request_1), input_items(c.request_2)
    changed = diff_path(before, after[: len(before)], "input")
    need(changed is None, t("chainsteps.input_changed", changed=changed))
    need(
        any(is_call(i) and i.get("call_id") == c.call["call_id"] for i in after),
        t("chainsteps.call_dropped"),
    )
    need(c.feedback is not None, t("chainsteps.not_fed_back"))
    final = [
        e.get("body")
        for e in c.trace["events"]
        if isinstance(e, dict) and str(e.get("label")).startswith("response_")
    ]
    need(final and final[-1] is not model_body(c.trace, "response_1"), t("chainsteps.no_response_2"))
    said = message_text(final[-1])
    need(said, t("chainsteps.no_answer_text"))
    need(answer is None or answer == said, t("chainsteps.not_the_answer", shown=show(answer, 30)))
    return t("chainsteps.next_input", n=len(said))


WALK: Final[tuple[Callable[[Chain], str], ...]] = (
    _model_response,
    _parse,
    _route,
    _service,
    _feedback,
    _ids,
    _next_input,
)
