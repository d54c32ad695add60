"""What the lesson-11 grader runs a learner's loop on, and its own checks of the frames.

Introduced in lesson 11. The example task plus variations the learner did not see (another
head, a missing file, a path outside the root, two calls in one turn, a text before the call,
a model that never stops calling), so a loop that hard-codes the example fails. The chain
doctor and ``verify_roundtrip`` judge each run; the checks here catch, first and by name, the
mistakes those tools only see as a side effect (arguments sent as text, an alias sent to the
service, a JSON-RPC id used twice, values that did not come from ``arguments``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Final, cast

from lessons_lib.core.example import ALIAS_SEPARATOR, MISSING_PATH, OUTSIDE_PATH, task_text
from lessons_lib.core.jsonvalue import JSON, get_in, same
from lessons_lib.core.queries import (
    ToolCall,
    calls,
    declared,
    links,
    mcp_exchanges,
    model_rounds,
    reply_text,
)
from lessons_lib.core.trace import Trace
from lessons_lib.engine.offline_model import Script

MAX_ROUNDS: Final = 3
"""The round limit the grader passes to the learner's loop."""


@dataclass(frozen=True)
class Case:
    """One run of the learner's loop: the task, the stand-in's moves, and what must happen."""

    key: str
    title: str
    task: str
    script: Script | None = None
    expect: str = "answer"  # "answer" or "stop"
    hint: str = ""


CASES: Final = (
    Case("example", "示例：前 20 行", task_text()),
    Case(
        "another_head",
        "另一个 head：前 7 行",
        task_text(head=7),
        hint="换了 head 就出错，说明有值是照着示例写死的：path、head 都要从模型的 arguments 解析出来。",
    ),
    Case(
        "missing_file",
        "不存在的文件",
        task_text(MISSING_PATH, head=5),
        hint="服务这次报告失败（isError: true）：失败要如实写进 function_call_output，不能写成成功。",
    ),
    Case(
        "outside_root",
        "根目录之外的路径",
        task_text(OUTSIDE_PATH, head=5),
        hint="服务拒绝了根目录之外的路径：拒绝也是一种失败，要如实反馈，再让模型作答。",
    ),
    Case(
        "text_first",
        "调用前先有一段文字",
        task_text(head=4),
        Script(preamble="好的，我先读取这个文件。"),
        hint="这一次 output[0] 是一段文字，function_call 在它后面：按 type 找调用，不能假定第一项就是调用。",
    ),
    Case(
        "two_calls",
        "一轮里两个调用",
        task_text(head=3),
        Script(also=(json.dumps({"path": "/workspace/notes.txt", "tail": 2}),)),
        hint="这一轮模型给了两个 function_call：每个调用各发一次 tools/call（id 各不相同），各回一个反馈。",
    ),
    Case(
        "endless",
        "模型一直要求调用工具",
        task_text(head=2),
        Script(endless=True),
        expect="stop",
        hint=f"这个模型每一轮都要求再调用工具：循环要在 max_rounds={MAX_ROUNDS} 轮后自己停下，"
        "并告诉用户停下了。",
    ),
)

WHERE: Final = {
    "model_response": "第 1、2 步：第一次请求要带上 tools；调用要按 type 从 response.output 里找",
    "parse": "第 3 步 route_call：arguments 是 JSON 文本，要用 json.loads 解析",
    "route": "第 3、4 步：别名映射回服务和原名，params.arguments 就是解析出的对象",
    "service": "第 4 步 send_tools_call：看服务的回答（result.isError 或 error）",
    "feedback": "第 5 步 to_feedback：output 用服务返回的原文，失败时以 FAILURE_PREFIX 开头",
    "ids": "第 4、5 步：send 时写明 call_id，反馈的 call_id 就是模型调用的 call_id",
    "next_input": "第 6 步 next_input 与第 7 步：第二次请求带上任务、原调用和反馈，展示模型的回答",
    "arguments_text": "第 3、4 步：params.arguments 要放解析后的对象（dict），不是 arguments 文本",
    "alias": "第 3 步 route_call：用路由表把别名映射回原工具名",
    "id_reused": "第 4 步 send_tools_call：每个请求用 fs.next_id() 取一个新的 id",
    "hard_coded": "第 3 步 route_call：值只能来自 json.loads(call.arguments)",
    "no_limit": "第 7 步 app_loop：用 for _ in range(max_rounds) 限制轮数，到上限后返回一句说明",
    "stop_message": "第 7 步 app_loop：到达上限时返回一句说明（不是 None，不是工具原文）",
    "first_item": "第 2 步 find_calls：遍历 response.output，按 item.type 找 function_call",
    "unexecuted": "第 2、7 步：find_calls 要找出全部调用（按 type），循环要逐个执行",
    "unfinished": "第 7 步 app_loop：函数里还留着 ...（轮数上限和到达上限时的说明）",
    "crashed": "看出错的那一行；先用各步的检查单独试一试",
    "roundtrip": "第 6 步 next_input：第二次请求原样保留第一次的输入和原调用",
}
"""Where to look, by the key of the first broken link or of the grader's own check."""


