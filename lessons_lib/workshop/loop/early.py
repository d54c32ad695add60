"""The small exercises of lessons 03, 06 and 07, each with an offline checker.

Introduced in lesson 03. ``check_exercise(3, mcp_request)``: write the MCP ``tools/call``
request from the model's ``arguments`` text; ``check_exercise(6, find_ids)``: find the
response id, the call's ``call_id`` and the MCP JSON-RPC id; ``check_exercise(7, break_chain)``:
change a round trip so that ``verify_roundtrip`` rejects it. Each checker runs the learner's
function on values from a fresh real run that the lesson did not show. A starter blank gets
"还没有完成" and a hint (see ``lessons_lib.workshop.loop.steps.run_checker``).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Final

from lessons_lib.checks.checker import Learner, run_checker, step_verdict
from lessons_lib.checks.jsoncheck import Fail, need, show
from lessons_lib.core.example import TOOL_NAME
from lessons_lib.core.jsonvalue import JSONObject, get_in
from lessons_lib.core.messages import t
from lessons_lib.core.traces.queries import reply_text
from lessons_lib.core.traces.tracetypes import TraceData
from lessons_lib.core.verdict import Verdict


def _run(head: int, preamble: str | None = None) -> TraceData:
    from lessons_lib.engine.host import run_chain
    from lessons_lib.engine.standins.rules import Script

    return run_chain(head=head, script=Script(preamble=preamble)).to_dict()


def _check_03(fn: Learner) -> str:
    from lessons_lib.workshop.loop.kit import workbench

    cases = (
        ('{"path": "/workspace/notes.txt", "head": 7}', 5),
        ('{"path": "/workspace/notes.txt", "tail": 2}', 9),
    )
    replies = []
    with workbench() as bench:
        for text, request_id in cases:
            frame = fn(text, request_id)
            need(isinstance(frame, dict), t("exercises_early.03.not_dict", got=show(frame)))
            args = json.loads(text)
            want: JSONObject = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call"}
            for key in ("jsonrpc", "id", "method"):
                need(
                    frame.get(key) == want[key],
                    t("exercises_early.03.field", key=key, want=show(want[key]), got=show(frame.get(key))),
                )
            params = frame.get("params")
            need(isinstance(params, dict), t("exercises_early.03.params", got=show(params)))
            need(
                params.get("name") == TOOL_NAME,
                t("exercises_early.03.name", want=TOOL_NAME, got=show(params.get("name"))),
            )
            got = params.get("arguments")
            need(not isinstance(got, str), t("exercises_early.03.text"))
            need(got == args, t("exercises_early.03.arguments", want=text, got=show(got)))
            replies.append(bench.fs.send(frame))
    lines = len(reply_text(replies[0]).split("\n"))
    return t("exercises_early.03.done", lines=lines)


def _check_06(fn: Learner) -> str:
    from lessons_lib.core.traces.queries import calls, mcp_exchanges, model_body

    trace = _run(4, preamble=t("exercises_early.06.preamble"))
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
        raise Fail(t("exercises_early.06.raised", name=type(exc).__name__, exc=exc, first=first)) from None
    need(isinstance(got, dict), t("exercises_early.06.not_dict", got=show(got)))
    for key, value in want.items():
        need(key in got, t("exercises_early.06.missing", key=key))
        hint = t("exercises_early.06.by_type") if key == "call_id" else ""
        need(
            got[key] == value,
            t("exercises_early.06.value", key=key, want=show(value), got=show(got[key]), hint=hint),
        )
    return t("exercises_early.06.done", **want)


def _check_07(fn: Learner) -> str:
    from lessons_lib.checks.attachments import roundtrip_from_trace
    from lessons_lib.checks.verify import verify_roundtrip

    roundtrip = roundtrip_from_trace(_run(7))
    before = json.dumps(roundtrip, sort_keys=True)
    need(verify_roundtrip(roundtrip, sabotage=False).ok, t("exercises_early.07.self"))
    broken = fn(copy.deepcopy(roundtrip))
    need(isinstance(broken, dict), t("exercises_early.07.not_dict", got=show(broken)))
    need(json.dumps(broken, sort_keys=True) != before, t("exercises_early.07.same"))
    failed = verify_roundtrip(broken, sabotage=False).failed
    need(failed, t("exercises_early.07.still_passes"))
    return t("exercises_early.07.done", name=failed[0].name, reason=failed[0].reason)


EXERCISES: Final[dict[int, Callable[[Learner], str]]] = {3: _check_03, 6: _check_06, 7: _check_07}
"""Each lesson's checker; its title and hint are ``exercises_early.NN.title`` and ``.hint`` in the
catalogue, looked up when the exercise is checked."""


EARLY_NAMES: Final = {"mcp_request": 3, "find_ids": 6, "break_chain": 7}
"""The function each small exercise asks for, by lesson."""


def check_exercise(lesson: int, fn: object) -> Verdict:
    """Check the small exercise of lesson 03, 06 or 07 offline. Lesson 03."""
    if lesson not in EXERCISES:
        return step_verdict(
            t("exercises_early.lesson", lesson=lesson), False, t("exercises_early.no_exercise", lesson=lesson)
        )
    key = f"exercises_early.{lesson:02d}"
    return run_checker(t(f"{key}.title"), t(f"{key}.hint"), EXERCISES[lesson], fn)


__all__ = ["EARLY_NAMES", "EXERCISES", "check_exercise"]
