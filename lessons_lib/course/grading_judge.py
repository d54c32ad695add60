"""The lesson-11 judge: a verdict from the traffic the trusted side recorded. Introduced in lesson 11.

``judge_run(case, record)`` walks one run in the order the chain runs and returns the first
broken link as a :class:`Problem` (or None). Every model request is checked (the declared tools
against the grader's own copy of ``tools/list``, ``tool_choice``, the context kept), every
``tools/call`` (name, object arguments, values from the model, a new id), every feedback item,
the number of rounds and what the loop returned. It reads only ``RunRecord``: nothing the
learner's code built about itself (its trace object, its links, the listing it received).
See GRADER_API.md for how a gradebook produces the record in another process.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lessons_lib.core.jsonvalue import JSON, JSONObject, objects, same
from lessons_lib.course.grading_traffic import (
    FUNCTION_CALL,
    OUTPUT,
    Exchange,
    Round,
    Routes,
    RunRecord,
    input_items,
    requests_sent,
    rounds,
    user_text,
)

if TYPE_CHECKING:
    from lessons_lib.course.grading_cases import Case


@dataclass(frozen=True)
class Problem:
    """The first broken link of a run: ``key`` (see ``grading_cases.WHERE``) and one sentence."""

    key: str
    evidence: str


class _Broken(Exception):
    def __init__(self, key: str, evidence: str) -> None:
        super().__init__(evidence)
        self.problem = Problem(key, evidence)


def _need(condition: object, key: str, evidence: str) -> None:
    if not condition:
        raise _Broken(key, evidence)


def _short(value: object, width: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= width else text[: width - 1] + "…"


def expected_routes(case: Case) -> Routes:
    """The declaration every request must carry, from the grader's own ``tools/list`` per service."""
    from lessons_lib.engine.kit_standin import listed_tools

    routes: Routes = {}
    for service in case.services:
        for tool in listed_tools(service, case.fault):
            routes[f"{service}__{tool['name']}"] = (service, tool)
    return routes


def judge_run(case: Case, record: RunRecord) -> Problem | None:
    """The first broken link of one run of the learner's loop, or None when the run is whole."""
    try:
        _walk(case, record, expected_routes(case))
    except _Broken as broken:
        return broken.problem
    return None


def _walk(case: Case, record: RunRecord, routes: Routes) -> None:
    all_rounds = rounds(record)
    order = requests_sent(record)
    for n, rnd in enumerate(all_rounds):
        before = all_rounds[n - 1] if n else None
        _need(
            before is None or before.calls,
            "extra_requests",
            f"模型在第 {n} 轮已经作答（没有 function_call），"
            f"你的循环又发出了第 {n + 1} 次模型请求：有了回答就该结束",
        )
        _need(
            rnd.n <= case.max_rounds and not (record.runaway and not rnd.ok),
            "no_limit",
            f"模型一直要求调用工具，你的循环发出了第 {rnd.n} 次模型请求（"
            f"max_rounds={case.max_rounds}）：没有守住轮数上限",
        )
        _check_request(case, routes, rnd, before)
        _need(
            rnd.ok,
            "request",
            f"模型接口拒绝了第 {rnd.n} 次请求：{_short(rnd.response, 120)}",
        )
        _check_ids(rnd, order)
        has_next = n + 1 < len(all_rounds)
        _check_executed(routes, rnd, complete=has_next)
    _check_end(case, routes, all_rounds, record)


