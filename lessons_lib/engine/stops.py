"""The guardrail ends of the one application loop, each in English and in Chinese. Lesson 05.

Every run of the host (:mod:`lessons_lib.engine.host`), the order desk's included, stops for
the same reasons: a round limit, a model that does not answer in time, a whole run over its
time bound, a reply with more calls than allowed or calls that cannot be paired; and an
answered run says what happened before the answer.
Each reason is one stable English line for programs and tests, and a Chinese ``text`` for
the lessons (:mod:`lessons_lib.core.outcomes`).
"""

from __future__ import annotations

from collections.abc import Sequence

from lessons_lib.core.apishapes import ToolCall
from lessons_lib.core.echo import short
from lessons_lib.core.outcomes import make_outcome
from lessons_lib.core.tracetypes import Outcome
from lessons_lib.engine.adapters import Stop


def round_limit(max_rounds: int, *, fallback: bool = False) -> Stop:
    """``max_rounds`` model requests were made: the latest results were not sent, or a fallback answered."""
    if fallback:
        return Stop(
            "stopped",
            f"max_rounds={max_rounds} reached; the application answered with its fallback",
            f"已到轮数上限 max_rounds={max_rounds}：应用用自己的兜底答复收尾",
        )
    return Stop(
        "stopped",
        f"max_rounds={max_rounds} reached; the latest tool results were not sent to the model",
        f"已到轮数上限 max_rounds={max_rounds}：最近的工具结果没有交给模型，所以没有答复",
    )


def model_timeout(seconds: float) -> Stop:
    """The model API did not answer one request within ``seconds``."""
    return Stop(
        "stopped",
        f"the model API did not answer within {seconds:g} s",
        f"模型接口在 {seconds:g} 秒内没有回答",
    )


def total_timeout(seconds: float) -> Outcome:
    """The whole run went over its time bound."""
    return make_outcome(
        "stopped", f"total time bound of {seconds:g} s reached", f"整次运行的时间上限 {seconds:g} 秒已到"
    )


def too_many_calls(round_no: int, count: int, cap_name: str, cap: int) -> Stop:
    """One reply asked for more calls than ``cap_name`` (e.g. ``Limits.max_calls``) allows: none runs."""
    return Stop(
        "stopped",
        f"response_{round_no} asks for {count} tool calls; the cap is {cap_name}={cap} per reply, "
        "so none was executed",
        f"response_{round_no} 要求 {count} 个工具调用，超过每次回复的上限 {cap_name}={cap}，"
        "所以一个也没有执行",
    )


def answered(rounds: int, text: str, unrouted: Sequence[str], failed: int) -> Outcome:
    """How an answered run ended: after the feedback (and what failed), or without any call."""
    if rounds == 1:
        # A reply that ends in a question mark is taken as a question to the user (lesson 08).
        if text.rstrip().endswith(("？", "?")):
            return make_outcome(
                "answered",
                "no tool was called: the model asked the user for what the task leaves out",
                "没有调用工具：模型先向用户提问，要补上任务里缺少的信息，而不是猜",
            )
        return make_outcome(
            "answered", "the model answered without calling a tool", "模型没有调用工具，直接作了答复"
        )
    reason, text_zh = "the model answered after the feedback", "模型在收到反馈之后作了答复"
    if unrouted:
        names = ", ".join(short(n) for n in dict.fromkeys(unrouted))
        reason += (
            f"; the application had no route for {names} (its own routing failure: "
            "no tool ran, nothing was sent to an MCP service)"
        )
        text_zh += (
            f"；应用的路由表里没有别名 {names}：这是应用的路由失败，没有工具运行，也没有请求发给 MCP 服务"
        )
    if failed:
        reason += f"; {failed} tool call(s) failed at the service"
        text_zh += f"；有 {failed} 个调用在服务一侧失败，反馈如实写明了失败"
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
                f"response_{round_no} 的第 {n} 个工具调用没有 call_id，结果无法配对，所以什么也没有执行",
            )
        if call.call_id in seen:
            raise Stop(
                "error",
                f"call_id {call.call_id} appears twice in response_{round_no}, so its result could "
                "not be paired; nothing was executed",
                f"call_id {call.call_id} 在 response_{round_no} 里出现了两次，结果无法配对，什么也没有执行",
            )
        seen.add(call.call_id)
