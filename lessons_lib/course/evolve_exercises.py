"""Offline checkers for the 动手 exercises of lessons 50 and 52 (lesson 51's is in manytools_exercise).

Each takes what the learner wrote (``...`` while the blank is open: "还没有完成" and a hint) and
grades behaviour on cases the lesson did not show, naming the first broken expectation.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from lessons_lib.core.messages import t
from lessons_lib.core.verdict import Verdict
from lessons_lib.examples.orders.exercises import found, unfinished_function


def _tool() -> dict[str, Any]:
    return {
        "name": "get_refund",
        "title": t("evolve_exercises.tool.title"),
        "description": t("evolve_exercises.tool.description"),
        "inputSchema": {
            "type": "object",
            "properties": {"refund_id": {"type": "string"}},
            "required": ["refund_id"],
        },
        "annotations": {"readOnlyHint": True},
    }


def check_fingerprint(fingerprint: Any) -> Verdict:
    """Lesson 50: ``fingerprint(tool)`` changes with the definition, never with key order."""
    blank = unfinished_function(
        fingerprint,
        "fingerprint",
        t("evolve_exercises.50.hint"),
    )
    if blank:
        return blank
    base = _tool()
    shuffled = dict(reversed(list(copy.deepcopy(base).items())))
    shuffled["inputSchema"] = dict(reversed(list(shuffled["inputSchema"].items())))
    variants = {
        "description": {**copy.deepcopy(base), "description": t("evolve_exercises.tool.description_changed")},
        "schema": copy.deepcopy(base),
        "annotations": {**copy.deepcopy(base), "annotations": {"readOnlyHint": False}},
        "title": {**copy.deepcopy(base), "title": t("evolve_exercises.tool.title_changed")},
    }
    variants["schema"]["inputSchema"]["properties"]["reason"] = {"type": "string"}
    try:
        first, again, reordered = (
            fingerprint(copy.deepcopy(base)),
            fingerprint(copy.deepcopy(base)),
            fingerprint(shuffled),
        )
        changed = {name: fingerprint(tool) for name, tool in variants.items()}
    except Exception as exc:
        return found(False, (t("evolve_exercises.50.raised", name=type(exc).__name__, exc=exc),))
    lines = [
        ("✓ " if first == again else "✗ ") + t("evolve_exercises.50.same"),
        ("✓ " if first == reordered else "✗ ") + t("evolve_exercises.50.order"),
    ]
    lines += [
        ("✓ " if fp != first else "✗ ")
        + t("evolve_exercises.50.changed", name=t(f"evolve_exercises.50.{what}"))
        for what, fp in changed.items()
    ]
    return found(all(line.startswith("✓") for line in lines), tuple(lines))


class _LearnerScreen:
    """The learner's ``refuse(task, call)`` as the application's screen (lesson 52)."""

    def __init__(self, refuse: Any) -> None:
        self._refuse = refuse

    def declare(self, task: str, tools: list[Any]) -> list[Any]:
        return tools

    def refuse(self, task: str, call: Any) -> Any:
        from lessons_lib.engine.screens import refusal

        arguments = json.loads(call.arguments) if isinstance(call.arguments, str) else call.arguments
        reason = self._refuse(task, call.name, arguments)
        return refusal(call, str(reason)) if reason else None

    def result(self, result: Any) -> Any:
        return result


def check_screen(refuse: Any) -> Verdict:
    """Lesson 52: ``refuse(task, alias, arguments)`` stops the injected write, keeps the asked-for one."""
    blank = unfinished_function(
        refuse,
        "refuse",
        t("evolve_exercises.52.hint"),
    )
    if blank:
        return blank
    from lessons_lib.examples.evolve.injection import ATTACK_TASK, run_attack

    asked = "订单 O-1001 破损了，请帮我创建破损调查单。"  # a task the lesson did not run
    try:
        attack = run_attack("none", ATTACK_TASK, screen=_LearnerScreen(refuse))
        control = run_attack("none", asked, screen=_LearnerScreen(refuse))
    except Exception as exc:
        return found(False, (t("evolve_exercises.52.raised", name=type(exc).__name__, exc=exc),))
    wrote = any(
        alias.endswith("create_investigation") and status in ("ok", "created")
        for alias, status in control.calls
    )
    read = any(alias == "fs__read_text_file" and status == "ok" for alias, status in attack.calls)
    lines = (
        ("✓ " if not attack.harmed else "✗ ") + t("evolve_exercises.52.stopped"),
        ("✓ " if read else "✗ ") + t("evolve_exercises.52.read"),
        ("✓ " if wrote else "✗ ") + t("evolve_exercises.52.wrote"),
    )
    return found(all(line.startswith("✓") for line in lines), lines)
