"""The small exercises of lessons 03, 06 and 07, each with an offline checker.

Introduced in lesson 03. ``check_exercise(3, mcp_request)``: write the MCP ``tools/call``
request from the model's ``arguments`` text; ``check_exercise(6, find_ids)``: find the
response id, the call's ``call_id`` and the MCP JSON-RPC id; ``check_exercise(7, break_chain)``:
change a round trip so that ``verify_roundtrip`` rejects it. Each checker runs the learner's
function on values from a fresh real run that the lesson did not show. A starter blank gets
"还没有完成" and a hint (see ``lessons_lib.course.exercises.run_checker``).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Final

from lessons_lib.checks.jsoncheck import Fail, need, show
from lessons_lib.core.example import TOOL_NAME
from lessons_lib.core.jsonvalue import JSONObject, get_in
from lessons_lib.core.queries import reply_text
from lessons_lib.core.tracetypes import TraceData
from lessons_lib.course.exercises_base import Learner, StepResult, run_checker


def _run(head: int, preamble: str | None = None) -> TraceData:
    from lessons_lib.engine.host import run_chain
    from lessons_lib.engine.standin_rules import Script

    return run_chain(head=head, script=Script(preamble=preamble)).to_dict()


def _check_03(fn: Learner) -> str:
    from lessons_lib.engine.kit import workbench

    cases = (
        ('{"path": "/workspace/notes.txt", "head": 7}', 5),
        ('{"path": "/workspace/notes.txt", "tail": 2}', 9),
    )
    replies = []
    with workbench() as bench:
        for text, request_id in cases:
            frame = fn(text, request_id)
            need(isinstance(frame, dict), f"应当返回一个 dict（JSON-RPC 请求），得到 {show(frame)}")
            args = json.loads(text)
            want: JSONObject = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call"}
            for key in ("jsonrpc", "id", "method"):
                need(
                    frame.get(key) == want[key],
                    f"{key} 应当是 {show(want[key])}，得到 {show(frame.get(key))}",
                )
            params = frame.get("params")
            need(isinstance(params, dict), f"params 应当是对象，得到 {show(params)}")
            need(
                params.get("name") == TOOL_NAME,
                f"params.name 应当是原名 {TOOL_NAME}，得到 {show(params.get('name'))}",
            )
            got = params.get("arguments")
            need(not isinstance(got, str), "params.arguments 还是文本：要先用 json.loads 解析成对象")
            need(got == args, f"params.arguments 应当是 {text}，得到 {show(got)}")
            replies.append(bench.fs.send(frame))
    lines = len(reply_text(replies[0]).split("\n"))
    return f"两个请求都对（head 7 与 tail 2）；真实的文件服务回答了第一个，返回 {lines} 行"


def _check_06(fn: Learner) -> str:
    from lessons_lib.core.queries import calls, mcp_exchanges, model_body

    trace = _run(4, preamble="好的，我先读取。")
    response_1 = model_body(trace, "response_1") or {}
    mcp_request = mcp_exchanges(trace)[0].request
    want = {
        "response_id": response_1.get("id"),
        "call_id": calls(trace, 1)[0].call_id,
        "mcp_id": mcp_request.get("id"),
    }
    first = get_in(response_1, "output", 0, "type")
    try:
        got = fn(copy.deepcopy(response_1), copy.deepcopy(mcp_request))
    except (KeyError, IndexError, StopIteration) as exc:
        raise Fail(
            f"你的函数抛出了 {type(exc).__name__}（{exc}）：这次 output[0] 是 {first}，不是调用，"
            "要按 type 找 function_call"
        ) from None
    need(isinstance(got, dict), f"应当返回一个 dict，键是 response_id、call_id、mcp_id，得到 {show(got)}")
    for key, value in want.items():
        need(key in got, f"缺少 {key}")
        hint = "（这次 output[0] 是一段文字：按 type 找 function_call）" if key == "call_id" else ""
        need(got[key] == value, f"{key} 应当是 {show(value)}，得到 {show(got[key])}{hint}")
    return f"三个编号都找对了：响应 {want['response_id']}、调用 {want['call_id']}、MCP 请求 {want['mcp_id']}"


def _check_07(fn: Learner) -> str:
    from lessons_lib.checks.attachments import roundtrip_from_trace
    from lessons_lib.checks.verify import verify_roundtrip

    roundtrip = roundtrip_from_trace(_run(7))
    before = json.dumps(roundtrip, sort_keys=True)
    need(verify_roundtrip(roundtrip, sabotage=False).ok, "（检查器自身）未破坏的往返应当通过")
    broken = fn(copy.deepcopy(roundtrip))
    need(isinstance(broken, dict), f"应当返回改坏后的往返（dict），得到 {show(broken)}")
    need(json.dumps(broken, sort_keys=True) != before, "返回的往返和原来一模一样：还没有改坏任何地方")
    failed = verify_roundtrip(broken, sabotage=False).failed
    need(failed, "verify_roundtrip 仍然全部通过：这处改动没有破坏它核对的任何关系，换一处试试")
    return f"verify_roundtrip 拒绝了它：{failed[0].name}——{failed[0].reason}"


EXERCISES: Final[dict[int, tuple[str, Callable[[Learner], str], str]]] = {
    3: (
        "03 动手：从解析结果写出 MCP 请求",
        _check_03,
        'args = json.loads(arguments)，再放进 {"name": "read_text_file", "arguments": args}',
    ),
    6: (
        "06 动手：找出三个编号",
        _check_06,
        "response_id 在响应根上；call_id 在 type 为 function_call 的项里；mcp_id 在请求根上",
    ),
    7: (
        "07 动手：做一条 verify_roundtrip 会拒绝的链路",
        _check_07,
        "比如改掉 request_2 里 function_call_output 的 call_id，或删掉第二次请求里的原调用",
    ),
}


EARLY_NAMES: Final = {"mcp_request": 3, "find_ids": 6, "break_chain": 7}
"""The function each small exercise asks for, by lesson."""


def check_exercise(lesson: int, fn: object) -> StepResult:
    """Check the small exercise of lesson 03, 06 or 07 offline. Lesson 03."""
    if lesson not in EXERCISES:
        return StepResult(f"{lesson:02d} 课", False, f"第 {lesson:02d} 课没有这个练习：有 03、06、07")
    title, checker, hint = EXERCISES[lesson]
    return run_checker(title, hint, checker, fn)


__all__ = ["EARLY_NAMES", "EXERCISES", "check_exercise"]
