"""The MCP structure example: tools, resources, prompts, structured output, revisions (lessons 42-44).

``ENTRY`` declares it to the kernel: the ``mcp-revisions`` and ``mcp-structure`` commands and its
public names. Each function below imports its module only when called.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from lessons_lib.core.plugins.exampleregistry import Command, ExampleEntry, public


def _mcp_revisions(argv: Sequence[str]) -> int:
    from lessons_lib.examples.mcp.cli import main_revisions

    return main_revisions(argv)


def _mcp_structure(argv: Sequence[str]) -> int:
    from lessons_lib.examples.mcp.cli import main_structure

    return main_structure(argv)


def _structure() -> ModuleType:
    from lessons_lib.examples.mcp import structure

    return structure


def _revisions() -> ModuleType:
    from lessons_lib.examples.mcp import revisions

    return revisions


def _revisiontable() -> ModuleType:
    from lessons_lib.examples.mcp import revisiontable

    return revisiontable


def _structured() -> ModuleType:
    from lessons_lib.examples.mcp import structured

    return structured


ENTRY = ExampleEntry(
    "mcp",
    "MCP structure and one tools/call across three revisions",
    "42-44",
    commands=(
        Command(
            "mcp-revisions",
            _mcp_revisions,
            "one tools/call under MCP 2025-06-18, 2025-11-25 and 2026-07-28 (lesson 43)",
            "mcp-revisions --head 5",
            "43",
            140,
        ),
        Command(
            "mcp-structure",
            _mcp_structure,
            "tools, resources and prompts on one server, origins labelled (lesson 42)",
            "mcp-structure --lines 5",
            "42",
            150,
        ),
    ),
    public=(
        public(_structure, "tour_structure", "labelled"),
        public(_revisions, "record_revisions", "REVISIONS"),
        public(_revisiontable, "revision_table"),
        public(_structured, "call_structured", feedback_items="feedback_per_api"),
    ),
)
