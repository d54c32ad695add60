"""Command-line dispatcher: ``python -m lessons_lib COMMAND [ARGS]``.

Each command lives in the module that does the work and exposes ``main(argv) -> int``;
this file only maps names to those functions and loads them lazily, so ``--help`` is fast.
Exit codes: 0 success, 1 a check failed or the run did not reach an answer, 2 bad input.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

# name -> (module, function, one-line help). Lesson numbers say where each is introduced.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "serve": ("lessons_lib.stdio_server", "main", "run the read_text_file MCP server over stdio"),
    "run": ("lessons_lib.run_cli", "main", "run the whole chain once and print each step (or --json)"),
    "record": ("lessons_lib.record", "main", "re-record the fixtures in data/ from an offline run"),
    "verify-fields": ("lessons_lib.verify", "main_fields", "check field fragments offline (lesson 07)"),
    "verify-roundtrip": (
        "lessons_lib.verify",
        "main_roundtrip",
        "check a two-round exchange offline (lesson 07)",
    ),
    "diagnose": ("lessons_lib.doctor", "main", "name the first broken link of a trace (lesson 08)"),
    "tree": ("lessons_lib.fieldtree", "main", "print a message as a field tree, or export HTML"),
    "diagram": ("lessons_lib.diagrams", "main", "draw the actors, loop, chain or trace diagram"),
    "whatif": ("lessons_lib.whatif", "main", "compare two runs field by field (head 20 vs 5)"),
    "refresh": ("lessons_lib.refresh", "main", "re-run the notebooks and store their outputs (maintainers)"),
}


def _usage() -> str:
    width = max(len(n) for n in COMMANDS)
    lines = ["usage: python -m lessons_lib COMMAND [ARGS]", "", "commands:"]
    lines += [f"  {name.ljust(width)}  {help_}" for name, (_, _, help_) in COMMANDS.items()]
    lines += ["", "Run 'python -m lessons_lib COMMAND --help' for a command's options."]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch to a command; print usage for no or an unknown command."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in {"-h", "--help"}:
        print(_usage())
        return 0 if args else 2
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"lessons_lib: unknown command {name!r}.\n\n{_usage()}", file=sys.stderr)
        return 2
    module, func, _ = COMMANDS[name]
    try:
        return int(getattr(importlib.import_module(module), func)(rest) or 0)
    except KeyboardInterrupt:
        print("lessons_lib: interrupted.", file=sys.stderr)
        return 130
