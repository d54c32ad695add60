"""The six round-trip checks of ``verify_roundtrip`` and its three built-in sabotages. Lesson 07.

Each check takes the round trip (``lessons_lib.roundtrip/1``, see ``lessons_lib.checks.verify``) and
returns the PASS reason or raises ``Fail``. ``trials`` breaks a copy three ways (wrong
call_id, dropped call, arguments as an object) and passes only if the checks reject each.
Standard library only.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any, Final

from lessons_lib.checks._rules import parse_arguments, rule_summary, values_follow_rule
from lessons_lib.checks.attachments import fragments_from_roundtrip
from lessons_lib.checks.evidence import call_items, is_call, is_output, message_text, output_items
from lessons_lib.checks.fieldchecks import (
    check_feedback,
    check_mcp_pair,
    check_route,
    check_text_object,
    check_values_equal,
    need_not_mcp_id,
)
from lessons_lib.checks.jsoncheck import list_of, need, obj, show
from lessons_lib.checks.verify_report import Check, run_check
from lessons_lib.core.apishapes import input_items
from lessons_lib.core.jsonvalue import JSONObject, diff_path, same


def check_declaration_kept(roundtrip: object) -> str:
    """Both requests carry the same tools, and every call names a declared tool."""
    rt = obj(roundtrip, "往返文件")
    first = obj(rt.get("request_1"), "request_1")
    need(rt.get("request_2") is not None, "没有第二次请求 request_2：模型没有收到执行结果")
    second = obj(rt.get("request_2"), "request_2")
    tools = list_of(first.get("tools"), "request_1.tools")
    need(tools, "request_1.tools 为空：模型不知道有哪些工具")
    changed = diff_path(tools, second.get("tools"), "tools")
    need(changed is None, f"第二次请求的工具声明与第一次不同（{changed}）：规则应当原样保留")
    names = []
    for n, tool in enumerate(tools):
        t = obj(tool, f"request_1.tools[{n}]")
        if t.get("type") == "function":
            rule_summary(t.get("parameters"), f"request_1.tools[{n}].parameters")
            names.append(str(t.get("name")))
    for call in call_items(rt.get("response_1")):
        need(
            call.get("name") in names,
            f"模型调用了 {show(call.get('name'))}，它不在声明的工具里（{', '.join(names)}）",
        )
    return f"两次请求的 tools 完全相同（{', '.join(names) or '无函数工具'}），都只含规则"


def check_context(roundtrip: object) -> str:
    """The second input keeps the task and the original call, then adds the feedback."""
    rt = obj(roundtrip, "往返文件")
    first = obj(rt.get("request_1"), "request_1")
    need(rt.get("request_2") is not None, "没有第二次请求 request_2：上下文在第一轮后就断了")
    second = obj(rt.get("request_2"), "request_2")
    before, after = input_items(first), input_items(second)
    need(before, "request_1.input 为空：没有用户任务")
    need(isinstance(second.get("input"), list), "request_2.input 应当是数组：任务、原调用、工具反馈")
    changed = diff_path(before, after[: len(before)], "input")
    need(changed is None, f"第二次请求没有原样保留第一次的输入（{changed} 不同）：用户任务丢了或被改了")
    calls = call_items(rt.get("response_1"))
    need(calls, "response_1.output 里没有 function_call：没有可以延续的调用")
    rest = after[len(before) :]
    for call in calls:
        kept = [
            n for n, item in enumerate(rest) if is_call(item) and item.get("call_id") == call.get("call_id")
        ]
        need(
            kept,
            f"第二次请求丢了原调用（call_id={show(call.get('call_id'))}）：input 里应当保留 function_call 项",
        )
        changed = _call_copy_diff(call, rest[kept[0]])
        need(changed is None, f"第二次请求里的原调用被改了（{changed} 与 response_1 不同）")
        later = [i for i in rest[kept[0] + 1 :] if is_output(i)]
        need(
            later, f"原调用 {call.get('call_id')} 之后没有追加 function_call_output：执行结果没有进入模型输入"
        )
    n_out = len(output_items(second))
    return f"第二次 input 依次保留原输入 {len(before)} 项、原调用 {len(calls)} 项，再追加工具反馈 {n_out} 项"


def _call_copy_diff(call: JSONObject, copy_: JSONObject) -> str | None:
    """The first key where the copy in the next input differs from the call (status may be left out)."""
    for key in ("type", "call_id", "name", "arguments", "id", "status"):
        if (key == "status" and key not in copy_) or (key == "id" and key not in call and key not in copy_):
            continue
        if key not in copy_ or not same(call.get(key), copy_.get(key)):
            return key
    return None


def check_values_passed(fragments: object) -> str:
    """arguments is JSON text whose values follow the rule and reach the service unchanged."""
    check_text_object(fragments)
    equal = check_values_equal(fragments)
    decl = obj(obj(fragments, "片段").get("declaration"), "request_1 里被调用工具的声明")
    parameters = obj(decl.get("parameters"), "声明的 parameters")
    values_follow_rule(parse_arguments(obj(fragments, "片段").get("model_call")), parameters)
    return f"{equal}，且符合声明的类型"


def check_id_domains(roundtrip: object, fragments: object) -> str:
    """call_id pairs inside the model exchange, the MCP id inside the MCP exchange; links tie them."""
    rt = obj(roundtrip, "往返文件")
    calls = call_items(rt.get("response_1"))
    need(calls, "response_1.output 里没有 function_call：没有 call_id 可以配对")
    need(rt.get("request_2") is not None, "没有第二次请求 request_2：call_id 没有配对的反馈")
    outs = output_items(rt.get("request_2"))
    ids = [c.get("call_id") for c in calls]
    mcp_id = (rt.get("mcp_request") or {}).get("id") if isinstance(rt.get("mcp_request"), dict) else None
    for out in outs:
        got = out.get("call_id")
        need_not_mcp_id(got, ids, mcp_id)
        need(
            got in ids,
            f"反馈的 call_id {show(got)} 不对应 response_1 里的任何调用（{', '.join(map(str, ids))}）",
        )
    for call_id in ids:
        count = sum(1 for o in outs if o.get("call_id") == call_id)
        need(count == 1, f"{call_id} 有 {count} 个反馈，应当恰好 1 个")
    check_mcp_pair(fragments)
    need(isinstance(rt.get("links"), list), "缺少应用的关联记录 links：call_id 与 MCP id 只能由应用关联")
    route = check_route(fragments)
    return f"call_id 在模型往返内配对，MCP id 在服务往返内配对；{route}"


def check_answer(roundtrip: object) -> str:
    """The second response carries the model's answer text."""
    rt = obj(roundtrip, "往返文件")
    need(rt.get("response_2") is not None, "没有第二次响应 response_2：模型没有基于反馈作答")
    text = message_text(obj(rt.get("response_2"), "response_2"))
    need(text, "response_2.output 里没有 assistant 消息的 output_text：没有模型的答复")
    return f"response_2 里有 assistant 答复（{len(text)} 个字符）；答得对不对不在本地核对范围内"


