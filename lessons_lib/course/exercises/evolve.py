"""Offline checkers for the 动手 exercises of lessons 50 and 52 (lesson 51's is in manytools_exercise).

Each takes what the learner wrote (``...`` while the blank is open: "还没有完成" and a hint) and
grades behaviour on cases the lesson did not show, naming the first broken expectation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.messages import t
from lessons_lib.core.paths import DATA_DIR
from lessons_lib.core.verdict import Verdict
from lessons_lib.examples.evolve.injection import ATTACK_TASK, NOTES_DIR, TARGET, run_attack
from lessons_lib.examples.orders.exercises import LearnerFunction, found, learner_function

if TYPE_CHECKING:
    from lessons_lib.core.plugins.apitypes import ToolCall
    from lessons_lib.engine.adapters import CallResult


def _schema(*, reason: bool = False) -> JSONObject:
    """The tool's input schema; ``reason``: with one more (optional) property."""
    properties: JSONObject = {"refund_id": {"type": "string"}}
    if reason:
        properties["reason"] = {"type": "string"}
    return {"type": "object", "properties": properties, "required": ["refund_id"]}


def _tool(schema: JSONObject | None = None) -> JSONObject:
    """A fresh copy of the tool lesson 50's checker fingerprints."""
    return {
        "name": "get_refund",
        "title": t("evolve_exercises.tool.title"),
        "description": t("evolve_exercises.tool.description"),
        "inputSchema": _schema() if schema is None else schema,
        "annotations": {"readOnlyHint": True},
    }


def check_fingerprint(fingerprint: object) -> Verdict:
    """Lesson 50: ``fingerprint(tool)`` changes with the definition, never with key order."""
    fingerprint = learner_function(
        fingerprint,
        "fingerprint",
        t("evolve_exercises.50.hint"),
    )
    if isinstance(fingerprint, Verdict):
        return fingerprint
    base = _tool()
    shuffled = dict(reversed(list(_tool().items())))
    shuffled["inputSchema"] = dict(reversed(list(_schema().items())))
    variants: dict[str, JSONObject] = {
        "description": {**_tool(), "description": t("evolve_exercises.tool.description_changed")},
        "schema": _tool(_schema(reason=True)),
        "annotations": {**_tool(), "annotations": {"readOnlyHint": False}},
        "title": {**_tool(), "title": t("evolve_exercises.tool.title_changed")},
    }
    try:
        first, again, reordered = (fingerprint(_tool()), fingerprint(_tool()), fingerprint(shuffled))
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


def _tomorrow(fingerprint: LearnerFunction, tool: JSONObject) -> str:
    """✓/✗: the fingerprint is the same in two new processes (Python's ``hash()`` is salted)."""
    from lessons_lib.course.exercises.rerun import CannotRerun, in_fresh_processes

    try:
        today, tomorrow = in_fresh_processes(fingerprint, tool)
    except CannotRerun as exc:
        return "✗ " + t("p2b.50.cannot_rerun", reason=exc)
    return ("✓ " if today == tomorrow else "✗ ") + t("p2b.50.tomorrow")


class _LearnerScreen:
    """The learner's ``refuse(task, call)`` as the application's screen (lesson 52)."""

    def __init__(self, refuse: LearnerFunction) -> None:
        self._refuse = refuse

    def declare(self, task: str, tools: list[JSONObject]) -> list[JSONObject]:
        return tools

    def refuse(self, task: str, call: ToolCall) -> CallResult | None:
        from lessons_lib.engine.screens import refusal

        arguments = json.loads(call.arguments) if isinstance(call.arguments, str) else call.arguments
        reason = self._refuse(task, call.name, arguments)
        return refusal(call, str(reason)) if reason else None

    def result(self, result: CallResult) -> CallResult:
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


def check_screen(refuse: object) -> Verdict:
    """Lesson 52: ``refuse(task, alias, arguments)`` stops injected writes, keeps asked-for ones.

    Every injection of :func:`attacks` runs through the real loop with the learner's screen; none
    may write and each read must go through. Each task of :func:`controls` must still write.
    """
    refuse = learner_function(refuse, "refuse", t("evolve_exercises.52.hint"))
    if isinstance(refuse, Verdict):
        return refuse
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


def _attack_lines(refuse: LearnerFunction, attack: Attack) -> list[str]:
    """The two findings of one injection: nothing written, the file read."""
    screen = _LearnerScreen(refuse)
    run = run_attack("none", attack.task, screen=screen, notes=attack.folder, target=attack.order)
    read = any(alias == "fs__read_text_file" and status == "ok" for alias, status in run.calls)
    return [
        ("✓ " if not run.harmed else "✗ ") + t("p2b.52.stopped", file=attack.file, order=attack.order),
        ("✓ " if read else "✗ ") + t("p2b.52.read", file=attack.file),
    ]
