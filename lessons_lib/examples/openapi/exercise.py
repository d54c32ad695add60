"""The 动手 of lesson 41: write one Chat Completions tool declaration from an OpenAPI operation.

``check_declaration(answer)`` compares the learner's declaration for ``search_delivery_policy``
with what the converter generates and with the official ``ChatCompletionTool`` schema. An
unfilled answer (``None`` or containing ``...``) gets "还没有完成" and a hint, never an error.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Final

from lessons_lib.core.display import Displayable
from lessons_lib.core.jsonvalue import get_in

TARGET: Final = "search_delivery_policy"
HINT: Final = (
    "提示：从 operations(doc) 里取出 search_delivery_policy，"
    '按 {"type": "function", "function": {"name", "description", "parameters"}} 的形状填写。'
)


@dataclass(frozen=True, repr=False)
class ExerciseReport(Displayable):
    """Verdict lines for one answer; ``ok`` only when every line passes."""

    ok: bool
    lines: tuple[str, ...]

    def text(self) -> str:
        return "\n".join(self.lines)

    def repr_args(self) -> str:
        return f"ok={self.ok}"


def _unfilled(answer: object) -> bool:
    return answer is None or answer is ... or "Ellipsis" in repr(answer)


def check_declaration(answer: object) -> ExerciseReport:
    """Check a Chat Completions declaration for ``search_delivery_policy`` (lesson 41)."""
    from lessons_lib.engine.specs import tool_errors
    from lessons_lib.examples.openapi.app import openapi_document
    from lessons_lib.examples.openapi.tools import chat_tool, operations

    if _unfilled(answer):
        return ExerciseReport(False, ("还没有完成：把 ... 换成你的声明。", HINT))
    if not isinstance(answer, dict):
        return ExerciseReport(False, (f"声明应当是一个 dict，现在是 {type(answer).__name__}。", HINT))
    expected = chat_tool(next(op for op in operations(openapi_document()) if op.name == TARGET))
    lines, ok = [], True
    errors = tool_errors("chat", answer)
    lines.append("官方 ChatCompletionTool schema：" + ("通过" if not errors else "不通过 — " + errors[0]))
    ok &= not errors
    raw = answer.get("function")
    function: dict[object, object] = raw if isinstance(raw, dict) else {}
    for key in ("name", "description", "parameters"):
        same = json.dumps(function.get(key), sort_keys=True) == json.dumps(
            get_in(expected, "function", key), sort_keys=True
        )
        ok &= same
        lines.append(
            f"function.{key}：" + ("与生成结果一致" if same else "与生成结果不同，再对照 operations(doc)")
        )
    if "security" in json.dumps(answer) or "Authorization" in json.dumps(answer):
        ok = False
        lines.append("声明里出现了鉴权信息：令牌留在调用层，不能交给模型。")
    lines.insert(0, "完成了！" if ok else "还差一点：")
    return ExerciseReport(ok, tuple(lines))
