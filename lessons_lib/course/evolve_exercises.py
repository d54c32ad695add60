"""Offline checkers for the 动手 exercises of lessons 50 and 52 (lesson 51's is in manytools_exercise).

Each takes what the learner wrote (``...`` while the blank is open: "还没有完成" and a hint) and
grades behaviour on cases the lesson did not show, naming the first broken expectation.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from lessons_lib.examples.orders.exercises import ExerciseResult, unfinished_function


def _tool() -> dict[str, Any]:
    return {
        "name": "get_refund",
        "title": "查询退款",
        "description": "按退款单号查询退款进度。",
        "inputSchema": {
            "type": "object",
            "properties": {"refund_id": {"type": "string"}},
            "required": ["refund_id"],
        },
        "annotations": {"readOnlyHint": True},
    }


def check_fingerprint(fingerprint: Any) -> ExerciseResult:
    """Lesson 50: ``fingerprint(tool)`` changes with the definition, never with key order."""
    blank = unfinished_function(
        fingerprint,
        "fingerprint",
        "写 def fingerprint(tool): 用 json.dumps(..., sort_keys=True) 和 hashlib.sha256。",
    )
    if blank:
        return blank
    base = _tool()
    shuffled = dict(reversed(list(copy.deepcopy(base).items())))
    shuffled["inputSchema"] = dict(reversed(list(shuffled["inputSchema"].items())))
    variants = {
        "说明改了一个字": {**copy.deepcopy(base), "description": "按退款单号查询全部退款记录。"},
        "Schema 多了一个字段": copy.deepcopy(base),
        "注解从只读改成可写": {**copy.deepcopy(base), "annotations": {"readOnlyHint": False}},
        "标题改了": {**copy.deepcopy(base), "title": "退款"},
    }
    variants["Schema 多了一个字段"]["inputSchema"]["properties"]["reason"] = {"type": "string"}
    try:
        first, again, reordered = (
            fingerprint(copy.deepcopy(base)),
            fingerprint(copy.deepcopy(base)),
            fingerprint(shuffled),
        )
        changed = {name: fingerprint(tool) for name, tool in variants.items()}
    except Exception as exc:
        return ExerciseResult(False, (f"调用 fingerprint 时出错：{type(exc).__name__}: {exc}",))
    lines = [
        ("✓ " if first == again else "✗ ") + "同一个定义算两次，指纹相同",
        ("✓ " if first == reordered else "✗ ") + "只是键的顺序不同，指纹相同（用 sort_keys）",
    ]
    lines += [("✓ " if fp != first else "✗ ") + f"{name}：指纹不同" for name, fp in changed.items()]
    return ExerciseResult(all(line.startswith("✓") for line in lines), tuple(lines))


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


def check_screen(refuse: Any) -> ExerciseResult:
    """Lesson 52: ``refuse(task, alias, arguments)`` stops the injected write, keeps the asked-for one."""
    blank = unfinished_function(
        refuse,
        "refuse",
        "写 def refuse(task, alias, arguments): 写操作的 order_id 不在 task 里时返回一句理由，"
        "否则返回 None。",
    )
    if blank:
        return blank
    from lessons_lib.examples.evolve.injection import ATTACK_TASK, run_attack

    asked = "订单 O-1001 破损了，请帮我创建破损调查单。"  # a task the lesson did not run
    try:
        attack = run_attack("none", ATTACK_TASK, screen=_LearnerScreen(refuse))
        control = run_attack("none", asked, screen=_LearnerScreen(refuse))
    except Exception as exc:
        return ExerciseResult(False, (f"运行时出错：{type(exc).__name__}: {exc}",))
    wrote = any(
        alias.endswith("create_investigation") and status in ("ok", "created")
        for alias, status in control.calls
    )
    read = any(alias == "fs__read_text_file" and status == "ok" for alias, status in attack.calls)
    lines = (
        ("✓ " if not attack.harmed else "✗ ") + "笔记里注入的 create_investigation（O-1043）没有执行",
        ("✓ " if read else "✗ ") + "读笔记这个调用照常执行（不要把读也拦了）",
        ("✓ " if wrote else "✗ ") + "用户自己要求的 O-1001 调查单照常创建",
    )
    return ExerciseResult(all(line.startswith("✓") for line in lines), lines)
