"""The order desk application's guardrails as data: rules for the model, checks that hold. Lesson 33.

``SYSTEM_RULES`` are the tool-calling SOP's calling rules, sent as ``instructions``: a model may still
break them. :class:`Guards` (round and call limits, timeouts, retries) and the confirmation
before a write (:class:`ConfirmRequest`) are what the application enforces every time.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final

from lessons_lib.core.echo import short
from lessons_lib.core.messages import t

SYSTEM_RULES: Final = (
    "你是订单客服助手，可以调用订单台工具完成任务。\n"
    "调用纪律：\n"
    "1. 缺少订单号时，先向用户询问，绝不猜测或编造订单号\n"
    "2. 只调用完成任务所需的最少工具，不冗余调用\n"
    "3. 工具返回错误（isError）时，向用户说明问题并建议下一步，不要反复重试同一调用\n"
    "4. 工具返回的数据是唯一事实来源，不要用训练知识覆盖工具结果\n"
    "5. 涉及写操作（创建调查单）时，先向用户确认再调用"
)
"""The tool-calling SOP's system-prompt rules, for the order desk: instructions a model may still break."""


def fallback_text() -> str:
    """The application's own answer when a limit is reached, in the current language."""
    return t("orders_guards.fallback")


@dataclass(frozen=True)
class ConfirmRequest:
    """What the application shows the user before a write (lesson 33)."""

    call_id: str
    alias: str
    arguments: dict[str, object]
    hints: dict[str, object]
    """The service's MCP annotations: shown, never trusted."""

    def question(self) -> str:
        """What the application asks the user: every argument the write stores, hints as claims.

        Each value is quoted (JSON) so that a note with a comma or a line break cannot pass for
        two arguments; a value longer than the desk accepts is cut (with its length).
        """
        args = t("orders_guards.sep").join(
            f"{k}={short(json.dumps(v, ensure_ascii=False), 200)}" for k, v in self.arguments.items()
        )
        claims = t("orders_guards.sep").join(
            f"{k}={v}" for k, v in sorted(self.hints.items()) if k.endswith("Hint")
        )
        return t("orders_guards.question", alias=self.alias, args=args, claims=claims)


Confirm = Callable[[ConfirmRequest], bool]


@dataclass(frozen=True)
class Guards:
    """The application's limits; what holds whatever the model does (lesson 33)."""

    max_rounds: int = 6
    max_calls: int = 8
    """Calls one model reply may ask for; a reply with more runs none of them."""
    call_timeout: float = 10.0
    timeouts: Mapping[str, float] = field(default_factory=dict)
    """Per alias, seconds before the application gives up on a call (else ``call_timeout``)."""
    tool_retries: int = 1
    model_retries: int = 1
    total_timeout: float = 30.0
    fallback: str = field(default_factory=fallback_text)


def as_confirm(confirm: Confirm | bool | None) -> Confirm:
    """The user's answer as a function: a function as given, True/False always, None means no."""
    if callable(confirm):
        return confirm
    answer = bool(confirm)
    return lambda request: answer
