"""The command table of ``python -m lessons_lib``: pure data, read by the dispatcher and lesson 10."""

from __future__ import annotations

# name -> (module, function, one-line help). Lesson numbers say where each is introduced.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "serve": (
        "lessons_lib.examples.files.cli_serve",
        "main",
        "run the read_text_file MCP server over stdio (--http: Streamable HTTP)",
    ),
    "run": ("lessons_lib.cli.run", "main", "run the whole chain once and print each step (or --json)"),
    "record": ("lessons_lib.cli.record", "main", "re-record the fixtures in data/ from an offline run"),
    "verify-fields": (
        "lessons_lib.cli.checks",
        "main_fields",
        "check field fragments offline (lesson 07)",
    ),
    "verify-roundtrip": (
        "lessons_lib.cli.checks",
        "main_roundtrip",
        "check a two-round exchange offline (lesson 07)",
    ),
    "verify-calls": (
        "lessons_lib.examples.orders.cli",
        "main_verify_calls",
        "check a many-call trace round by round and its pairing (lesson 31)",
    ),
    "diagnose": (
        "lessons_lib.cli.checks",
        "main_diagnose",
        "name the first broken link of a trace (lesson 08)",
    ),
    "tree": ("lessons_lib.cli.tree", "main", "print a message as a field tree, or export HTML"),
    "diagram": ("lessons_lib.cli.diagram", "main", "draw the actors, loop, chain or trace diagram"),
    "whatif": (
        "lessons_lib.examples.files.cli_whatif",
        "main",
        "compare two runs field by field (head 20 vs 5)",
    ),
    "grade": ("lessons_lib.cli.grade", "main", "grade a learner's application loop offline (lesson 11)"),
    "grade-server": (
        "lessons_lib.cli.grade_server",
        "main",
        "grade a learner's search_notes MCP server over stdio (lesson 12)",
    ),
    "conformance": (
        "lessons_lib.cli.conformance",
        "main",
        "the official MCP conformance suite on a served example over HTTP (lesson 62)",
    ),
    "mcp-revisions": (
        "lessons_lib.examples.mcp.cli",
        "main_revisions",
        "one tools/call under MCP 2025-06-18, 2025-11-25 and 2026-07-28 (lesson 43)",
    ),
    "mcp-structure": (
        "lessons_lib.examples.mcp.cli",
        "main_structure",
        "tools, resources and prompts on one server, origins labelled (lesson 42)",
    ),
    "openapi": (
        "lessons_lib.examples.openapi.cli",
        "main",
        "the order API: document, generated tools, a routed call, three ways (lessons 40-41)",
    ),
    "tool-replay": (
        "lessons_lib.examples.evolve.cli",
        "main_replay",
        "replay the order desk's recorded tasks against another tool version and compare (lesson 50)",
    ),
    "tool-catalogue": (
        "lessons_lib.examples.evolve.cli",
        "main_catalogue",
        "a generated catalogue of many tools: declaration tokens and selection per way (lesson 51)",
    ),
    "injection": (
        "lessons_lib.examples.evolve.cli",
        "main_injection",
        "instructions inside a tool's output: the attack with and without each defence (lesson 52)",
    ),
    "trust": (
        "lessons_lib.cli.trust",
        "main",
        "trust the lessons' stored outputs so JupyterLab shows their diagrams before a run (lesson 00)",
    ),
    "refresh": (
        "lessons_lib.cli.refresh",
        "main",
        "re-run the notebooks and store their outputs (maintainers)",
    ),
    "edition": (
        "lessons_lib.cli.edition",
        "main",
        "build the English edition from the translation store, or list what is missing (maintainers)",
    ),
}


EXIT_CODES = "Exit codes: 0 success, 1 a check failed or the run did not reach an answer, 2 bad input."


def command_help(name: str) -> str:
    """The ``--help`` description of a command: its line in the table and the exit codes."""
    line = COMMANDS[name][2]
    return f"{line[0].upper()}{line[1:]}. {EXIT_CODES}"
