"""The guardrail ends of the one application loop, each in English and in Chinese. Lesson 05.

Every run of the host (:mod:`lessons_lib.engine.host`), the order desk's included, stops for
the same reasons: a round limit, a model that does not answer in time, a whole run over its
time bound, a reply with more calls than allowed or calls that cannot be paired; and an
answered run says what happened before the answer.
Each reason is one stable English line for programs and tests, and a ``text`` for the lessons
in the learner's language (catalogue ``stops.*``) (:mod:`lessons_lib.core.outcomes`).
"""

from __future__ import annotations

from collections.abc import Sequence

from lessons_lib.core.echo import short
from lessons_lib.core.messages import t
from lessons_lib.core.outcomes import make_outcome
from lessons_lib.core.plugins.apitypes import ToolCall
from lessons_lib.core.traces.tracetypes import Outcome
from lessons_lib.engine.adapters import Stop


def round_limit(max_rounds: int, *, fallback: bool = False) -> Stop:
    """``max_rounds`` model requests were made: the latest results were not sent, or a fallback answered."""
    if fallback:
        return Stop(
            "stopped",
            f"max_rounds={max_rounds} reached; the application answered with its fallback",
            t("stops.fallback", max_rounds=max_rounds),
        )
    return Stop(
        "stopped",
        f"max_rounds={max_rounds} reached; the latest tool results were not sent to the model",
        t("stops.round_limit", max_rounds=max_rounds),
    )


def model_timeout(seconds: float) -> Stop:
    """The model API did not answer one request within ``seconds``."""
    return Stop(
        "stopped",
        f"the model API did not answer within {seconds:g} s",
        t("stops.model_timeout", seconds=f"{seconds:g}"),
    )


def total_timeout(seconds: float) -> Outcome:
    """The whole run went over its time bound."""
    return make_outcome(
        "stopped",
        f"total time bound of {seconds:g} s reached",
        t("stops.total_timeout", seconds=f"{seconds:g}"),
    )


def too_many_calls(round_no: int, count: int, cap_name: str, cap: int) -> Stop:
    """One reply asked for more calls than ``cap_name`` (e.g. ``Limits.max_calls``) allows: none runs."""
    return Stop(
        "stopped",
        f"response_{round_no} asks for {count} tool calls; the cap is {cap_name}={cap} per reply, "
        "so none was executed",
        t("stops.too_many", round_no=round_no, count=count, cap_name=cap_name, cap=cap),
    )


def answered(rounds: int, text: str, unrouted: Sequence[str], failed: int) -> Outcome:
    """How an answered run ended: after the feedback (and what failed), or without any call."""
    if rounds == 1:
        # A reply that ends in a question mark is taken as a question to the user (lesson 08).
        if text.rstrip().endswith(("？", "?")):
            return make_outcome(
                "answered",
                "no tool was called: the model asked the user for what the task leaves out",
                t("stops.asked"),
            )
        return make_outcome("answered", "the model answered without calling a tool", t("stops.no_call"))
    reason, text_zh = "the model answered after the feedback", t("stops.after_feedback")
    if unrouted:
        names = ", ".join(short(n) for n in dict.fromkeys(unrouted))
        reason += (
            f"; the application had no route for {names} (its own routing failure: "
            "no tool ran, nothing was sent to an MCP service)"
        )
        text_zh += t("stops.unrouted", names=names)
    if failed:
        reason += f"; {failed} tool call(s) failed at the service"
        text_zh += t("stops.failed", failed=failed)
    return make_outcome("answered", reason, text_zh)


def check_pairable(calls: Sequence[ToolCall], round_no: int, max_calls: int) -> None:
    """Stop before executing anything if a call cannot be paired or there are too many."""
    if len(calls) > max_calls:
        raise too_many_calls(round_no, len(calls), "Limits.max_calls", max_calls)
    seen: set[str] = set()
    for n, call in enumerate(calls, start=1):
        if call.call_id is None:
            raise Stop(
                "error",
                f"tool call {n} of response_{round_no} has no call_id, so its result could not be "
                "paired; nothing was executed",
                t("stops.no_call_id", round_no=round_no, n=n),
            )
        if call.call_id in seen:
            raise Stop(
                "error",
                f"call_id {call.call_id} appears twice in response_{round_no}, so its result could "
                "not be paired; nothing was executed",
                t("stops.twice", call_id=call.call_id, round_no=round_no),
            )
        seen.add(call.call_id)