def _check_request(case: Case, routes: Routes, rnd: Round, before: Round | None) -> None:
    body, n = rnd.request, rnd.n
    declared = [t for t in objects(body.get("tools")) if t.get("type") == "function"]
    names = [t.get("name") for t in declared]
    missing = [a for a in routes if a not in names]
    _need(
        not missing,
        "declaration",
        f"第 {n} 次请求的 tools 里没有 {', '.join(missing)}：每次请求都要声明全部服务的全部工具"
        + (f"（声明了 {_short(names)}）" if names else "（这次请求没有 tools）"),
    )
    for entry in declared:
        alias = entry.get("name")
        _need(
            isinstance(alias, str) and alias in routes and names.count(alias) == 1,
            "declaration",
            f"第 {n} 次请求声明了 {_short(alias)}：它不是 服务名__原名 的别名，或者重复了",
        )
        tool = routes[str(alias)][1]
        _need(
            same(entry.get("parameters"), tool.get("inputSchema")),
            "declaration",
            f"第 {n} 次请求里 {alias} 的 parameters 与服务 tools/list 给出的 inputSchema 不同："
            "规则要原样搬过去，不增不减、不改",
        )
        _need(
            entry.get("strict") is False,
            "declaration",
            f"第 {n} 次请求里 {alias} 的 strict 是 {_short(entry.get('strict'))}：要明确写 false",
        )
        _need(
            not tool.get("description") or entry.get("description") == tool.get("description"),
            "declaration",
            f"第 {n} 次请求里 {alias} 的 description 不是服务给的说明：模型靠它选工具",
        )
    choice = body.get("tool_choice", "auto")
    _need(
        choice == "auto",
        "tool_choice",
        f"第 {n} 次请求的 tool_choice 是 {_short(choice)}：应用不替模型决定调不调工具，"
        "省略它或写 auto（required 让模型永远答不了，none 让它读不了文件）",
    )
    items = input_items(body)
    _need(items is not None, "context", f"第 {n} 次请求的 input 不是数组：{_short(body.get('input'))}")
    assert items is not None
    if before is None:
        users = [t for t in (user_text(i) for i in items) if t is not None]
        _need(
            users == [case.task],
            "task",
            f"第 1 次请求的 input 里用户任务应当就是收到的 task {_short(case.task, 40)}，"
            f"得到 {_short(users)}",
        )
        return
    _check_context(routes, before, items)


def _check_context(routes: Routes, before: Round, items: list[JSONObject]) -> None:
    n = before.n + 1
    earlier = input_items(before.request) or []
    _need(
        same(items[: len(earlier)], earlier),
        "context",
        f"第 {n} 次请求没有原样保留第 {n - 1} 次请求的 input：用户任务或前面的上下文丢了、被改了",
    )
    rest = items[len(earlier) :]
    given = {json.dumps(i.get("id")) for i in objects(_output_of(before))}
    call_ids = [c.get("call_id") for c in before.calls]
    for call in before.calls:
        kept = [i for i in rest if i.get("type") == FUNCTION_CALL and i.get("call_id") == call.get("call_id")]
        _need(
            kept and all(same(kept[0].get(k), call.get(k)) for k in ("name", "arguments")),
            "context",
            f"第 {n} 次请求丢了或改了原调用 {call.get('call_id')}：input 里要原样接上模型这一轮的输出项",
        )
    for item in rest:
        kind = item.get("type")
        _need(
            (kind == FUNCTION_CALL and item.get("call_id") in call_ids)
            or kind == OUTPUT
            or (
                kind != FUNCTION_CALL
                and (json.dumps(item.get("id")) in given or item.get("role") == "assistant")
            ),
            "context",
            f"第 {n} 次请求里多了一项 {_short(item)}：新接上的只能是模型这一轮的输出项和工具反馈",
        )
    _check_feedback(routes, before, [i for i in rest if i.get("type") == OUTPUT], n)


def _output_of(rnd: Round) -> JSON:
    return rnd.response.get("output") if rnd.response is not None else None


def _check_feedback(routes: Routes, rnd: Round, outputs: list[JSONObject], n: int) -> None:
    from lessons_lib.course.grading_feedback import check_output

    call_ids = [c.get("call_id") for c in rnd.calls]
    for out in outputs:
        _need(
            out.get("call_id") in call_ids,
            "ids",
            f"第 {n} 次请求里有一个反馈的 call_id 是 {_short(out.get('call_id'))}，模型没有这样的调用："
            f"反馈对不回原调用（模型的 call_id 是 {_short(call_ids)}）",
        )
    served = _pair(routes, rnd)
    for call in rnd.calls:
        mine = [o for o in outputs if o.get("call_id") == call.get("call_id")]
        _need(
            len(mine) == 1,
            "ids",
            f"调用 {call.get('call_id')} 在第 {n} 次请求里有 {len(mine)} 个反馈：每个调用要有且只有一个"
            "function_call_output，call_id 就是它的 call_id",
        )
        problem = check_output(call, mine[0], served.get(str(call.get("call_id"))), routes)
        if problem is not None:
            raise _Broken(*problem)