class Broken(Exception):
    """The grader's own check failed: ``key`` names the mistake, the text explains it."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


def _short(value: object, width: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 1] + "…"


def check_frames(trace: Trace) -> None:
    """Raise ``Broken`` at the first tools/call the application wrote wrongly."""
    aliases = {str(t.name) for r in model_rounds(trace) for t in declared(trace, r.n)}
    made = calls(trace)
    used: dict[str, str] = {}
    n_call = 0
    for exchange in mcp_exchanges(trace, None):
        frame = exchange.request
        key = json.dumps(frame.get("id"))
        if key in used:
            raise Broken(
                "id_reused",
                f"JSON-RPC id {key} 在这条连接上已经用过（{used[key]}）：每个请求都要有新的 id，"
                "否则回答对不回请求",
            )
        used[key] = str(frame.get("method"))
        if frame.get("method") != "tools/call":
            continue
        name, arguments = get_in(frame, "params", "name"), get_in(frame, "params", "arguments")
        if isinstance(arguments, str):
            raise Broken(
                "arguments_text",
                f"tools/call 的 params.arguments 是文本 {_short(arguments)}：MCP 要的是对象，"
                "先用 json.loads 把模型的 arguments 文本解析出来",
            )
        if name in aliases or (isinstance(name, str) and ALIAS_SEPARATOR in name):
            raise Broken(
                "alias",
                f"tools/call 的 params.name 是模型侧的别名 {_short(name)}：服务只认识原名，别名没有映射回去",
            )
        call = _call_for(trace, frame.get("id"), made, n_call)
        n_call += 1
        parsed = _parsed(call.arguments) if call is not None else None
        if isinstance(parsed, dict) and not same(arguments, parsed):
            raise Broken(
                "hard_coded",
                f"发给服务的 arguments {_short(arguments)} 与模型给出的 {_short(parsed)} 不同："
                "值要从 arguments 解析，不能写死示例里的值",
            )


def _parsed(arguments: JSON) -> JSON:
    try:
        return cast(JSON, json.loads(arguments)) if isinstance(arguments, str) else None
    except ValueError:
        return None


def check_every_call_sent(trace: Trace) -> None:
    """Each round: as many tools/call requests as the model made function_calls."""
    exchanges = mcp_exchanges(trace, "tools/call")
    starts = [e["seq"] for e in trace.events if e["channel"] == "model" and e["label"].startswith("request_")]
    for n, made in enumerate(calls(trace, r.n) for r in model_rounds(trace)):
        if not made:
            continue
        begin, end = starts[n], starts[n + 1] if n + 1 < len(starts) else len(trace.events)
        sent = sum(1 for x in exchanges if begin < x.request_at < end)
        if sent < len(made):
            raise Broken(
                "unexecuted",
                f"模型这一轮给了 {len(made)} 个 function_call，应用只发出了 {sent} 个 tools/call："
                f"{made[sent].call_id} 没有执行",
            )


def _call_for(trace: Trace, mcp_id: JSON, made: list[ToolCall], n: int) -> ToolCall | None:
    """The model call this tools/call serves: by the application's link, else by position."""
    link = next((k for k in links(trace) if same(k.get("mcp_id"), mcp_id)), None)
    found = next((c for c in made if link is not None and c.call_id == link.get("call_id")), None)
    return found or (made[n] if n < len(made) else None)


def check_stop(trace: Trace, answer: object, runaway: bool) -> None:
    """For the never-ending model: the loop stopped within the limit and said so."""
    rounds = len(model_rounds(trace))
    if runaway or rounds > MAX_ROUNDS:
        raise Broken(
            "no_limit",
            f"模型一直要求调用工具，你的循环发出了 {rounds} 次模型请求还没停（max_rounds={MAX_ROUNDS}）："
            "没有轮数上限",
        )
    tool_texts = {reply_text(x.reply) for x in mcp_exchanges(trace, "tools/call")}
    if not isinstance(answer, str) or not answer.strip() or answer in tool_texts:
        raise Broken(
            "stop_message",
            f"循环停下了，但返回的是 {_short(answer)}：到达上限时要返回一句说明，告诉用户没有得到回答",
        )