def roundtrip_checks(rt: object) -> list[Check]:
    """The six checks of ``verify_roundtrip`` on one round trip, in order."""
    fr = fragments_from_roundtrip(rt)
    return [
        run_check("declaration_kept", "工具声明在两轮中保留", check_declaration_kept, rt),
        run_check("context", "两轮上下文连续", check_context, rt),
        run_check("values", "调用值原样传给服务", check_values_passed, fr),
        run_check("ids", "两个编号各自配对", check_id_domains, rt, fr),
        run_check("tool_text", "原始工具文本进入反馈", check_feedback, fr),
        run_check("answer", "第二次响应是模型的答复", check_answer, rt),
    ]


def _trial(key: str, title: str, sabotage: Callable[[Any], Any], rt: object) -> Check:
    try:
        broken = sabotage(copy.deepcopy(rt))
    except Exception as exc:  # a round trip too malformed to sabotage
        return Check(key, title, False, f"无法施加这个破坏（{type(exc).__name__}），原往返形状不对")
    failed = [c for c in roundtrip_checks(broken) if not c.passed]
    if not failed:
        return Check(key, title, False, "没有被拒绝：破坏后的往返仍然全部通过")
    return Check(key, title, True, "已拒绝 —— " + "；".join(f"{c.name}：{c.reason}" for c in failed[:2]))


def _sab_wrong_id(rt: JSONObject) -> JSONObject:
    for item in input_items(rt.get("request_2")):
        if is_output(item):
            item["call_id"] = f"{item.get('call_id')}_wrong"
    return rt


def _sab_drop_call(rt: JSONObject) -> JSONObject:
    request_2 = obj(rt.get("request_2"), "request_2")
    request_2["input"] = [i for i in input_items(request_2) if not is_call(i)]
    return rt


def _sab_arguments_object(rt: dict[str, Any]) -> dict[str, Any]:
    items = list(input_items(rt.get("request_2"))) + list((rt.get("response_1") or {}).get("output") or [])
    for item in items:
        if is_call(item) and isinstance(item.get("arguments"), str):
            item["arguments"] = json.loads(item["arguments"])
    return rt


_BUILT_IN: Final = (
    ("wrong_id", "错误编号（反馈的 call_id 对不上）", _sab_wrong_id),
    ("dropped_call", "丢失原调用（第二次输入里没有 function_call）", _sab_drop_call),
    ("arguments_object", "把参数文本改成对象（arguments 不再是 JSON 文本）", _sab_arguments_object),
)


def trials(rt: object) -> list[Check]:
    """Each built-in sabotage applied to a copy: PASS when the checks reject it."""
    return [_trial(name, title, fn, rt) for name, title, fn in _BUILT_IN]
