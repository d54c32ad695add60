"""The guardrail ends both application loops share, each in English and in Chinese. Lesson 05.

The file-service host (:mod:`lessons_lib.engine.host`) and the order desk
(:mod:`lessons_lib.examples.orders.run`) stop for the same reasons: a round limit, a model that
does not answer in time, a whole run over its time bound, a reply with more calls than allowed.
Each reason is one stable English line for programs and tests, and a Chinese ``text`` for
the lessons (:mod:`lessons_lib.core.outcomes`).
"""

from __future__ import annotations

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
