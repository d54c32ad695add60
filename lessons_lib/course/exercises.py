"""The step checkers of lesson 11: each runs one learner function against the real pieces.

Introduced in lesson 11. ``check_step(n, fn)`` checks step ``n`` of the application loop (1-6
the steps, 7 the whole loop, 8 the loop over two services); the inputs come from real runs (the
``openai`` SDK's own response objects, real MCP reply frames), and at least one of them is a
variation the starter code did not show. A blank
left in the starter code (``...`` or ``# TODO``) gets "还没有完成" and a hint, never an
exception, so a notebook as the learner first gets it runs from top to bottom.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Final

from lessons_lib.checks.evidence import result_text
from lessons_lib.checks.fieldchecks import compare_feedback
from lessons_lib.checks.jsoncheck import Fail, need, show
from lessons_lib.checks.roundtripchecks import check_context
from lessons_lib.core.example import MISSING_PATH, SERVICE_NAME, TOOL_NAME, task_text
from lessons_lib.core.jsonvalue import JSONObject, get_in
from lessons_lib.core.queries import link_for, mcp_exchanges
from lessons_lib.course.exercises_base import Learner, StepResult, run_checker


def _feedback(call_id: str, reply: JSONObject) -> JSONObject:
    from lessons_lib.core.example import FAILURE_PREFIX

    text, failed = result_text(reply)
    return {
        "type": "function_call_output",
        "call_id": call_id,
        "output": FAILURE_PREFIX + text if failed else text,
    }


def _frame(request_id: int, name: str, arguments: JSONObject) -> JSONObject:
    params: JSONObject = {"name": name, "arguments": arguments}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def _step1(fn: Learner) -> str:
    from lessons_lib.engine.kit import workbench
    from lessons_lib.engine.kitparts import sdk_tool

    with workbench() as bench:
        tool = bench.fs.list_tools().tools[0]
    schema: JSONObject = {
        "type": "object",
        "properties": {"query": {"type": "string"}},
        "required": ["query"],
    }
    other = sdk_tool("search_notes", "Search the notes by keyword.", schema)
    for service, t in ((SERVICE_NAME, tool), ("docs", other)):
        rule = copy.deepcopy(t.input_schema)  # the checker's own copy: fn may change the tool it gets
        entry = fn(service, t)
        need(isinstance(entry, dict), f"应当返回一个 dict（Responses 的 tools 项），返回的是 {show(entry)}")
        need(entry.get("type") == "function", f'type 应当是 "function"，得到 {show(entry.get("type"))}')
        alias = f"{service}__{t.name}"
        need(
            entry.get("name") == alias,
            f"服务 {service} 的工具 {t.name}：name 应当是别名 {alias}，得到 {show(entry.get('name'))}",
        )
        need(
            entry.get("parameters") == rule and t.input_schema == rule,
            "parameters 应当就是这个工具的 inputSchema：规则原样搬过去，不增不减，也不改原来的工具",
        )
        need(
            entry.get("strict") is False,
            f"strict 要明确写成 False（省略时接口会按 strict 处理 schema），得到 {show(entry.get('strict'))}",
        )
        json.dumps(entry)
    return "两个工具都变成了 Responses 的 tools 项：别名、原样的 parameters、strict: false"


def _step2(fn: Learner) -> str:
    from lessons_lib.engine.kit import workbench
    from lessons_lib.engine.kitparts import as_input, ask
    from lessons_lib.engine.standin_rules import Script

    script = Script(
        preamble="好的，我来读取。", also=(json.dumps({"path": "/workspace/notes.txt", "tail": 2}),)
    )
    with workbench(task_text(head=4), script=script) as bench:
        tools = bench.course_tools()
        items: list[JSONObject] = [{"role": "user", "content": task_text(head=4)}]
        first = ask(bench, items, tools)
        want = [i.call_id for i in first.output if i.type == "function_call"]
        got = fn(first)
        ids = [getattr(i, "call_id", None) for i in got or []]
        need(
            ids == want,
            f"这次 output 是 [文字, 调用, 调用]，应当找到 {want}，得到 {ids}：按 type 找，不按位置",
        )
        outputs: list[JSONObject] = [
            {"type": "function_call_output", "call_id": c, "output": "x"} for c in want
        ]
        answer = ask(bench, items + as_input(first) + outputs, tools)
        rest = list(fn(answer) or [])
        need(rest == [], f"只有文字答复的响应里没有调用，应当返回 []，得到 {show(rest)}")
    return "先有文字、再有两个调用的响应里找到了两个 function_call；纯文字的响应里一个也没有"


def _step3(fn: Learner) -> str:
    from lessons_lib.engine.kit import workbench
    from lessons_lib.engine.kitparts import ask, function_calls, sdk_call

    routes = {"fs__read_text_file": ("fs", TOOL_NAME), "docs__search_notes": ("docs", "search_notes")}
    with workbench(task_text(head=7)) as bench:
        tools = bench.course_tools()
        call = function_calls(ask(bench, [{"role": "user", "content": task_text(head=7)}], tools))[0]
    other = sdk_call("call_2", "docs__search_notes", '{"query": "MCP"}')
    for c, (service, tool) in ((call, routes["fs__read_text_file"]), (other, routes["docs__search_notes"])):
        got = fn(c, routes)
        need(
            isinstance(got, tuple) and len(got) == 3,
            f"应当返回 (service, tool, args) 三元组，得到 {show(got)}",
        )
        need(
            got[:2] == (service, tool),
            f"别名 {c.name} 应当映射到 ({service}, {tool})，得到 {show(list(got[:2]))}",
        )
        args = json.loads(c.arguments)
        need(
            isinstance(got[2], dict),
            f"args 应当是解析后的对象（dict），得到 {show(got[2])}：arguments 是 JSON 文本",
        )
        need(got[2] == args, f"args 应当是 {show(args)}（从 arguments 解析），得到 {show(got[2])}")
    broken = (
        (
            sdk_call("call_3", "fs__read_file", '{"path": "/workspace/notes.txt"}'),
            "没有声明的别名 fs__read_file",
        ),
        (sdk_call("call_4", "fs__read_text_file", '{"path": "/workspace/no'), "截断的 arguments"),
        (sdk_call("call_5", "fs__read_text_file", '["/workspace/notes.txt"]'), "不是对象的 arguments"),
    )
    for c, what in broken:
        try:
            got = fn(c, routes)
        except ValueError as exc:
            need(str(exc).strip(), f"{what}：抛出的 ValueError 要带一句原因，模型会读到它")
            continue
        except Exception as exc:  # the learner's code: say which exception instead
            raise Fail(
                f"{what}：应当抛出 ValueError（说明原因），你的函数抛出的是 {type(exc).__name__}"
            ) from None
        raise Fail(
            f"{what}：应当抛出 ValueError（说明原因），得到 {show(got)}；循环会把它作为失败反馈交给模型"
        )
    return (
        "别名映射回了服务和原名，arguments 文本解析成了对象；没有声明的别名、坏的 arguments 抛出了 ValueError"
    )


def _step4(fn: Learner) -> str:
    from lessons_lib.engine.kit import workbench

    with workbench() as bench:
        moves = (
            ("call_a", {"path": "/workspace/notes.txt", "head": 3}),
            ("call_b", {"path": MISSING_PATH}),
        )
        replies = [fn(bench.fs, call_id, TOOL_NAME, args) for call_id, args in moves]
        trace = bench.finish(None)
    sent = [x.request for x in mcp_exchanges(trace, "tools/call")]
    need(len(sent) == 2, f"两次调用应当发出两个 tools/call 请求，发出了 {len(sent)} 个")
    used = [json.dumps(x.request.get("id")) for x in mcp_exchanges(trace, None)]
    need(len(set(used)) == len(used), f"JSON-RPC id 有重复（{', '.join(used)}）：每个请求都要有新的 id")
    for (call_id, args), frame, reply in zip(moves, sent, replies, strict=True):
        name, got = get_in(frame, "params", "name"), get_in(frame, "params", "arguments")
        need(name == TOOL_NAME, f"params.name 应当是 {TOOL_NAME}，得到 {show(name)}")
        need(
            not isinstance(got, str),
            f"params.arguments 是文本 {show(got, 40)}：MCP 要的是对象，直接放解析出的 args",
        )
        need(got == args, f"params.arguments 应当是 {show(args)}，得到 {show(got)}")
        need(
            isinstance(reply, dict) and reply.get("id") == frame.get("id"),
            "应当返回 fs.send 给的回答（id 与请求相同）",
        )
        link = link_for(trace, call_id)
        need(link is not None, f"没有记下 {call_id} 对应哪个请求：调用 fs.send(frame, call_id=call_id)")
        mcp_id = link["mcp_id"] if link is not None else None
        need(mcp_id == frame.get("id"), f"{call_id} 关联到了 id {mcp_id}，实际请求的 id 是 {frame.get('id')}")
    ids = f"id {sent[0].get('id')} 与 {sent[1].get('id')}"
    return f"两个 tools/call（{ids}）：params.arguments 是对象，call_id 与 JSON-RPC id 已配对"


def _step5(fn: Learner) -> str:
    from lessons_lib.engine.kit import workbench

    with workbench() as bench:
        good = bench.fs.send(
            _frame(bench.fs.next_id(), TOOL_NAME, {"path": "/workspace/notes.txt", "head": 2})
        )
        missing = bench.fs.send(_frame(bench.fs.next_id(), TOOL_NAME, {"path": MISSING_PATH}))
        unknown = bench.fs.send(_frame(bench.fs.next_id(), "read_txt", {"path": "/workspace/notes.txt"}))
    for n, reply in enumerate((good, missing, unknown), 1):
        call_id = f"call_fb_{n}"
        item = fn(call_id, reply)
        need(isinstance(item, dict), f"应当返回一个 dict（function_call_output 项），得到 {show(item)}")
        need(
            item.get("type") == "function_call_output",
            f'type 应当是 "function_call_output"，得到 {show(item.get("type"))}',
        )
        need(
            item.get("call_id") == call_id,
            f"call_id 应当是模型调用的 {call_id}，得到 {show(item.get('call_id'))}",
        )
        text, failed = result_text(reply)
        output = item.get("output")
        need(isinstance(output, str), f"output 应当是文本，得到 {show(output)}")
        compare_feedback(output, text, failed)
    return "成功、工具执行错误（isError）、协议错误三种回答都变成了对的 function_call_output，失败仍是失败"


def _step6(fn: Learner) -> str:
    from lessons_lib.engine.kit import workbench
    from lessons_lib.engine.kitparts import ask

    with workbench(task_text(head=6)) as bench:
        tools = bench.course_tools()
        items: list[JSONObject] = [{"role": "user", "content": task_text(head=6)}]
        first = ask(bench, items, tools)
        calls = [i for i in first.output if i.type == "function_call"]
        outputs = []
        for call in calls:
            frame = _frame(bench.fs.next_id(), TOOL_NAME, json.loads(call.arguments))
            outputs.append(_feedback(call.call_id, bench.fs.send(frame, call_id=call.call_id)))
        given = copy.deepcopy(items)
        following = fn(given, first, outputs)
        need(isinstance(following, list), f"应当返回下一次请求的 input 列表，得到 {show(following)}")
        second = ask(bench, following, tools)
        trace = bench.finish(second.output_text)
    bodies = {e["label"]: e["body"] for e in trace.events if e["channel"] == "model"}
    check_context({k: bodies.get(k) for k in ("request_1", "response_1", "request_2")})
    return f"第二次请求依次带上任务、原调用和反馈；模型据此作答（{len(second.output_text)} 个字符）"


def _loop(function: str) -> Callable[[Learner], str]:
    def check(fn: Learner) -> str:
        from lessons_lib.course.grading import grade_loop

        report = grade_loop(fn, function)
        need(report.passed, report.message + (f"\n去看：{report.hint}" if report.hint else ""))
        return report.message

    return check


STEPS: Final[dict[int, tuple[str, str, Callable[[Learner], str], str]]] = {
    1: (
        "to_responses_tool",
        "第 1 步 声明：MCP 工具 → Responses tools 项",
        _step1,
        "想一想：模型侧的名字要能说出是哪个服务的哪个工具；规则（inputSchema）在搬运中能不能变？",
    ),
    2: (
        "find_calls",
        "第 2 步 调用：找出 function_call",
        _step2,
        "想一想：output 里除了调用还会有什么？一轮里的调用一定只有一个吗？",
    ),
    3: (
        "route_call",
        "第 3 步 解析与路由",
        _step3,
        "想一想：arguments 是文本还是对象？模型给的名字不在路由表里、文本不是 JSON 时，该怎样说出来？",
    ),
    4: (
        "send_tools_call",
        "第 4 步 执行：发送 tools/call",
        _step4,
        "想一想：服务认识的是哪个名字？params.arguments 要的是文本还是对象？",
    ),
    5: (
        "to_feedback",
        "第 5 步 反馈：function_call_output",
        _step5,
        "想一想：服务的回答有哪三种？失败读起来会不会像成功？",
    ),
    6: (
        "next_input",
        "第 6 步 第二次请求的 input",
        _step6,
        "想一想：模型没有记忆，第二次请求要让它看到哪三样东西？",
    ),
    7: (
        "app_loop",
        "阶段二 整个循环：从空函数写起",
        _loop("app_loop"),
        "想一想：什么时候停？模型有回答时、到了 max_rounds 时，各该返回什么？坏的调用怎样让循环继续？",
    ),
    8: (
        "app_loop_many",
        "阶段三 迁移：一个循环驱动两个服务",
        _loop("app_loop_many"),
        "想一想：路由表怎样同时装下两个服务的工具？每个调用该发给哪个服务？",
    ),
}
STEP_NAMES: Final = {name: n for n, (name, *_rest) in STEPS.items() if n <= 7}
"""The functions a class gradebook grades (stage 3, ``app_loop_many``, is graded by name on request)."""


def check_step(step: int, fn: object) -> StepResult:
    """Check the learner's function for step ``step`` (1-8: six steps, the loop, the transfer). Lesson 11."""
    if step not in STEPS:
        return StepResult(f"第 {step} 步", False, f"没有第 {step} 步：步骤编号是 1 到 {len(STEPS)}")
    _, title, checker, hint = STEPS[step]
    return run_checker(title, hint, checker, fn)
