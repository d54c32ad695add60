"""The seven links of the chain, each a step that reads a trace and returns its evidence. Lesson 08.

The order is the seed's troubleshooting order (section 8): 模型响应、解析结果、路由目标、服务检查、
实际反馈、关联标识、后续模型输入. A step returns the evidence for "ok" or raises ``Fail`` with the
reason the link is broken. One ``Chain`` follows one function_call of ``response_1`` (``index``),
so a trace that calls two services is walked once per call. Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable
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
    declared_tool,
    feedback_output,
    is_call,
    link_records,
    mcp_exchange,
    message_text,
    model_body,
    pick_feedback,
    result_text,
)
from lessons_lib.checks.fieldchecks import compare_feedback, need_link_to, need_not_mcp_id, need_reply_to
from lessons_lib.checks.jsoncheck import Fail, need, obj, show
from lessons_lib.core.apishapes import input_items
from lessons_lib.core.jsonvalue import JSONObject, diff_path
from lessons_lib.core.paths import LOGICAL_ROOT

STEPS: Final = (
    ("model_response", "模型响应"),
    ("parse", "解析结果"),
    ("route", "路由目标"),
    ("service", "服务检查"),
    ("feedback", "实际反馈"),
    ("ids", "关联标识"),
    ("next_input", "后续模型输入"),
)


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
    need(c.request_1 is not None, "trace 里没有第一次模型请求 request_1：应用没有把任务和工具发给模型")
    labels = [e.get("label") for e in c.trace["events"] if isinstance(e, dict)]
    need("http_error_1" not in labels, "模型接口对第一次请求返回了 HTTP 错误（http_error_1），没有响应")
    response = obj(model_body(c.trace, "response_1"), "response_1")
    calls = call_items(response)
    if not calls:
        said = message_text(response)
        raise Fail(
            f"response_1 里没有 function_call，模型直接回答了文字（{show(said, 40)}）：后面的工具环节没有发生"
        )
    call = c.call = calls[c.index]
    need(isinstance(call.get("name"), str) and call["name"], "function_call 缺少 name：不知道要调用哪个工具")
    need(
        isinstance(call.get("call_id"), str) and call["call_id"], "function_call 缺少 call_id：反馈将无法配对"
    )
    need(
        response.get("status", "completed") == "completed",
        f"response_1.status 是 {show(response.get('status'))}",
    )
    what = f"{call['name']}（call_id={call['call_id']}）"
    return f"response_1 有 function_call：{what}；completed 只表示生成完成，不表示已执行"


def _parse(c: Chain) -> str:
    c.args = parse_arguments(c.call, "function_call.arguments")
    tool = declared_tool(c.request_1, c.call["name"])
    if tool is None or tool.get("name") != c.call["name"]:
        return f"arguments 文本解析为对象（{', '.join(c.args) or '无键'}）；这个名称的规则在路由时再查"
    rule_summary(tool.get("parameters"), f"声明 {c.call['name']} 的 parameters")
    rule = obj(tool.get("parameters"), "parameters")
    return f"arguments 文本解析为对象：{values_follow_rule(c.args, rule)}，符合声明的类型"


def _route(c: Chain) -> str:
    alias, call_id = c.call["name"], c.call["call_id"]
    routes = [r for r in c.trace.get("tools") or [] if isinstance(r, dict) and r.get("alias") == alias]
    known = ", ".join(str(r.get("alias")) for r in c.trace.get("tools") or [] if isinstance(r, dict)) or "无"
    need(routes, f"别名 {alias} 不在应用的工具表里（{known}）：应用不知道该把调用交给哪个服务")
    service, tool = routes[0].get("service"), routes[0].get("name")
    links = link_records(c.trace.get("links"), call_id)
    request, response = mcp_exchange(c.trace, service, links[0].get("mcp_id") if links else None)
    if request is None:
        unsent = "links 里它的 mcp_id 是 null；" if links and links[0].get("mcp_id") is None else ""
        raise Fail(
            f"trace 里没有 tools/call 请求：{call_id} 没有交给服务 {service}。{unsent}声明和调用都不是执行"
        )
    c.request, c.response = request, response or {}
    params = obj(request.get("params"), "tools/call 的 params")
    need(
        params.get("name") == tool,
        f"别名 {alias} 应当映射到 {service} 的 {tool}，请求调用的却是 {show(params.get('name'))}",
    )
    changed = diff_path(c.args, params.get("arguments"), "arguments")
    need(changed is None, f"值在路由中变了（{changed}）：params.arguments 应当就是解析出来的对象")
    return f"别名 {alias} → 服务 {service} 的 {tool}；tools/call 的 params.arguments 与解析结果相同"


def _service(c: Chain) -> str:
    need(c.response, f"服务没有回答 tools/call（id={show(c.request.get('id'))}）")
    c.tool_text, c.tool_failed = text, failed = result_text(c.response, "tools/call 的响应")
    path, head, tail = c.args.get("path"), c.args.get("head"), c.args.get("tail")
    if isinstance(path, str) and inside_root(path) is None:
        norm = normalised(path)
        need(
            failed,
            f"路径 {path} 规范化后是 {norm}，在 {LOGICAL_ROOT} 之外，服务却报告成功：格式正确不等于有权限",
        )
        return f"服务检查拒绝了根目录之外的路径 {path}：{show(text, 60)}"
    if failed:
        return f"服务检查没有通过，返回了失败（{show(text, 60)}）；失败要如实反馈"
    need(head is None or tail is None, "同时给了 head 和 tail，服务却报告成功：这两个参数不能同时使用")
    lines = len(text.split("\n")) if text else 0
    for key, limit in (("head", head), ("tail", tail)):
        need(not isinstance(limit, int) or lines <= limit, f"{key}={limit}，服务却返回了 {lines} 行")
    return f"服务检查通过并读取：isError 为 false，返回 {lines} 行文本"


def _feedback(c: Chain) -> str:
    c.feedback = pick_feedback(c.request_2, c.call, c.index)
    if c.feedback is None:
        return "执行结果已回到应用；它有没有进入模型输入，见「后续模型输入」"
    output = feedback_output(c.feedback, "function_call_output")
    return compare_feedback(output, c.tool_text or "", c.tool_failed)


def _ids(c: Chain) -> str:
    call_id, mcp_id = c.call["call_id"], c.request.get("id")
    answered = c.response.get("id")
    need_reply_to(answered, mcp_id)
    links = link_records(c.trace.get("links"), call_id)
    need(links, f"links 里没有 {call_id}：应用没有记下这次模型调用对应哪个服务请求")
    need_link_to(links[0], call_id, mcp_id, "links")
    if c.feedback is not None:
        got = c.feedback.get("call_id")
        need_not_mcp_id(got, [call_id], mcp_id)
        need(got == call_id, f"反馈的 call_id 是 {show(got)}，模型调用的是 {call_id}：反馈对不回原调用")
    return f"call_id {call_id} 在模型一侧配对，MCP id {show(mcp_id)} 在服务一侧配对，由应用的 links 关联"


def _next_input(c: Chain) -> str:
    answer = c.trace.get("answer")
    if c.request_2 is None:
        raw = isinstance(answer, str) and c.tool_text is not None and answer.strip() == c.tool_text.strip()
        need(
            not raw,
            "没有第二次模型请求，展示给用户的就是原始工具文本：把工具数据当成了最终回答，模型没有看到反馈",
        )
        raise Fail("没有第二次模型请求：执行结果没有交给模型，不能说模型结合了结果作答")
    before, after = input_items(c.request_1), input_items(c.request_2)
    changed = diff_path(before, after[: len(before)], "input")
    need(changed is None, f"第二次请求没有原样保留第一次的输入（{changed}）：用户任务丢了或被改了")
    need(
        any(is_call(i) and i.get("call_id") == c.call["call_id"] for i in after),
        "第二次请求丢了原调用 function_call：模型看不到这份反馈回答的是哪次调用",
    )
    need(
        c.feedback is not None,
        "第二次请求的 input 里没有 function_call_output：结果只留在应用里（比如日志），没有加入模型输入",
    )
    final = [
        e.get("body")
        for e in c.trace["events"]
        if isinstance(e, dict) and str(e.get("label")).startswith("response_")
    ]
    need(final and final[-1] is not model_body(c.trace, "response_1"), "第二次请求没有得到模型响应")
    said = message_text(final[-1])
    need(said, "最后一次模型响应里没有答复文本")
    need(
        answer is None or answer == said,
        f"应用展示的回答（{show(answer, 30)}）不是模型最后的答复：展示的不是模型的回答",
    )
    return f"第二次输入保留任务与原调用并追加反馈；模型据此作答（{len(said)} 个字符），应用展示的就是它"


WALK: Final[tuple[Callable[[Chain], str], ...]] = (
    _model_response,
    _parse,
    _route,
    _service,
    _feedback,
    _ids,
    _next_input,
)
