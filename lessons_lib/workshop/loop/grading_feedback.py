"""The lesson-11 judge's checks of execution and feedback, per model call. Introduced in lesson 11.

Each ``function_call`` of a round is one of three kinds: *executable* (a declared alias with
arguments that parse to an object: exactly one ``tools/call`` to the right service, the original
tool name, the parsed object), *unknown alias* or *bad arguments* (no ``tools/call`` at all; the
feedback is a failure, and the loop goes on, as lesson 32 teaches). Pairing a ``tools/call``
with the call it serves uses what the service saw (service, tool, arguments), never the
application's own record of it.
"""

from __future__ import annotations

import json
from typing import Final

from lessons_lib.core.example import ALIAS_SEPARATOR, FAILURE_PREFIX
from lessons_lib.core.jsonvalue import JSONObject, same
from lessons_lib.core.messages import t
from lessons_lib.workshop.loop.grading_traffic import Exchange, Round, Routes, RunRecord, parsed_arguments

Found = tuple[str, str]
"""A problem as (key, evidence)."""

FIRST_ITEM: Final = "grading_feedback.first_item"
"""The catalogue key of what follows a crash on a message item taken for a call."""


def _short(value: object, width: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= width else text[: width - 1] + "…"


def classify_call(call: JSONObject, routes: Routes) -> tuple[str, str, str, JSONObject | None]:
    """(kind, service, tool, args): kind is ``run``, ``unknown_alias`` or ``bad_arguments``."""
    route = routes.get(str(call.get("name")))
    if route is None:
        return "unknown_alias", "", "", None
    args = parsed_arguments(call.get("arguments"))
    if args is None:
        return "bad_arguments", route[0], str(route[1].get("name")), None
    return "run", route[0], str(route[1].get("name")), args


def pair_calls(routes: Routes, rnd: Round) -> dict[str, Exchange]:
    """call_id -> the ``tools/call`` that served it: same service, tool and arguments (order free)."""
    paired: dict[str, Exchange] = {}
    for exchange in rnd.sent:
        for call in rnd.calls:
            kind, service, tool, args = classify_call(call, routes)
            call_id = str(call.get("call_id"))
            if kind != "run" or call_id in paired:
                continue
            if (exchange.service, exchange.name) == (service, tool) and same(exchange.arguments, args):
                paired[call_id] = exchange
                break
    return paired


def _model_id_in(request: JSONObject, model_ids: set[str]) -> str | None:
    """A model ``call_id`` used as the JSON-RPC id or written into the params (not the arguments)."""
    if str(request.get("id")) in model_ids:
        return str(request.get("id"))
    params = request.get("params")
    outside = {k: v for k, v in params.items() if k != "arguments"} if isinstance(params, dict) else {}
    text = json.dumps(outside, ensure_ascii=False)
    return next((i for i in sorted(model_ids) if json.dumps(i) in text), None)


def check_sent(routes: Routes, rnd: Round, complete: bool) -> Found | None:
    """The first wrong ``tools/call`` of the round; with ``complete``, also a call never executed."""
    paired = pair_calls(routes, rnd)
    served = {id(x) for x in paired.values()}
    kinds = [(call, *classify_call(call, routes)) for call in rnd.calls]
    model_ids = {str(c.get("call_id")) for c in rnd.calls if isinstance(c.get("call_id"), str)}
    for exchange in rnd.sent:
        mixed = _model_id_in(exchange.request, model_ids)
        if mixed is not None:  # the source lesson §8: the model's call_id and the MCP id are two numbers
            return "ids", t("graders.loop.mixed_ids", value=mixed, service=exchange.service)
        if id(exchange) in served:
            continue
        name, arguments = exchange.name, exchange.arguments
        if isinstance(arguments, str):
            return "arguments_text", (t("grading_feedback.check_sent.3", arguments=_short(arguments)))
        if name in routes or (isinstance(name, str) and ALIAS_SEPARATOR in name):
            return (
                "alias",
                t("grading_feedback.check_sent.4", name=_short(name)),
            )
        open_calls = [
            (c, s, t, a) for c, k, s, t, a in kinds if k == "run" and str(c.get("call_id")) not in paired
        ]
        same_tool = [(c, s, a) for c, s, tool, a in open_calls if tool == name]
        if any(s == exchange.service for _, s, _ in same_tool):
            model_args = next(a for _, s, a in same_tool if s == exchange.service)
            return "hard_coded", (
                t("grading_feedback.check_sent.5", arguments=_short(arguments), model_args=_short(model_args))
            )
        if same_tool:
            return "route", (
                t(
                    "grading_feedback.check_sent.6",
                    name=name,
                    same_tool=same_tool[0][1],
                    service=exchange.service,
                )
            )
        for call, kind, _, tool, _ in kinds:
            if kind == "unknown_alias" and str(call.get("name")).endswith(f"{ALIAS_SEPARATOR}{name}"):
                return "unknown_alias", (
                    t("grading_feedback.check_sent.7", value=call.get("name"), name=name)
                )
            if kind == "bad_arguments" and tool == name:
                return "bad_arguments", (
                    t("grading_feedback.check_sent.8", value=_short(call.get("arguments")))
                )
        return "extra_call", (
            t(
                "grading_feedback.check_sent.1",
                service=exchange.service,
                value=_short(exchange.request.get("params")),
            )
        )
    open_ids = [
        str(c.get("call_id")) for c, k, *_ in kinds if k == "run" and str(c.get("call_id")) not in paired
    ]
    if open_ids and (complete or paired):
        return "unexecuted", (
            t(
                "grading_feedback.check_sent.2",
                n=rnd.n,
                calls=len(rnd.calls),
                sent=len(rnd.sent),
                open_ids=open_ids[0],
            )
        )
    return None


def check_output(
    call: JSONObject, out: JSONObject, exchange: Exchange | None, routes: Routes
) -> Found | None:
    """The feedback item of one call: a failure stays a failure, a result is the tool's own text."""
    from lessons_lib.checks.evidence import result_text
    from lessons_lib.checks.fieldchecks import compare_feedback
    from lessons_lib.checks.jsoncheck import Fail

    output = out.get("output")
    call_id = call.get("call_id")
    if not isinstance(output, str):
        return "feedback", t("grading_feedback.check_output.1", call_id=call_id, output=_short(output))
    kind, *_ = classify_call(call, routes)
    if kind != "run":
        what = (
            t("grading_feedback.check_output.2", value=call.get("name"))
            if kind == "unknown_alias"
            else t("grading_feedback.check_output.3", value=_short(call.get("arguments"), 30))
        )
        if not output.startswith(FAILURE_PREFIX) or not output[len(FAILURE_PREFIX) :].strip():
            return kind, (
                t(
                    "grading_feedback.check_output.5",
                    what=what,
                    output=_short(output, 40),
                    FAILURE_PREFIX=FAILURE_PREFIX,
                )
            )
        return None
    if exchange is None or exchange.reply is None:
        return "service", t("grading_feedback.check_output.4", call_id=call_id)
    reply = exchange.reply
    if "error" in reply and "result" not in reply:
        error = reply.get("error")
        message = str(error.get("message", "")) if isinstance(error, dict) else ""
        if not output.startswith(FAILURE_PREFIX) or message not in output:
            return "feedback", (
                t(
                    "grading_feedback.check_output.6",
                    call_id=call_id,
                    message=_short(message, 40),
                    output=_short(output, 40),
                    FAILURE_PREFIX=FAILURE_PREFIX,
                )
            )
        return None
    try:
        text, failed = result_text(reply)
        compare_feedback(output, text, failed)
    except Fail as wrong:
        return "feedback", t("grading_feedback.check_output.7", call_id=call_id, wrong=wrong)
    return None


def tool_texts(all_rounds: list[Round]) -> set[str]:
    """Every text a service returned in the run (a loop must not show one as its answer)."""
    from lessons_lib.core.traces.queries import reply_text

    return {reply_text(x.reply) for r in all_rounds for x in r.sent if x.reply is not None}


def crash_problem(record: RunRecord, last: Round | None) -> Found | None:
    """The loop raised: named by what the round held that it could not handle, else ``crashed``."""
    raised = record.raised
    if raised is None:
        return None
    if "AttributeError" in raised and "ResponseOutputMessage" in raised:
        return "first_item", raised + t(FIRST_ITEM)
    names = {str(c.get("name")) for c in (last.calls if last else [])}
    bad = [c for c in (last.calls if last else []) if parsed_arguments(c.get("arguments")) is None]
    if bad and ("JSONDecodeError" in raised or "ValueError" in raised or "TypeError" in raised):
        return "bad_arguments", (
            t("grading_feedback.crash_problem.1", value=_short(bad[0].get("arguments"), 40), raised=raised)
        )
    if "KeyError" in raised and any(f"'{n}'" in raised for n in names):
        return "unknown_alias", (t("grading_feedback.crash_problem.2", raised=raised))
    return "crashed", raised
