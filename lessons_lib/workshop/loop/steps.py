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

from lessons_lib.checks.checker import Learner, run_checker, step_verdict
from lessons_lib.checks.evidence import result_text
from lessons_lib.checks.fieldchecks import compare_feedback
from lessons_lib.checks.jsoncheck import Fail, need, show
from lessons_lib.checks.roundtripchecks import check_context
from lessons_lib.core.example import MISSING_PATH, SERVICE_NAME, TOOL_NAME, task_text
from lessons_lib.core.jsonvalue import JSONObject, get_in
from lessons_lib.core.messages import t
from lessons_lib.core.traces.queries import call_record, mcp_exchanges
from lessons_lib.core.verdict import Verdict


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
    from lessons_lib.workshop.loop.kit import workbench
    from lessons_lib.workshop.loop.kitparts import sdk_tool

    with workbench() as bench:
        tool = bench.fs.list_tools().tools[0]
    schema: JSONObject = {
        "type": "object",
        "properties": {"query": {"type": "string"}},
        "required": ["query"],
    }
    other = sdk_tool("search_notes", "Search the notes by keyword.", schema)
    for service, given in ((SERVICE_NAME, tool), ("docs", other)):
        rule = copy.deepcopy(given.input_schema)  # the checker's own copy: fn may change the tool it gets
        entry = fn(service, given)
        need(isinstance(entry, dict), t("exercises.s1.not_dict", got=show(entry)))
        need(entry.get("type") == "function", t("exercises.s1.type", got=show(entry.get("type"))))
        alias = f"{service}__{given.name}"
        need(
            entry.get("name") == alias,
            t(
                "exercises.s1.alias",
                service=service,
                tool=given.name,
                alias=alias,
                got=show(entry.get("name")),
            ),
        )
        need(
            entry.get("parameters") == rule and given.input_schema == rule,
            t("exercises.s1.parameters"),
        )
        need(
            entry.get("strict") is False,
            t("exercises.s1.strict", got=show(entry.get("strict"))),
        )
        json.dumps(entry)
    return t("exercises.s1.done")


def _step2(fn: Learner) -> str:
    from lessons_lib.engine.standins.rules import Script
    from lessons_lib.workshop.loop.kit import workbench
    from lessons_lib.workshop.loop.kitparts import as_input, ask

    script = Script(
        preamble=t("exercises.s2.preamble"), also=(json.dumps({"path": "/workspace/notes.txt", "tail": 2}),)
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
            t("exercises.s2.ids", want=want, ids=ids),
        )
        outputs: list[JSONObject] = [
            {"type": "function_call_output", "call_id": c, "output": "x"} for c in want
        ]
        answer = ask(bench, items + as_input(first) + outputs, tools)
        rest = list(fn(answer) or [])
        need(rest == [], t("exercises.s2.none", got=show(rest)))
    return t("exercises.s2.done")


def _step3(fn: Learner) -> str:
    from lessons_lib.workshop.loop.kit import workbench
    from lessons_lib.workshop.loop.kitparts import ask, function_calls, sdk_call

    routes = {"fs__read_text_file": ("fs", TOOL_NAME), "docs__search_notes": ("docs", "search_notes")}
    with workbench(task_text(head=7)) as bench:
        tools = bench.course_tools()
        call = function_calls(ask(bench, [{"role": "user", "content": task_text(head=7)}], tools))[0]
    other = sdk_call("call_2", "docs__search_notes", '{"query": "MCP"}')
    for c, (service, tool) in ((call, routes["fs__read_text_file"]), (other, routes["docs__search_notes"])):
        got = fn(c, routes)
        need(
            isinstance(got, tuple) and len(got) == 3,
            t("exercises.s3.triple", got=show(got)),
        )
        need(
            got[:2] == (service, tool),
            t("exercises.s3.route", alias=c.name, service=service, tool=tool, got=show(list(got[:2]))),
        )
        args = json.loads(c.arguments)
        need(
            isinstance(got[2], dict),
            t("exercises.s3.args_dict", got=show(got[2])),
        )
        need(got[2] == args, t("exercises.s3.args", want=show(args), got=show(got[2])))
    broken = (
        (
            sdk_call("call_3", "fs__read_file", '{"path": "/workspace/notes.txt"}'),
            t("exercises.s3.undeclared"),
        ),
        (sdk_call("call_4", "fs__read_text_file", '{"path": "/workspace/no'), t("exercises.s3.truncated")),
        (sdk_call("call_5", "fs__read_text_file", '["/workspace/notes.txt"]'), t("exercises.s3.not_object")),
    )
    for c, what in broken:
        try:
            got = fn(c, routes)
        except ValueError as exc:
            need(str(exc).strip(), t("exercises.s3.reason", what=what))
            continue
        except Exception as exc:  # the learner's code: say which exception instead
            raise Fail(t("exercises.s3.other_exception", what=what, name=type(exc).__name__)) from None
        raise Fail(t("exercises.s3.no_exception", what=what, got=show(got)))
    return t("exercises.s3.done")


