"""What the lesson-11 grader runs a learner's loop on: the example and hidden variations.

Introduced in lesson 11. Each :class:`Case` is pure data: the task, the round limit passed to
the loop, the services the bench runs, the stand-in's moves and a fault to inject. Stage 2
(``app_loop``) meets another ``head``, a missing file, a path outside the root, a text before
the call, two calls in one reply, arguments that are not JSON, an alias nobody declared, a
protocol error, and a model that never stops calling under three different ``max_rounds``.
Stage 3 (``app_loop_many``) drives the file service and the order desk at once. The judge
(``grading_judge``) checks ``tool_choice``, the declaration and the context on every request.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from lessons_lib.core.example import MISSING_PATH, OUTSIDE_PATH, task_text
from lessons_lib.engine.standin_rules import Script

if TYPE_CHECKING:
    from lessons_lib.engine.kit import Bench

MAX_ROUNDS: Final = 3
"""The round limit of the lesson's own example (the hidden cases use others too)."""

NOTES: Final = "/workspace/notes.txt"


def _args(**values: object) -> str:
    return json.dumps({"path": NOTES, **values}, ensure_ascii=False)


@dataclass(frozen=True)
class Case:
    """One run of the learner's loop: what it gets, and what the stand-in and services do."""

    key: str
    title: str
    task: str
    script: Script | None = None
    moves: tuple[tuple[str, str], ...] = ()
    max_rounds: int = MAX_ROUNDS
    services: tuple[str, ...] = ("fs",)
    fault: str | None = None
    hint: str = ""

    def bench_options(self) -> dict[str, Any]:
        """Keyword arguments of ``kit.workbench`` that build this case's trusted side."""
        return {
            "script": self.script,
            "moves": self.moves,
            "services": self.services,
            "fault": self.fault,
            "max_requests": self.max_rounds + 3,
        }

    def call(self, fn: Callable[..., object], bench: Bench) -> object:
        """Call the learner's loop as its contract says: one service (``fs``) or a list of them."""
        if len(self.services) > 1:
            return fn(self.task, bench.model, list(bench.services), max_rounds=self.max_rounds)
        return fn(self.task, bench.model, bench.fs, max_rounds=self.max_rounds)


def _endless(key: str, rounds: int, services: tuple[str, ...] = ("fs",), **extra: Any) -> Case:
    return Case(
        key,
        f"模型一直要求调用工具（max_rounds={rounds}）",
        task_text(head=2),
        Script(endless=True),
        max_rounds=rounds,
        services=services,
        hint=(
            "这个模型每一轮都要求再调用工具："
            f"循环最多问 max_rounds={rounds} 次，然后自己停下，并告诉用户停下了。"
        ),
        **extra,
    )


LOOP_CASES: Final = (
    Case("example", "示例：前 20 行", task_text()),
    Case(
        "another_head",
        "另一个 head：前 7 行",
        task_text(head=7),
        hint="换了 head 就出错，说明有值是照着示例写死的：值都要来自模型的 arguments。",
    ),
    Case(
        "missing_file",
        "不存在的文件",
        task_text(MISSING_PATH, head=5),
        hint="服务这次报告失败（isError: true）：失败要如实写进反馈，不能写成成功。",
    ),
    Case(
        "outside_root",
        "根目录之外的路径",
        task_text(OUTSIDE_PATH, head=5),
        hint="服务拒绝了根目录之外的路径：拒绝也是一种失败，要如实反馈，再让模型作答。",
    ),
    Case(
        "renamed_service",
        "服务换了名字：files",
        task_text(head=6),
        services=("files",),
        hint="这次文件服务叫 files：别名和路由都要用 fs.name，不能写死 fs。",
    ),
    Case(
        "text_first",
        "调用前先有一段文字",
        task_text(head=4),
        Script(preamble="好的，我先读取这个文件。"),
        hint="这一次 output 的第一项是一段文字，调用在它后面。",
    ),
    Case(
        "two_calls",
        "一轮里两个调用",
        task_text(head=3),
        Script(also=(_args(tail=2),)),
        hint="这一轮模型给了两个 function_call：每个调用各执行一次、各有新的 id、各有一个反馈。",
    ),
    Case(
        "bad_arguments",
        "arguments 不是 JSON",
        task_text(head=5),
        moves=(
            ("fs__read_text_file", '{"path": "/workspace/notes.txt", "head": 5'),
            ("fs__read_text_file", _args(head=5)),
        ),
        hint=(
            "模型偶尔给出截断的 arguments：解析失败的调用不执行，"
            "作为失败反馈交回模型，其他调用照常执行（第 32 课）。"
        ),
    ),
    Case(
        "unknown_alias",
        "模型调用了没有声明的工具",
        task_text(head=3),
        moves=(("fs__read_file", _args()), ("fs__read_text_file", _args(head=3))),
        hint=(
            "模型编了一个没有声明的名字：路由表里没有它就不执行，作为失败反馈交回模型，循环继续（第 32 课）。"
        ),
    ),
    Case(
        "protocol_error",
        "服务用协议错误回答",
        task_text(head=5),
        fault="unavailable",
        hint="服务没有 result，只有 JSON-RPC error：这也是失败，要如实反馈，再让模型作答。",
    ),
    _endless("endless", MAX_ROUNDS),
    _endless("endless_2", 2),
    _endless("endless_5", 5),
)

