"""The one registry of examples: one entry per folder of ``lessons_lib/examples/``. Lesson 30.

Standard library only. An entry names its folder, the lessons it serves, its commands (rows
of ``core.commands.COMMANDS``), the facade names it defines, and what ``python -m lessons_lib
run --example NAME`` calls (``module:function`` text, imported on first use, so the kernel never
imports an example). A test holds the command table, the facade, the cheat sheet and the
README's layer table to these entries.

Another example registers itself with :func:`register_example` when its module is imported;
the modules named in the environment variable ``LESSONS_LIB_EXAMPLES`` (comma-separated) are
imported before the registry answers, so the command line finds them too. An unknown name is
a one-line ``ValueError``, never a default.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class ExampleEntry:
    """One example: its folder (a package), lessons, commands, facade names and ``run`` entry."""

    name: str
    title: str
    lessons: str
    package: str
    run: str | None = None
    """``module:function`` taking the arguments after ``run --example NAME``; None: no run."""
    commands: tuple[str, ...] = ()
    facade: tuple[str, ...] = ()
    services: tuple[tuple[str, str], ...] = ()
    """(service name, ``module:function``) pairs: a fresh MCP server of that service, built by
    ``function(name)`` (lesson 11's workbench runs the services a case names through these)."""


_ROOT: Final = "lessons_lib.examples"

EXAMPLES: Final[dict[str, ExampleEntry]] = {
    "files": ExampleEntry(
        "files",
        "read_text_file on the MCP file service, and its what-ifs",
        "01-11",
        f"{_ROOT}.files",
        commands=("serve", "whatif"),
        facade=(
            "compare_runs",
            "head_lab",
            "compare_head",
            "compare_tail",
            "head_view",
            "SCENARIOS",
            "run_scenario",
            "BAD_VALUES",
            "run_bad_value",
            "bad_values_table",
        ),
    ),
    "orders": ExampleEntry(
        "orders",
        "the order desk: many calls, failures, guardrails",
        "30-33",
        f"{_ROOT}.orders",
        run=f"{_ROOT}.orders.cli:main",
        services=(("orders", "lessons_lib.services.orders.service:fresh_server"),),
        commands=("verify-calls",),
        facade=(
            "create_database",
            "ORDER_TOOLS",
            "OrderDesk",
            "run_orders",
            "Guards",
            "SYSTEM_RULES",
            "Quirks",
            "order_scenarios",
            "run_order_scenario",
            "ledger_table",
            "TRACK",
            "INVESTIGATE",
            "execute_sql_demo",
            "acceptance_matrix",
            "rejecting_values",
            "EXECUTE_SQL_TOOL",
            "call_flow",
            "try_call_sabotages",
            "check_waybill_schema",
            "check_pairing",
            "check_intent_key",
            "check_confirm",
            "lookup_key",
            "cancel_notice",
            "intent_key",
            "sent_key",
            "run_finder",
        ),
    ),
    "openapi": ExampleEntry(
        "openapi",
        "from OpenAPI to tools: the order API, the router, three ways",
        "40-41",
        f"{_ROOT}.openapi",
        run=f"{_ROOT}.openapi.cli:main_run",
        commands=("openapi",),
        facade=(
            "run_three_ways",
            "choice_table",
            "openapi_document",
            "operations",
            "resolve",
            "flatten",
            "responses_tool",
            "chat_tool",
            "strict_report",
            "call_order_tool",
            "check_declaration",
        ),
    ),
    "mcp": ExampleEntry(
        "mcp",
        "MCP structure and one tools/call across three revisions",
        "42-44",
        f"{_ROOT}.mcp",
        commands=("mcp-revisions", "mcp-structure"),
        facade=(
            "tour_structure",
            "labelled",
            "record_revisions",
            "REVISIONS",
            "revision_table",
            "call_structured",
            "feedback_items",
        ),
    ),
    "evolve": ExampleEntry(
        "evolve",
        "tools that change, catalogues of many tools, tool output that gives orders",
        "50-52",
        f"{_ROOT}.evolve",
        commands=("tool-replay", "tool-catalogue", "injection"),
        facade=(
            "DESK_V1",
            "DESK_V1_1",
            "DESK_V2",
            "run_version",
            "fingerprint",
            "watch_upgrade",
            "load_baseline",
            "replay_version",
            "release_table",
            "acceptance_rows",
            "watch_table",
            "field_changes",
            "versioned_names",
            "ATTACK_TASK",
            "NOTES_DIR",
            "DEFENCES",
            "run_attack",
            "attack_table",
            "SIZES",
            "catalogue",
            "declared_catalogue",
            "token_count",
            "tokenizer_label",
            "input_tokens_request",
            "responses_allowed",
            "chat_allowed",
            "responses_deferred",
            "anthropic_search",
            "openai_shape_errors",
            "anthropic_type_errors",
            "SELECTION_TASKS",
            "route_domain",
            "search_tools",
            "shown",
            "selection_table",
            "misses",
            "live_choice",
        ),
    ),
}

PLUGINS_VARIABLE: Final = "LESSONS_LIB_EXAMPLES"


def register_example(entry: ExampleEntry) -> None:
    """Add an example (an example's own module calls this when it is imported)."""
    EXAMPLES[entry.name] = entry


def _load_plugins() -> None:
    for module in filter(None, (m.strip() for m in os.environ.get(PLUGINS_VARIABLE, "").split(","))):
        importlib.import_module(module)


def example_names() -> list[str]:
    """Every registered example, the course's first, then those registered by plug-ins."""
    _load_plugins()
    return list(EXAMPLES)


def example_entry(name: str) -> ExampleEntry:
    """The entry of example ``name``; an unknown name is a one-line ``ValueError``."""
    _load_plugins()
    entry = EXAMPLES.get(name)
    if entry is None:
        raise ValueError(f"unknown example '{name}'; known: {', '.join(EXAMPLES)}")
    return entry


def service_ref(service: str) -> str | None:
    """The ``module:function`` that builds a fresh server of ``service``, or None if no example has it."""
    for name in example_names():
        for known, ref in EXAMPLES[name].services:
            if known == service:
                return ref
    return None
