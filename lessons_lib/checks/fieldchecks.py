"""The seven field checks of ``verify_fields`` and the relations the doctor tests too. Lesson 07.

Each check takes the field fragments (see ``lessons_lib.checks.verify``) and returns the PASS reason
or raises ``Fail``. The relations between the pieces of one call -- the reply answers the
request's id, the link ties call_id to that id, the feedback is the tool's own text -- are
helpers here, so ``lessons_lib.checks.doctor`` states them with the same words. Standard library only.
"""

from __future__ import annotations

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


def need_reply_to(reply_id: object, mcp_id: object) -> None:
    """The MCP response answers the request with this JSON-RPC id."""
    need(
        same(reply_id, mcp_id),
        f"MCP 响应的 id 是 {show(reply_id)}，请求的 id 是 {show(mcp_id)}：响应回答的不是这次请求",
    )


def need_link_to(link: JSONObject, call_id: object, mcp_id: object, where: str = "link") -> None:
    """The application's link ties this call_id to the MCP id actually sent."""
    need(
        same(link.get("mcp_id"), mcp_id),
        f"{where} 把 {call_id} 关联到 MCP id {show(link.get('mcp_id'))}，实际请求的 id 是 {show(mcp_id)}",
    )


def need_not_mcp_id(got: object, call_ids: list[JSON], mcp_id: object, hint: str = "") -> None:
    """A feedback's call_id is not the MCP id written where the model's call_id belongs."""
    need(
        got in call_ids or mcp_id is None or str(got) != str(mcp_id),
        f"反馈的 call_id 是 {show(got)}，那是 MCP 的 id：两个编号混用了{hint}",
    )


def compare_feedback(output: str, tool_text: str, is_error: bool) -> str:
    """PASS reason if the feedback is the tool's own text and keeps success or failure, else Fail."""
    if is_error:
        need(
            output.startswith(FAILURE_PREFIX),
            f"服务报告失败（isError: true，{show(tool_text, 40)}），"
            f"反馈却没有以 {show(FAILURE_PREFIX)} 标出失败，读起来像读取成功",
        )
        need(
            output == FAILURE_PREFIX + tool_text,
            f"反馈标成了失败，但不是这次的失败说明：{first_text_diff(FAILURE_PREFIX + tool_text, output)}",
        )
        return f"服务报告失败，反馈如实写成 {show(output, 50)}"
    need(not output.startswith(FAILURE_PREFIX), "服务读取成功（isError: false），反馈却写成了失败")
    need(output == tool_text, f"反馈不是服务返回的原文：{first_text_diff(tool_text, output)}")
    return f"output 与 MCP result.content 的文本逐字相同（{len(tool_text)} 个字符）"


def check_rule(fragments: object) -> str:
    """The declaration is a rule (types, no values of this call) and the call carries values."""
    fr = obj(fragments, "片段文件")
    decl = obj(fr.get("declaration"), "declaration（Responses 的 tools 项）")
    need(decl.get("type") == "function", f'declaration.type 是 {show(decl.get("type"))}，应当是 "function"')
    call = fr.get("model_call")
    name = call.get("name") if isinstance(call, dict) else None
    need(
        name is None or decl.get("name") == name,
        f"模型调用了 {show(name)}，声明里的名称却是 {show(decl.get('name'))}",
    )
    summary = rule_summary(decl.get("parameters"), "declaration.parameters")
    args = call_values(fr)
    checked = values_follow_rule(args, decl["parameters"]) if args else ""
    values = [v for v in args.values() if isinstance(v, str | int | float) and not isinstance(v, bool)]
    hit = value_in_rule(decl.get("parameters"), values, "declaration.parameters")
    need(hit is None, f"声明里出现了本次的值：{hit}；规则只说明怎么填，不携带本次参数")
    if fr.get("mcp_declaration") is not None:
        mcp_decl = obj(fr.get("mcp_declaration"), "mcp_declaration（MCP 的 tools/list 项）")
        rule_summary(mcp_decl.get("inputSchema"), "mcp_declaration.inputSchema")
        hit = value_in_rule(mcp_decl.get("inputSchema"), values, "mcp_declaration.inputSchema")
        need(hit is None, f"MCP 声明里出现了本次的值：{hit}")
    if not args:
        return f"声明只含类型（{summary}）；没有可核对的调用值"
    return f"声明只含类型（{summary}），调用只含符合类型的值（{checked}）"


def check_text_object(fragments: object) -> str:
    """The model's arguments are JSON text; the MCP arguments are an object."""
    fr = obj(fragments, "片段文件")
    call = obj(fr.get("model_call"), "model_call（模型的 function_call 项）")
    mcp_args = mcp_arguments(fr.get("mcp_request"))
    parse_arguments(call)
    size = len(call["arguments"])
    return f"arguments 是 JSON 文本（{size} 个字符），params.arguments 是对象（{len(mcp_args)} 个键）"


def check_values_equal(fragments: object) -> str:
    """Parsing the text gives exactly the values the service receives (path, head)."""
    fr = obj(fragments, "片段文件")
    parsed = parse_arguments(fr.get("model_call"))
    mcp_args = mcp_arguments(fr.get("mcp_request"))
    for key in list(parsed) + [k for k in mcp_args if k not in parsed]:
        need(key in parsed, f"{key} 只出现在 MCP arguments 里（{show(mcp_args.get(key))}），模型没有给出它")
        need(key in mcp_args, f"{key}={show(parsed[key])} 在传给服务时丢了")
        need(
            same(parsed[key], mcp_args[key]),
            f"{key} 变了：arguments 文本里是 {show(parsed[key])}，MCP arguments 里是 {show(mcp_args[key])}",
        )
    pairs = "，".join(f"{k}={show(v)}" for k, v in parsed.items()) or "没有参数"
    return f"{pairs}（arguments 文本解析后与 MCP arguments 对象逐项相同）"


