"""Tools that change, catalogues of many tools, tool output that gives orders (lessons 50-52).

``ENTRY`` declares it to the kernel: the ``tool-replay``, ``tool-catalogue`` and ``injection``
commands, its public names and the order desk service its versions change. It uses the order
desk example only through that example's ``ENTRY``. Each function below imports its module only
when called.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from lessons_lib.core.plugins.exampleregistry import Command, ExampleEntry, public
from lessons_lib.services.orders import ENTRY as ORDERS


def _tool_replay(argv: Sequence[str]) -> int:
    from lessons_lib.examples.evolve.cli import main_replay

    return main_replay(argv)


def _tool_catalogue(argv: Sequence[str]) -> int:
    from lessons_lib.examples.evolve.cli import main_catalogue

    return main_catalogue(argv)


def _injection_command(argv: Sequence[str]) -> int:
    from lessons_lib.examples.evolve.cli import main_injection

    return main_injection(argv)


def _toolversions() -> ModuleType:
    from lessons_lib.examples.evolve import toolversions

    return toolversions


def _toolwatch() -> ModuleType:
    from lessons_lib.examples.evolve import toolwatch

    return toolwatch


def _toolreplay() -> ModuleType:
    from lessons_lib.examples.evolve import toolreplay

    return toolreplay


def _upgrade() -> ModuleType:
    from lessons_lib.examples.evolve import upgrade

    return upgrade


def _fieldcompat() -> ModuleType:
    from lessons_lib.examples.evolve import fieldcompat

    return fieldcompat


def _injection() -> ModuleType:
    from lessons_lib.examples.evolve import injection

    return injection


def _catalogue() -> ModuleType:
    from lessons_lib.examples.evolve import catalogue

    return catalogue


def _requests() -> ModuleType:
    from lessons_lib.examples.evolve import manytools_requests

    return manytools_requests


def _selection() -> ModuleType:
    from lessons_lib.examples.evolve import selection

    return selection


ENTRY = ExampleEntry(
    "evolve",
    "tools that change, catalogues of many tools, tool output that gives orders",
    "50-52",
    commands=(
        Command(
            "tool-replay",
            _tool_replay,
            "replay the order desk's recorded tasks against another tool version and compare (lesson 50)",
            "tool-replay --version orders@1",
            "50",
            170,
        ),
        Command(
            "tool-catalogue",
            _tool_catalogue,
            "a generated catalogue of many tools: declaration tokens and selection per way (lesson 51)",
            "tool-catalogue --size 50",
            "51",
            180,
        ),
        Command(
            "injection",
            _injection_command,
            "instructions inside a tool's output: the attack with and without each defence (lesson 52)",
            "injection --defence all",
            "52",
            190,
        ),
    ),
    public=(
        public(_toolversions, "DESK_V1", "DESK_V1_1", "DESK_V2", "run_version"),
        public(_toolwatch, "fingerprint", "watch_upgrade"),
        public(_toolreplay, "load_baseline", "replay_version"),
        public(_upgrade, "release_table", "acceptance_rows", "watch_table"),
        public(_fieldcompat, "field_changes", "versioned_names"),
        public(_injection, "ATTACK_TASK", "NOTES_DIR", "DEFENCES", "run_attack", "attack_table"),
        public(_catalogue, "SIZES", "catalogue", "declared_catalogue", "token_count", "tokenizer_label"),
        public(
            _requests,
            "input_tokens_request",
            "responses_allowed",
            "chat_allowed",
            "responses_deferred",
            "anthropic_search",
            "openai_shape_errors",
            "anthropic_type_errors",
        ),
        public(
            _selection,
            "SELECTION_TASKS",
            "route_domain",
            "search_tools",
            "shown",
            "selection_table",
            "misses",
            "live_choice",
        ),
    ),
    services=(ORDERS,),
)
