"""The exercise of lesson 20: write the feedback message of Chat or Anthropic yourself.

``check_feedback_message(api, message)`` puts the learner's message where the application
would (the last message of the recorded ``request_2``), then judges it two ways: the API's
own checks of ``verify_roundtrip`` (offline), and the stand-in of that API reached through the
real SDK (``replay``), which answers 400 where the real API would. A blank (``None`` or
``...``) gets "还没有完成" and a hint, never an exception.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any, Final

from lessons_lib.core.paths import DATA_DIR

HINTS: Final = {
    "chat": (
        '提示：Chat 的反馈是一条 role 为 "tool" 的消息，用 tool_call_id 指回 response_1 里的调用，'
        "content 是服务返回的文本。"
    ),
    "anthropic": (
        '提示：Anthropic 的反馈是一条 role 为 "user" 的消息，content 里放一个 tool_result 块：'
        "tool_use_id、content（文本）、is_error。"
    ),
}


@dataclass(frozen=True)
class ExerciseResult:
    """The checker's answer: done or not, and the lines that say why."""

    done: bool
    lines: tuple[str, ...]

    def text(self) -> str:
        return "\n".join(self.lines)

    def __repr__(self) -> str:
        return self.text()


def _blank(value: Any) -> bool:
    return value is None or value is Ellipsis or (isinstance(value, dict) and Ellipsis in value.values())


def check_feedback_message(api: str, message: Any) -> ExerciseResult:
    """Judge the learner's feedback message for ``api`` ("chat" or "anthropic"). Lesson 20."""
    if api not in HINTS:
        return ExerciseResult(False, (f'api 应当是 "chat" 或 "anthropic"，收到的是 {api!r}。',))
    if _blank(message):
        return ExerciseResult(False, ("还没有完成：把 ... 换成你写的反馈消息。", HINTS[api]))
    if not isinstance(message, dict):
        return ExerciseResult(
            False, (f"反馈消息应当是一个字典（JSON 对象），收到的是 {type(message).__name__}。", HINTS[api])
        )
    from lessons_lib.apis.replay import replay
    from lessons_lib.checks.verify import verify_roundtrip

    roundtrip = json.loads((DATA_DIR / api / "roundtrip.json").read_text(encoding="utf-8"))
    roundtrip["request_2"]["messages"][-1] = copy.deepcopy(message)
    report = verify_roundtrip(roundtrip, sabotage=False)
    failed = report.failed
    reply = replay(api, roundtrip["request_2"])
    lines = [f"✗ {c.name}：{c.reason}" for c in failed] or [
        f"✓ verify_roundtrip 的 {len(report.checks)} 条检查全部通过"
    ]
    lines.append(
        f"替身接口（经真实 SDK）：HTTP {reply.status}"
        + (f"：{reply.error_message}" if reply.error_message else "，接受了这条反馈")
    )
    if failed or not reply.ok:
        return ExerciseResult(False, ("还差一点：", *lines, HINTS[api]))
    return ExerciseResult(True, ("完成了！", *lines))
