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
from lessons_lib.core.messages import t
from lessons_lib.workshop.loop.grading_traffic import (
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
    from lessons_lib.workshop.loop.grading_cases import Case


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
    from lessons_lib.workshop.loop.kit_standin import listed_tools

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
            t("grading_judge.walk.1", n=n, n2=n + 1),
        )
        _need(
            rnd.n <= case.max_rounds and not (record.runaway and not rnd.ok),
            "no_limit",
            t("grading_judge.walk.2", n=rnd.n, max_rounds=case.max_rounds),
        )
        _check_request(case, routes, rnd, before)
        _need(
            rnd.ok,
            "request",
            t("grading_judge.walk.3", n=rnd.n, response=_short(rnd.response, 120)),
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
        t("grading_judge.check_request.3", n=n, missing=", ".join(missing))
        + (
            t("grading_judge.check_request.9", names=_short(names))
            if names
            else t("grading_judge.check_request.10")
        ),
    )
    for entry in declared:
        alias = entry.get("name")
        _need(
            isinstance(alias, str) and alias in routes and names.count(alias) == 1,
            "declaration",
            t("grading_judge.check_request.4", n=n, alias=_short(alias)),
        )
        tool = routes[str(alias)][1]
        _need(
            same(entry.get("parameters"), tool.get("inputSchema")),
            "declaration",
            t("grading_judge.check_request.5", n=n, alias=alias),
        )
        _need(
            entry.get("strict") is False,
            "declaration",
            t("grading_judge.check_request.6", n=n, alias=alias, value=_short(entry.get("strict"))),
        )
        _need(
            not tool.get("description") or entry.get("description") == tool.get("description"),
            "declaration",
            t("grading_judge.check_request.7", n=n, alias=alias),
        )
    choice = body.get("tool_choice", "auto")
    _need(
        choice == "auto",
        "tool_choice",
        t("grading_judge.check_request.1", n=n, choice=_short(choice)),
    )
    items = input_items(body)
    _need(
        items is not None, "context", t("grading_judge.check_request.2", n=n, value=_short(body.get("input")))
    )
    assert items is not None
    if before is None:
        users = [u for u in (user_text(i) for i in items) if u is not None]
        _need(
            users == [case.task],
            "task",
            t("grading_judge.check_request.8", task=_short(case.task, 40), users=_short(users)),
        )
        return
    _check_context(routes, before, items)


def _check_context(routes: Routes, before: Round, items: list[JSONObject]) -> None:
    n = before.n + 1
    earlier = input_items(before.request) or []
    _need(
        same(items[: len(earlier)], earlier),
        "context",
        t("grading_judge.check_context.1", n=n, n2=n - 1),
    )
    rest = items[len(earlier) :]
    given = {json.dumps(i.get("id")) for i in objects(_output_of(before))}
    call_ids = [c.get("call_id") for c in before.calls]
    for call in before.calls:
        kept = [i for i in rest if i.get("type") == FUNCTION_CALL and i.get("call_id") == call.get("call_id")]
        _need(
            kept and all(same(kept[0].get(k), call.get(k)) for k in ("name", "arguments")),
            "context",
            t("grading_judge.check_context.2", n=n, value=call.get("call_id")),
        )
    for at, item in enumerate(rest):
        if item.get("type") == OUTPUT and item.get("call_id") in call_ids:  # after the call it answers
            before_it = [i for i in rest[:at] if i.get("type") == FUNCTION_CALL]
            _need(
                any(i.get("call_id") == item.get("call_id") for i in before_it),
                "context",
                t("graders.loop.order", n=n, value=_short(item.get("call_id"))),
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
            t("grading_judge.check_context.3", n=n, item=_short(item)),
        )
    _check_feedback(routes, before, [i for i in rest if i.get("type") == OUTPUT], n)


def _output_of(rnd: Round) -> JSON:
    return rnd.response.get("output") if rnd.response is not None else None


def _check_feedback(routes: Routes, rnd: Round, outputs: list[JSONObject], n: int) -> None:
    from lessons_lib.workshop.loop.grading_feedback import check_output

    call_ids = [c.get("call_id") for c in rnd.calls]
    for out in outputs:
        _need(
            out.get("call_id") in call_ids,
            "ids",
            t(
                "grading_judge.check_feedback.1",
                n=n,
                value=_short(out.get("call_id")),
                call_ids=_short(call_ids),
            ),
        )
    served = _pair(routes, rnd)
    for call in rnd.calls:
        mine = [o for o in outputs if o.get("call_id") == call.get("call_id")]
        _need(
            len(mine) == 1,
            "ids",
            t("grading_judge.check_feedback.2", value=call.get("call_id"), n=n, mine=len(mine)),
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
            t(
                "grading_judge.check_ids.1",
                the_key=key,
                service=exchange.service,
                value=_short(earlier[0].get("method")),
            )
            if earlier
            else "",
        )


def _pair(routes: Routes, rnd: Round) -> dict[str, Exchange]:
    """call_id -> the tools/call that served it, by service, tool and arguments (order free)."""
    from lessons_lib.workshop.loop.grading_feedback import pair_calls

    return pair_calls(routes, rnd)


def _check_executed(routes: Routes, rnd: Round, complete: bool) -> None:
    from lessons_lib.workshop.loop.grading_feedback import check_sent

    problem = check_sent(routes, rnd, complete)
    if problem is not None:
        raise _Broken(*problem)


def _check_end(case: Case, routes: Routes, all_rounds: list[Round], record: RunRecord) -> None:
    from lessons_lib.workshop.loop.grading_feedback import crash_problem, tool_texts

    if not all_rounds:
        raise _Broken(*crash_problem(record, None) or ("request", t("grading_judge.check_end.7")))
    last = all_rounds[-1]
    answer = record.answer
    if last.calls and last.n >= case.max_rounds:  # stopped at the limit: say so
        crash = crash_problem(record, last)
        if crash is not None:
            raise _Broken(*crash)
        _need(
            isinstance(answer, str) and answer.strip() and answer not in tool_texts(all_rounds),
            "stop_message",
            t("grading_judge.check_end.2", max_rounds=case.max_rounds, answer=_short(answer)),
        )
        return
    crash = crash_problem(record, last)
    if crash is not None:
        raise _Broken(*crash)
    if last.calls:
        from lessons_lib.workshop.loop.grading_feedback import classify_call

        broken = [k for k in (classify_call(c, routes)[0] for c in last.calls) if k != "run"]
        _need(
            not broken,
            broken[0] if broken else "",
            t("grading_judge.check_end.3", n=last.n, answer=_short(answer)),
        )
        _need(
            last.sent or not any(classify_call(c, routes)[0] == "run" for c in last.calls),
            "unexecuted",
            t("grading_judge.check_end.4", n=last.n, calls=len(last.calls), answer=_short(answer, 40)),
        )
        _need(
            not (isinstance(answer, str) and answer.strip() and answer not in tool_texts(all_rounds)),
            "round_limit",
            t("grading_judge.check_end.5", n=last.n, max_rounds=case.max_rounds),
        )
        raise _Broken(
            "next_input",
            t(
                "grading_judge.check_end.6",
                n=last.n,
                calls=len(last.calls),
                n2=last.n + 1,
                answer=_short(answer),
            ),
        )
    _need(
        answer == last.text,
        "answer",
        t("grading_judge.check_end.1", text=_short(last.text, 40), answer=_short(answer, 40)),
    )