_BOTH: Final = ("fs", "orders")
_TWO_TASK: Final = "请读取 /workspace/notes.txt 的前 3 行，并查询订单 O-1042 的状态。"

MANY_CASES: Final = (
    Case(
        "two_services",
        "一轮里调用两个服务",
        _TWO_TASK,
        moves=(("fs__read_text_file", _args(head=3)), ("orders__get_order", '{"order_id": "O-1042"}')),
        services=_BOTH,
        hint="两个调用属于两个服务：别名的前半截是服务名，按路由表各发给自己的服务。",
    ),
    Case(
        "one_fails",
        "两个服务、两个调用都失败",
        "请读取 /workspace/missing.txt 的前 2 行，并查询订单 O-9999。",
        moves=(
            ("orders__get_order", '{"order_id": "O-9999"}'),
            ("fs__read_text_file", json.dumps({"path": MISSING_PATH, "head": 2})),
        ),
        services=_BOTH,
        hint="订单不存在、文件也不存在：两个失败都要如实反馈，各对回自己的 call_id。",
    ),
    Case(
        "broken_calls",
        "一个截断的调用、一个没有声明的工具、一个好调用",
        _TWO_TASK,
        moves=(
            ("orders__get_order", '{"order_id": "O-10'),
            ("orders__cancel_order", '{"order_id": "O-1042"}'),
            ("fs__read_text_file", _args(head=3)),
        ),
        services=_BOTH,
        hint="坏的调用不执行、作为失败反馈；好的调用照常执行；循环继续。",
    ),
    _endless(
        "endless_many",
        2,
        _BOTH,
        moves=(("orders__get_order", '{"order_id": "O-1042"}'), ("fs__read_text_file", _args(head=2))),
    ),
)

CASES: Final = LOOP_CASES
"""The stage-2 cases (kept under the old name)."""

FUNCTION_CASES: Final = {"app_loop": LOOP_CASES, "app_loop_many": MANY_CASES}


def cases_for(function: str) -> tuple[Case, ...]:
    """The hidden cases of a graded loop: ``app_loop`` (stage 2) or ``app_loop_many`` (stage 3)."""
    return FUNCTION_CASES.get(function, LOOP_CASES)


WHERE: Final = {
    "declaration": "声明：每次请求的 tools 从 tools/list 来，"
    "别名是 服务名__原名，规则原样搬，strict 是 false",
    "tool_choice": "每次请求的设置：工具用不用由模型决定",
    "request": "请求本身：读模型接口的错误说明，对照 client.responses.create 的参数",
    "task": "第一次请求的 input：用户任务原样放进去",
    "context": "下一次请求的 input：前面的 input 原样保留，再接模型这一轮的输出项和反馈",
    "arguments_text": "解析：arguments 是 JSON 文本，发给服务的是解析出来的对象",
    "alias": "路由：别名要映射回服务和原名",
    "route": "路由：别名的前半截是服务名，找到对的那个服务",
    "hard_coded": "解析：值只能来自模型这次给的 arguments",
    "id_reused": "执行：每个 JSON-RPC 请求要一个这条连接上没用过的 id（fs.next_id()）",
    "unexecuted": "执行：一轮里可能有好几个调用，每一个都要执行",
    "extra_call": "执行：每个调用只发一次 tools/call",
    "bad_arguments": "解析失败时：不执行，写一个失败的反馈（第 32 课），继续循环",
    "unknown_alias": "路由失败时：不执行，写一个失败的反馈（第 32 课），继续循环",
    "ids": "反馈：function_call_output 的 call_id 是模型那个调用的 call_id",
    "feedback": "反馈：output 是服务返回的原文；失败（isError 或 error）以 FAILURE_PREFIX 开头",
    "service": "执行：等服务的回答再写反馈",
    "next_input": "有调用时：把反馈交回模型，再问一次",
    "answer": "没有调用时：模型的文字（output_text）就是要交给用户的回答",
    "extra_requests": "没有调用时：循环就此结束",
    "no_limit": "轮数上限：最多 max_rounds 次模型请求",
    "round_limit": "轮数上限：上限之前，模型还要调用就继续",
    "stop_message": "到达上限时：返回一句说明，告诉用户没有得到回答",
    "first_item": "找调用：response.output 里每一项都有 type",
    "unfinished": "函数里还留着 ...：换成你的代码",
    "crashed": "看出错的那一行；先用各步的检查单独试一试",
}
"""Where to look, by the key of the first broken link (no code: the lesson's hints have levels)."""

LINK_ZH: Final = {
    "declaration": "声明",
    "tool_choice": "请求设置",
    "request": "模型请求",
    "task": "用户任务",
    "context": "上下文",
    "arguments_text": "参数表示",
    "alias": "路由目标",
    "route": "路由目标",
    "hard_coded": "参数的值",
    "id_reused": "关联标识",
    "unexecuted": "执行",
    "extra_call": "执行",
    "bad_arguments": "坏参数的处理",
    "unknown_alias": "未知别名的处理",
    "ids": "反馈的标识",
    "feedback": "反馈",
    "service": "执行",
    "next_input": "第二次请求",
    "answer": "展示回答",
    "extra_requests": "轮数",
    "no_limit": "轮数上限",
    "round_limit": "轮数上限",
    "stop_message": "轮数上限",
    "first_item": "模型响应",
    "crashed": "程序出错",
}
"""The link's name, as the failure message says it."""
