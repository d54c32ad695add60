"""Offline checker for lesson 51's 动手: a Responses ``tool_choice`` of type ``allowed_tools``."""

from __future__ import annotations

from typing import Any

from lessons_lib.examples.orders.exercises import ExerciseResult, unfinished_function


def check_allowed(allowed: Any) -> ExerciseResult:
    """Lesson 51: ``allowed(names)`` returns a ``tool_choice`` the official description accepts."""
    blank = unfinished_function(
        allowed,
        "allowed",
        "写 def allowed(names): 返回 {'type': 'allowed_tools', 'mode': 'auto', 'tools': [...]}。",
    )
    if blank:
        return blank
    from lessons_lib.examples.evolve.manytools_requests import openai_shape_errors

    cases = (
        ["refunds_get_refund", "refunds_list_refund"],
        ["stores_get_store"],
    )  # names the lesson did not use
    lines = []
    for names in cases:
        try:
            choice = allowed(list(names))
        except Exception as exc:
            return ExerciseResult(False, (f"调用 allowed 时出错：{type(exc).__name__}: {exc}",))
        errors = openai_shape_errors("ToolChoiceAllowed", choice)
        lines.append(
            ("✓ " if not errors else "✗ ")
            + f"{names}：符合官方 ToolChoiceAllowed"
            + (f"（{errors[0]}）" if errors else "")
        )
        got = (
            [t.get("name") for t in choice.get("tools", []) if isinstance(t, dict)]
            if isinstance(choice, dict)
            else []
        )
        lines.append(("✓ " if got == names else "✗ ") + f"只允许这些工具，一个不多一个不少：{got}")
    return ExerciseResult(all(line.startswith("✓") for line in lines), tuple(lines))