def _step4(fn: Learner) -> str:
    from lessons_lib.workshop.loop.kit import workbench

    with workbench() as bench:
        moves = (
            ("call_a", {"path": "/workspace/notes.txt", "head": 3}),
            ("call_b", {"path": MISSING_PATH}),
        )
        replies = [fn(bench.fs, call_id, TOOL_NAME, args) for call_id, args in moves]
        trace = bench.finish(None)
    sent = [x.request for x in mcp_exchanges(trace, "tools/call")]
    need(len(sent) == 2, t("exercises.s4.count", n=len(sent)))
    used = [json.dumps(x.request.get("id")) for x in mcp_exchanges(trace, None)]
    need(len(set(used)) == len(used), t("exercises.s4.ids", ids=", ".join(used)))
    for (call_id, args), frame, reply in zip(moves, sent, replies, strict=True):
        name, got = get_in(frame, "params", "name"), get_in(frame, "params", "arguments")
        need(name == TOOL_NAME, t("exercises.s4.name", want=TOOL_NAME, got=show(name)))
        need(
            not isinstance(got, str),
            t("exercises.s4.text_arguments", got=show(got, 40)),
        )
        need(got == args, t("exercises.s4.arguments", want=show(args), got=show(got)))
        need(
            isinstance(reply, dict) and reply.get("id") == frame.get("id"),
            t("exercises.s4.reply"),
        )
        record = call_record(trace, call_id)
        need(record is not None, t("exercises.s4.no_link", call_id=call_id))
        mcp_id = record["mcp_id"] if record is not None else None
        need(
            mcp_id == frame.get("id"),
            t("exercises.s4.wrong_link", call_id=call_id, linked=mcp_id, actual=frame.get("id")),
        )
    ids = t("exercises.s4.id_pair", first=sent[0].get("id"), second=sent[1].get("id"))
    return t("exercises.s4.done", ids=ids)


def _step5(fn: Learner) -> str:
    from lessons_lib.workshop.loop.kit import workbench

    with workbench() as bench:
        good = bench.fs.send(
            _frame(bench.fs.next_id(), TOOL_NAME, {"path": "/workspace/notes.txt", "head": 2})
        )
        missing = bench.fs.send(_frame(bench.fs.next_id(), TOOL_NAME, {"path": MISSING_PATH}))
        unknown = bench.fs.send(_frame(bench.fs.next_id(), "read_txt", {"path": "/workspace/notes.txt"}))
    for n, reply in enumerate((good, missing, unknown), 1):
        call_id = f"call_fb_{n}"
        item = fn(call_id, reply)
        need(isinstance(item, dict), t("exercises.s5.not_dict", got=show(item)))
        need(
            item.get("type") == "function_call_output",
            t("exercises.s5.type", got=show(item.get("type"))),
        )
        need(
            item.get("call_id") == call_id,
            t("exercises.s5.call_id", call_id=call_id, got=show(item.get("call_id"))),
        )
        text, failed = result_text(reply)
        output = item.get("output")
        need(isinstance(output, str), t("exercises.s5.output", got=show(output)))
        compare_feedback(output, text, failed)
    return t("exercises.s5.done")


def _step6(fn: Learner) -> str:
    from lessons_lib.workshop.loop.kit import workbench
    from lessons_lib.workshop.loop.kitparts import ask

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
        need(isinstance(following, list), t("exercises.s6.not_list", got=show(following)))
        second = ask(bench, following, tools)
        trace = bench.finish(second.output_text)
    bodies = {e["label"]: e["body"] for e in trace.events if e["channel"] == "model"}
    check_context({k: bodies.get(k) for k in ("request_1", "response_1", "request_2")})
    return t("exercises.s6.done", n=len(second.output_text))


def _loop(function: str) -> Callable[[Learner], str]:
    def check(fn: Learner) -> str:
        from lessons_lib.workshop.loop.grading import grade_loop

        report = grade_loop(fn, function)
        message = "\n".join(report.lines)
        need(report.passed, message + (t("exercises.loop.see", hint=report.hint) if report.hint else ""))
        return message

    return check


STEP_CHECKERS: Final[dict[int, tuple[str, Callable[[Learner], str]]]] = {
    1: ("to_responses_tool", _step1),
    2: ("find_calls", _step2),
    3: ("route_call", _step3),
    4: ("send_tools_call", _step4),
    5: ("to_feedback", _step5),
    6: ("next_input", _step6),
    7: ("app_loop", _loop("app_loop")),
    8: ("app_loop_many", _loop("app_loop_many")),
}
"""Each step's function name and checker; its title and hint are ``exercises.stepN.title`` and
``exercises.stepN.hint`` in the catalogue, looked up when the step is checked."""
STEP_NAMES: Final = {name: n for n, (name, *_rest) in STEP_CHECKERS.items() if n <= 7}
"""The functions a class gradebook grades (stage 3, ``app_loop_many``, is graded by name on request)."""


def check_step(step: int, fn: object) -> Verdict:
    """Check the learner's function for step ``step`` (1-8: six steps, the loop, the transfer). Lesson 11."""
    if step not in STEP_CHECKERS:
        return step_verdict(
            t("exercises.step", step=step), False, t("exercises.no_step", step=step, last=len(STEP_CHECKERS))
        )
    _, checker = STEP_CHECKERS[step]
    return run_checker(t(f"exercises.step{step}.title"), t(f"exercises.step{step}.hint"), checker, fn)
