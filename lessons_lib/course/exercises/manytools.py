"""Offline checker for lesson 51's 动手: a Responses ``tool_choice`` of type ``allowed_tools``."""

from __future__ import annotations

from lessons_lib.core.messages import t
from lessons_lib.core.verdict import Verdict
from lessons_lib.examples.orders.exercises import found, learner_function


def check_allowed(allowed: object) -> Verdict:
    """Lesson 51: ``allowed(names)`` returns a ``tool_choice`` the official description accepts."""
    allowed = learner_function(
        allowed,
        "allowed",
        t("manytools_exercise.hint"),
    )
    if isinstance(allowed, Verdict):
        return allowed
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
            return found(False, (t("manytools_exercise.raised", name=type(exc).__name__, exc=exc),))
        errors = openai_shape_errors("ToolChoiceAllowed", choice)
        lines.append(
            ("✓ " if not errors else "✗ ")
            + t("manytools_exercise.fits", names=names)
            + (t("manytools_exercise.error", error=errors[0]) if errors else "")
        )
        got = (
            [tool.get("name") for tool in choice.get("tools", []) if isinstance(tool, dict)]
            if isinstance(choice, dict)
            else []
        )
        lines.append(("✓ " if got == names else "✗ ") + t("manytools_exercise.exact", got=got))
    return found(all(line.startswith("✓") for line in lines), tuple(lines))