def _check_ids(rnd: Round, order: list[tuple[str, JSONObject]]) -> None:
    for exchange in rnd.sent:
        at = next(i for i, (_, frame) in enumerate(order) if frame is exchange.request)
        key = json.dumps(exchange.request.get("id"))
        earlier = [f for s, f in order[:at] if s == exchange.service and json.dumps(f.get("id")) == key]
        _need(
            not earlier,
            "id_reused",
            f"JSON-RPC id {key} 在服务 {exchange.service} 的连接上已经用过（"
            f"{_short(earlier[0].get('method'))}）："
            "每个请求都要有新的 id，否则回答对不回请求"
            if earlier
            else "",
        )


def _pair(routes: Routes, rnd: Round) -> dict[str, Exchange]:
    """call_id -> the tools/call that served it, by service, tool and arguments (order free)."""
    from lessons_lib.course.grading_feedback import pair_calls

    return pair_calls(routes, rnd)


def _check_executed(routes: Routes, rnd: Round, complete: bool) -> None:
    from lessons_lib.course.grading_feedback import check_sent

    problem = check_sent(routes, rnd, complete)
    if problem is not None:
        raise _Broken(*problem)


def _check_end(case: Case, routes: Routes, all_rounds: list[Round], record: RunRecord) -> None:
    from lessons_lib.course.grading_feedback import crash_problem, tool_texts

    if not all_rounds:
        raise _Broken(*crash_problem(record, None) or ("request", "你的循环一次模型请求也没有发出"))
    last = all_rounds[-1]
    answer = record.answer
    if last.calls and last.n >= case.max_rounds:  # stopped at the limit: say so
        crash = crash_problem(record, last)
        if crash is not None:
            raise _Broken(*crash)
        _need(
            isinstance(answer, str) and answer.strip() and answer not in tool_texts(all_rounds),
            "stop_message",
            f"循环在 max_rounds={case.max_rounds} 轮后停下了，但返回的是 {_short(answer)}："
            "到达上限时要返回一句说明，告诉用户没有得到回答",
        )
        return
    crash = crash_problem(record, last)
    if crash is not None:
        raise _Broken(*crash)
    if last.calls:
        from lessons_lib.course.grading_feedback import classify_call

        broken = [k for k in (classify_call(c, routes)[0] for c in last.calls) if k != "run"]
        _need(
            not broken,
            broken[0] if broken else "",
            f"模型第 {last.n} 轮有一个坏的调用，你的循环就此停下，返回了 {_short(answer)}："
            "坏的调用作为失败反馈交回模型，循环继续",
        )
        _need(
            last.sent or not any(classify_call(c, routes)[0] == "run" for c in last.calls),
            "unexecuted",
            f"模型第 {last.n} 轮给了 {len(last.calls)} 个 function_call，你的循环一个也没有执行就返回了 "
            f"{_short(answer, 40)}：调用要按 type 找出来，逐个执行",
        )
        _need(
            not (isinstance(answer, str) and answer.strip() and answer not in tool_texts(all_rounds)),
            "round_limit",
            f"模型还在要求调用工具，你的循环只问了 {last.n} 轮就停下了（max_rounds={case.max_rounds}）："
            "上限之前都要把反馈交回模型、再问一次",
        )
        raise _Broken(
            "next_input",
            f"模型第 {last.n} 轮给了 {len(last.calls)} 个调用，"
            f"你的循环没有把反馈交回模型（没有第 {last.n + 1} 次请求），"
            f"返回了 {_short(answer)}：展示给用户的应当是模型读了反馈之后的回答",
        )
    _need(
        answer == last.text,
        "answer",
        f"模型最后答的是 {_short(last.text, 40)}，"
        f"你的循环返回的是 {_short(answer, 40)}：要把模型的回答原样交给用户",
    )
