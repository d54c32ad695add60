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
from lessons_lib.course.grading_traffic import Exchange, Round, Routes, RunRecord, parsed_arguments

Found = tuple[str, str]
"""A problem as (key, evidence)."""

FIRST_ITEM: Final = (
    "：你把一个 message 项（模型的文字）当成了 function_call，"
    "假定了 output 的第一项就是调用；要按 type 找调用"
)


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


def check_sent(routes: Routes, rnd: Round, complete: bool) -> Found | None:
    """The first wrong ``tools/call`` of the round; with ``complete``, also a call never executed."""
    paired = pair_calls(routes, rnd)
    served = {id(x) for x in paired.values()}
    kinds = [(call, *classify_call(call, routes)) for call in rnd.calls]
    for exchange in rnd.sent:
        if id(exchange) in served:
            continue
        name, arguments = exchange.name, exchange.arguments
        if isinstance(arguments, str):
            return "arguments_text", (
                f"tools/call 的 params.arguments 是文本 {_short(arguments)}：MCP 要的是对象，"
                "先把模型的 arguments 文本解析出来"
            )
        if name in routes or (isinstance(name, str) and ALIAS_SEPARATOR in name):
            return (
                "alias",
                f"tools/call 的 params.name 是模型侧的别名 {_short(name)}：服务只认识原名，别名没有映射回去",
            )
        open_calls = [
            (c, s, t, a) for c, k, s, t, a in kinds if k == "run" and str(c.get("call_id")) not in paired
        ]
        same_tool = [(c, s, a) for c, s, t, a in open_calls if t == name]
        if any(s == exchange.service for _, s, _ in same_tool):
            model_args = next(a for _, s, a in same_tool if s == exchange.service)
            return "hard_coded", (
                f"发给服务的 arguments {_short(arguments)} 与模型给出的 {_short(model_args)} 不同："
                "值要从模型的 arguments 解析，不能写死示例里的值"
            )
        if same_tool:
            return "route", (
                f"工具 {name} 属于服务 {same_tool[0][1]}，你的循环把它发给了服务 {exchange.service}："
                "别名前半截是服务名，要按路由表发给对的服务"
            )
        for call, kind, _, tool, _ in kinds:
            if kind == "unknown_alias" and str(call.get("name")).endswith(f"{ALIAS_SEPARATOR}{name}"):
                return "unknown_alias", (
                    f"模型调用了没有声明的 {call.get('name')}，你的循环却把 {name} 发给了服务："
                    "路由表里没有的别名不执行，作为失败反馈给模型"
                )
            if kind == "bad_arguments" and tool == name:
                return "bad_arguments", (
                    f"模型这次给的 arguments {_short(call.get('arguments'))} 不是 JSON 对象，"
                    "你的循环仍然发出了 tools/call：解析失败就不执行，作为失败反馈给模型"
                )
        return "extra_call", (
            f"服务 {exchange.service} 收到的 tools/call {_short(exchange.request.get('params'))} "
            "不对应模型的任何调用"
            "（多发了一次？）：每个调用只执行一次"
        )
    open_ids = [
        str(c.get("call_id")) for c, k, *_ in kinds if k == "run" and str(c.get("call_id")) not in paired
    ]
    if open_ids and (complete or paired):
        return "unexecuted", (
            f"模型第 {rnd.n} 轮给了 {len(rnd.calls)} 个 function_call，"
            f"应用发出了 {len(rnd.sent)} 个 tools/call："
            f"{open_ids[0]} 没有执行"
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
        return "feedback", f"调用 {call_id} 的反馈 output 应当是文本，得到 {_short(output)}"
    kind, *_ = classify_call(call, routes)
    if kind != "run":
        what = (
            f"没有声明的工具 {call.get('name')}"
            if kind == "unknown_alias"
            else f"不是 JSON 对象的 arguments {_short(call.get('arguments'), 30)}"
        )
        if not output.startswith(FAILURE_PREFIX) or not output[len(FAILURE_PREFIX) :].strip():
            return kind, (
                f"模型调用了{what}，反馈却是 {_short(output, 40)}：要写成失败（以 {FAILURE_PREFIX!r} 开头，"
                "说明原因），让模型知道什么也没有执行"
            )
        return None
    if exchange is None or exchange.reply is None:
        return "service", f"调用 {call_id} 的 tools/call 没有得到服务的回答"
    reply = exchange.reply
    if "error" in reply and "result" not in reply:
        error = reply.get("error")
        message = str(error.get("message", "")) if isinstance(error, dict) else ""
        if not output.startswith(FAILURE_PREFIX) or message not in output:
            return "feedback", (
                f"服务用协议错误回答了 {call_id}（{_short(message, 40)}），反馈却是 {_short(output, 40)}："
                f"协议错误也是失败，要以 {FAILURE_PREFIX!r} 开头并带上错误说明"
            )
        return None
    try:
        text, failed = result_text(reply)
        compare_feedback(output, text, failed)
    except Fail as wrong:
        return "feedback", f"调用 {call_id} 的反馈不对：{wrong}"
    return None


def tool_texts(all_rounds: list[Round]) -> set[str]:
    """Every text a service returned in the run (a loop must not show one as its answer)."""
    from lessons_lib.core.queries import reply_text

    return {reply_text(x.reply) for r in all_rounds for x in r.sent if x.reply is not None}


def crash_problem(record: RunRecord, last: Round | None) -> Found | None:
    """The loop raised: named by what the round held that it could not handle, else ``crashed``."""
    raised = record.raised
    if raised is None:
        return None
    if "AttributeError" in raised and "ResponseOutputMessage" in raised:
        return "first_item", raised + FIRST_ITEM
    names = {str(c.get("name")) for c in (last.calls if last else [])}
    bad = [c for c in (last.calls if last else []) if parsed_arguments(c.get("arguments")) is None]
    if bad and ("JSONDecodeError" in raised or "ValueError" in raised or "TypeError" in raised):
        return "bad_arguments", (
            f"模型给的 arguments {_short(bad[0].get('arguments'), 40)} 不是 JSON 对象，{raised}："
            "解析失败要作为失败反馈交给模型，循环继续"
        )
    if "KeyError" in raised and any(f"'{n}'" in raised for n in names):
        return "unknown_alias", (
            f"模型调用了路由表里没有的名字，{raised}：没有声明的别名要作为失败反馈交给模型，循环继续"
        )
    return "crashed", raised
