"""What the lesson-11 grader runs a learner's loop on: the example and hidden variations.

Introduced in lesson 11. Each :class:`Case` is pure data: the task, the round limit passed to
the loop, the services the bench runs, the stand-in's moves and a fault to inject. Stage 2
(``app_loop``) meets another ``head``, a missing file, a path outside the root, a text before
the call, two calls in one reply, arguments that are not JSON, an alias nobody declared, a
protocol error, and a model that never stops calling under three different ``max_rounds``.
Stage 3 (``app_loop_many``) drives the file service and the order desk at once. The judge
(``grading_judge``) checks ``tool_choice``, the declaration and the context on every request.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TypedDict

from lessons_lib.core.example import MISSING_PATH, OUTSIDE_PATH, task_text
from lessons_lib.core.messages import t
from lessons_lib.engine.standins.rules import Script

if TYPE_CHECKING:
    from lessons_lib.workshop.loop.kit import Bench

MAX_ROUNDS: Final = 3
"""The round limit of the lesson's own example (the hidden cases use others too)."""

NOTES: Final = "/workspace/notes.txt"


class BenchOptions(TypedDict):
    """The keyword arguments of ``kit.workbench`` that build one case's trusted side."""

    script: Script | None
    moves: tuple[tuple[str, str], ...]
    services: tuple[str, ...]
    fault: str | None
    max_requests: int
    bare_success: bool


def _args(**values: object) -> str:
    return json.dumps({"path": NOTES, **values}, ensure_ascii=False)


@dataclass(frozen=True)
class Case:
    """One run of the learner's loop: what it gets, and what the stand-in and services do."""

    key: str
    title_key: str
    task: str
    script: Script | None = None
    moves: tuple[tuple[str, str], ...] = ()
    max_rounds: int = MAX_ROUNDS
    services: tuple[str, ...] = ("fs",)
    fault: str | None = None
    hint_key: str = ""
    bare_success: bool = False
    """The service answers successes without ``isError`` (optional in every MCP schema)."""

    @property
    def title(self) -> str:
        """The case's name in the current language (a catalogue entry, looked up when shown)."""
        return t(self.title_key, rounds=self.max_rounds)

    @property
    def hint(self) -> str:
        """What the case tests, in the current language; empty for the lesson's own example."""
        return t(self.hint_key, rounds=self.max_rounds) if self.hint_key else ""

    def bench_options(self) -> BenchOptions:
        """Keyword arguments of ``kit.workbench`` that build this case's trusted side."""
        return {
            "script": self.script,
            "moves": self.moves,
            "services": self.services,
            "fault": self.fault,
            "max_requests": self.max_rounds + 3,
            "bare_success": self.bare_success,
        }

    def call(self, fn: Callable[..., object], bench: Bench) -> object:
        """Call the learner's loop as its contract says: one service (``fs``) or a list of them."""
        if len(self.services) > 1:
            return fn(self.task, bench.model, list(bench.services), max_rounds=self.max_rounds)
        return fn(self.task, bench.model, bench.fs, max_rounds=self.max_rounds)


def _endless(
    key: str, rounds: int, services: tuple[str, ...] = ("fs",), moves: tuple[tuple[str, str], ...] = ()
) -> Case:
    return Case(
        key,
        "grading_cases.endless.title",
        task_text(head=2),
        Script(endless=True),
        max_rounds=rounds,
        services=services,
        hint_key="grading_cases.endless.hint",
        moves=moves,
    )


LOOP_CASES: Final = (
    Case("example", "grading_cases.example.title", task_text()),
    Case(
        "another_head",
        "grading_cases.another_head.title",
        task_text(head=7),
        hint_key="grading_cases.another_head.hint",
        bare_success=True,
    ),
    Case(
        "missing_file",
        "grading_cases.missing_file.title",
        task_text(MISSING_PATH, head=5),
        hint_key="grading_cases.missing_file.hint",
    ),
    Case(
        "outside_root",
        "grading_cases.outside_root.title",
        task_text(OUTSIDE_PATH, head=5),
        hint_key="grading_cases.outside_root.hint",
    ),
    Case(
        "renamed_service",
        "grading_cases.renamed_service.title",
        task_text(head=6),
        services=("files",),
        hint_key="grading_cases.renamed_service.hint",
    ),
    Case(
        "text_first",
        "grading_cases.text_first.title",
        task_text(head=4),
        Script(preamble="好的，我先读取这个文件。"),
        hint_key="grading_cases.text_first.hint",
    ),
    Case(
        "two_calls",
        "grading_cases.two_calls.title",
        task_text(head=3),
        Script(also=(_args(tail=2),)),
        hint_key="grading_cases.two_calls.hint",
    ),
    Case(
        "bad_arguments",
        "grading_cases.bad_arguments.title",
        task_text(head=5),
        moves=(
            ("fs__read_text_file", '{"path": "/workspace/notes.txt", "head": 5'),
            ("fs__read_text_file", _args(head=5)),
        ),
        hint_key=("grading_cases.bad_arguments.hint"),
    ),
    Case(
        "unknown_alias",
        "grading_cases.unknown_alias.title",
        task_text(head=3),
        moves=(("fs__read_file", _args()), ("fs__read_text_file", _args(head=3))),
        hint_key=("grading_cases.unknown_alias.hint"),
    ),
    Case(
        "protocol_error",
        "grading_cases.protocol_error.title",
        task_text(head=5),
        fault="unavailable",
        hint_key="grading_cases.protocol_error.hint",
    ),
    _endless("endless", MAX_ROUNDS),
    _endless("endless_2", 2),
    _endless("endless_5", 5),
)