def check_route(fragments: object) -> str:
    """The application's link maps the alias back to the tool and ties call_id to the MCP id."""
    fr = obj(fragments, "片段文件")
    call = obj(fr.get("model_call"), "model_call（模型的 function_call 项）")
    need(fr.get("mcp_request") is not None, "没有 MCP tools/call 请求：调用没有被路由到任何服务")
    request = obj(fr.get("mcp_request"), "mcp_request")
    tool = obj(request.get("params"), "mcp_request.params").get("name")
    alias, call_id, mcp_id = call.get("name"), call.get("call_id"), request.get("id")
    need(fr.get("link") is not None, "缺少应用的关联记录 link：call_id 与 MCP id 只能由应用关联")
    link = obj(fr.get("link"), "link（应用的关联记录）")
    need(
        link.get("alias") == alias, f"link 记录的别名是 {show(link.get('alias'))}，模型调用的是 {show(alias)}"
    )
    need(
        link.get("tool") == tool,
        f"别名 {alias} 应当映射到 {show(link.get('tool'))}，MCP 请求调用的却是 {show(tool)}",
    )
    need(
        link.get("call_id") == call_id,
        f"link 记录的 call_id 是 {show(link.get('call_id'))}，模型调用的是 {show(call_id)}",
    )
    need_link_to(link, call_id, mcp_id)
    decl = fr.get("mcp_declaration")
    declared = decl.get("name") if isinstance(decl, dict) else tool
    need(declared == tool, f"MCP 声明的工具名是 {show(declared)}，请求调用的却是 {show(tool)}")
    return f"应用把 {alias}（{call_id}）路由到服务 {link.get('service')} 的 {tool}（MCP id {show(mcp_id)}）"


def check_mcp_pair(fragments: object) -> str:
    """The MCP request and response pair by their JSON-RPC id."""
    fr = obj(fragments, "片段文件")
    need(fr.get("mcp_request") is not None, "没有 MCP tools/call 请求，无从配对")
    request = obj(fr.get("mcp_request"), "mcp_request")
    mcp_id = request.get("id")
    need(
        isinstance(mcp_id, int | str) and not isinstance(mcp_id, bool),
        f"mcp_request.id 是 {show(mcp_id)}，应当是数字或文本",
    )
    need(fr.get("mcp_result") is not None, f"没有 MCP 响应回答请求 id={show(mcp_id)}")
    response = obj(fr.get("mcp_result"), "mcp_result")
    need_reply_to(response.get("id"), mcp_id)
    need(
        request.get("jsonrpc") == "2.0" and response.get("jsonrpc") == "2.0",
        '两条 MCP 消息的 jsonrpc 都应当是 "2.0"',
    )
    need(("result" in response) != ("error" in response), "MCP 响应应当恰好有 result 或 error 之一")
    return f"tools/call 请求 id={show(mcp_id)}，响应 id={show(response['id'])}"


def check_call_pair(fragments: object) -> str:
    """The model's function_call and the feedback pair by call_id."""
    fr = obj(fragments, "片段文件")
    call = obj(fr.get("model_call"), "model_call（模型的 function_call 项）")
    call_id = call.get("call_id")
    need(isinstance(call_id, str) and call_id, f"model_call.call_id 是 {show(call_id)}，应当是非空文本")
    need(
        fr.get("feedback") is not None,
        f"没有 function_call_output：{call_id} 没有配对的反馈，结果没有回到模型输入",
    )
    feedback = obj(fr.get("feedback"), "feedback（function_call_output 项）")
    need(
        feedback.get("type") == "function_call_output",
        f'feedback.type 是 {show(feedback.get("type"))}，应当是 "function_call_output"',
    )
    got = feedback.get("call_id")
    request = fr.get("mcp_request")
    mcp_id = request.get("id") if isinstance(request, dict) else None
    need_not_mcp_id(got, [call_id], mcp_id, f"，应当是 {show(call_id)}")
    need(got == call_id, f"反馈的 call_id 是 {show(got)}，模型调用的是 {show(call_id)}：对不上")
    return f"function_call 与 function_call_output 的 call_id 都是 {call_id}"


def check_feedback(fragments: object) -> str:
    """The feedback text is the tool's own result text and keeps success or failure."""
    fr = obj(fragments, "片段文件")
    need(fr.get("mcp_result") is not None, "没有 MCP 响应：反馈没有可以来自的执行结果")
    tool_text, is_error = result_text(fr.get("mcp_result"), "mcp_result")
    need(fr.get("feedback") is not None, "没有 function_call_output：执行结果没有回到模型输入")
    return compare_feedback(feedback_output(fr.get("feedback")), tool_text, is_error)


def field_checks(fr: object) -> list[Check]:
    """The seven checks of ``verify_fields`` on one set of fragments, in the seed's order."""
    return [
        run_check("rule", "规则保持规则", check_rule, fr),
        run_check("text_object", "模型参数是文本，MCP 参数是对象", check_text_object, fr),
        run_check("values_equal", "解析前后值相等", check_values_equal, fr),
        run_check("route", "别名映射回原工具", check_route, fr),
        run_check("mcp_pair", "MCP 请求与响应按 id 配对", check_mcp_pair, fr),
        run_check("call_pair", "模型调用与反馈按 call_id 配对", check_call_pair, fr),
        run_check("feedback", "反馈内容来自同一份结果", check_feedback, fr),
    ]
