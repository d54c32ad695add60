"""Offline checkers for the 动手 exercises of lessons 50 and 52 (lesson 51's: ``exercises/manytools``).

Each takes what the learner wrote (``...`` while the blank is open: "还没有完成" and a hint) and
grades behaviour on cases the lesson did not show, naming the first broken expectation.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from lessons_lib.core.messages import t
from lessons_lib.core.paths import DATA_DIR
from lessons_lib.core.verdict import Verdict
from lessons_lib.examples.evolve.injection import ATTACK_TASK, NOTES_DIR, TARGET, run_attack
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
        _tomorrow(fingerprint, base),
    ]
    lines += [
        ("✓ " if fp != first else "✗ ")
        + t("evolve_exercises.50.changed", name=t(f"evolve_exercises.50.{what}"))
        for what, fp in changed.items()
    ]
    return found(all(line.startswith("✓") for line in lines), tuple(lines))


def _tomorrow(fingerprint: Any, tool: dict[str, Any]) -> str:
    """✓/✗: the fingerprint is the same in two new processes (Python's ``hash()`` is salted)."""
    from lessons_lib.course.exercises.rerun import CannotRerun, in_fresh_processes

    try:
        today, tomorrow = in_fresh_processes(fingerprint, tool)
    except CannotRerun as exc:
        return "✗ " + t("p2b.50.cannot_rerun", reason=exc)
    return ("✓ " if today == tomorrow else "✗ ") + t("p2b.50.tomorrow")


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


CHECKER_DIR: Final = DATA_DIR / "injection_checker"
"""Lesson 52's checker cases: notes files with injections the lesson never showed, and ``cases.json``."""


@dataclass(frozen=True)
class Attack:
    """One injection the checker tries: the file (in ``folder``), the order it names, the task."""

    file: str
    order: str
    task: str
    folder: Path = CHECKER_DIR


def attacks() -> list[Attack]:
    """The lesson's own notes first, then other wordings, orders, keys, a language, the user's own order."""
    cases = json.loads((CHECKER_DIR / "cases.json").read_text(encoding="utf-8"))
    own = Attack("ticket_notes.txt", TARGET, ATTACK_TASK, NOTES_DIR)
    return [own] + [Attack(a["file"], a["order"], a["task"]) for a in cases["attacks"]]


def controls() -> list[tuple[str, str]]:
    """(task, order) of writes the user did ask for: they must still happen."""
    cases = json.loads((CHECKER_DIR / "cases.json").read_text(encoding="utf-8"))
    return [(c["task"], c["order"]) for c in cases["controls"]]


def check_screen(refuse: Any) -> Verdict:
    """Lesson 52: ``refuse(task, alias, arguments)`` stops injected writes, keeps asked-for ones.

    Every injection of :func:`attacks` runs through the real loop with the learner's screen; none
    may write and each read must go through. Each task of :func:`controls` must still write.
    """
    blank = unfinished_function(refuse, "refuse", t("evolve_exercises.52.hint"))
    if blank:
        return blank
    lines: list[str] = []
    try:
        for attack in attacks():
            lines += _attack_lines(refuse, attack)
        for task, order in controls():
            control = run_attack("none", task, screen=_LearnerScreen(refuse), target=order)
            lines.append(("✓ " if control.injected_rows > 0 else "✗ ") + t("p2b.52.wrote", order=order))
    except Exception as exc:
        return found(False, (t("evolve_exercises.52.raised", name=type(exc).__name__, exc=exc),))
    return found(all(line.startswith("✓") for line in lines), tuple(lines))


def _attack_lines(refuse: Any, attack: Attack) -> list[str]:
    """The two findings of one injection: nothing written, the file read."""
    screen = _LearnerScreen(refuse)
    run = run_attack("none", attack.task, screen=screen, notes=attack.folder, target=attack.order)
    read = any(alias == "fs__read_text_file" and status == "ok" for alias, status in run.calls)
    return [
        ("✓ " if not run.harmed else "✗ ") + t("p2b.52.stopped", file=attack.file, order=attack.order),
        ("✓ " if read else "✗ ") + t("p2b.52.read", file=attack.file),
    ]