_BOTH: Final = ("fs", "orders")
_TWO_TASK: Final = "请读取 /workspace/notes.txt 的前 3 行，并查询订单 O-1042 的状态。"

MANY_CASES: Final = (
    Case(
        "two_services",
        "grading_cases.two_services.title",
        _TWO_TASK,
        moves=(("fs__read_text_file", _args(head=3)), ("orders__get_order", '{"order_id": "O-1042"}')),
        services=_BOTH,
        hint_key="grading_cases.two_services.hint",
    ),
    Case(
        "one_fails",
        "grading_cases.one_fails.title",
        "请读取 /workspace/missing.txt 的前 2 行，并查询订单 O-9999。",
        moves=(
            ("orders__get_order", '{"order_id": "O-9999"}'),
            ("fs__read_text_file", json.dumps({"path": MISSING_PATH, "head": 2})),
        ),
        services=_BOTH,
        hint_key="grading_cases.one_fails.hint",
    ),
    Case(
        "broken_calls",
        "grading_cases.broken_calls.title",
        _TWO_TASK,
        moves=(
            ("orders__get_order", '{"order_id": "O-10'),
            ("orders__cancel_order", '{"order_id": "O-1042"}'),
            ("fs__read_text_file", _args(head=3)),
        ),
        services=_BOTH,
        hint_key="grading_cases.broken_calls.hint",
    ),
    _endless(
        "endless_many",
        2,
        _BOTH,
        moves=(("orders__get_order", '{"order_id": "O-1042"}'), ("fs__read_text_file", _args(head=2))),
    ),
)

CASES: Final = LOOP_CASES
"""The stage-2 cases (kept under the old name)."""

FUNCTION_CASES: Final = {"app_loop": LOOP_CASES, "app_loop_many": MANY_CASES}


def cases_for(function: str) -> tuple[Case, ...]:
    """The hidden cases of a graded loop: ``app_loop`` (stage 2) or ``app_loop_many`` (stage 3)."""
    return FUNCTION_CASES.get(function, LOOP_CASES)


WHERE: Final = {
    "declaration": "grading_cases.where.declaration",
    "tool_choice": "grading_cases.where.tool_choice",
    "request": "grading_cases.where.request",
    "task": "grading_cases.where.task",
    "context": "grading_cases.where.context",
    "arguments_text": "grading_cases.where.arguments_text",
    "alias": "grading_cases.where.alias",
    "route": "grading_cases.where.route",
    "hard_coded": "grading_cases.where.hard_coded",
    "id_reused": "grading_cases.where.id_reused",
    "unexecuted": "grading_cases.where.unexecuted",
    "extra_call": "grading_cases.where.extra_call",
    "bad_arguments": "grading_cases.where.bad_arguments",
    "unknown_alias": "grading_cases.where.unknown_alias",
    "ids": "grading_cases.where.ids",
    "feedback": "grading_cases.where.feedback",
    "service": "grading_cases.where.service",
    "next_input": "grading_cases.where.next_input",
    "answer": "grading_cases.where.answer",
    "extra_requests": "grading_cases.where.extra_requests",
    "no_limit": "grading_cases.where.no_limit",
    "round_limit": "grading_cases.where.round_limit",
    "stop_message": "grading_cases.where.stop_message",
    "first_item": "grading_cases.where.first_item",
    "unfinished": "grading_cases.where.unfinished",
    "crashed": "grading_cases.where.crashed",
}
"""Where to look, by the key of the first broken link (no code: the lesson's hints have levels);
catalogue keys, looked up when shown (:func:`where`)."""

LINK_ZH: Final = {
    "declaration": "grading_cases.link.declaration",
    "tool_choice": "grading_cases.link.tool_choice",
    "request": "grading_cases.link.request",
    "task": "grading_cases.link.task",
    "context": "grading_cases.link.context",
    "arguments_text": "grading_cases.link.arguments_text",
    "alias": "grading_cases.link.alias",
    "route": "grading_cases.link.route",
    "hard_coded": "grading_cases.link.hard_coded",
    "id_reused": "grading_cases.link.id_reused",
    "unexecuted": "grading_cases.link.unexecuted",
    "extra_call": "grading_cases.link.extra_call",
    "bad_arguments": "grading_cases.link.bad_arguments",
    "unknown_alias": "grading_cases.link.unknown_alias",
    "ids": "grading_cases.link.ids",
    "feedback": "grading_cases.link.feedback",
    "service": "grading_cases.link.service",
    "next_input": "grading_cases.link.next_input",
    "answer": "grading_cases.link.answer",
    "extra_requests": "grading_cases.link.extra_requests",
    "no_limit": "grading_cases.link.no_limit",
    "round_limit": "grading_cases.link.round_limit",
    "stop_message": "grading_cases.link.stop_message",
    "first_item": "grading_cases.link.first_item",
    "crashed": "grading_cases.link.crashed",
}
"""The link's name, as the failure message says it (a catalogue key: see :func:`link_name`)."""


def where(link: str) -> str:
    """Where to look when ``link`` is the first broken one, in the current language ("" if unknown)."""
    return t(WHERE[link]) if link in WHERE else ""


def link_name(link: str) -> str:
    """The name of a link in the current language (the key itself if it has none)."""
    return t(LINK_ZH[link]) if link in LINK_ZH else link
