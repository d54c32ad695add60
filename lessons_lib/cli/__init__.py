"""Command-line dispatcher: ``python -m lessons_lib COMMAND [ARGS]``.

Each command lives in the module that does the work and exposes ``main(argv) -> int``;
this file only maps names to those functions and loads them lazily, so ``--help`` is fast.
Exit codes: 0 success, 1 a check failed or the run did not reach an answer, 2 bad input.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

from lessons_lib.cli.console import safe_streams
from lessons_lib.core.commands import COMMANDS


def _usage() -> str:
    width = max(len(n) for n in COMMANDS)
    lines = ["usage: python -m lessons_lib COMMAND [ARGS]", "", "commands:"]
    lines += [f"  {name.ljust(width)}  {help_}" for name, (_, _, help_) in COMMANDS.items()]
    lines += ["", "Run 'python -m lessons_lib COMMAND --help' for a command's options."]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch to a command; print usage for no or an unknown command."""
    safe_streams()  # the console policy (README, "Platforms"): never fail on the console's encoding
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
