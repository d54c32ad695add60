"""Command-line dispatcher: ``python -m lessons_lib COMMAND [ARGS]`` (lesson 10 lists them).

Each command lives in the module that does the work and exposes ``main(argv) -> int``; the
table (:func:`~lessons_lib.core.plugins.commands.command_table`: the kernel's commands and each
example's, from its entry) loads them lazily, so ``--help`` is fast.
Exit codes: 0 success, 1 a check failed or the run did not reach an answer, 2 bad input.
A reader that closes the pipe early (``run | head``) ends the command quietly (exit 1, no
BrokenPipe traceback); ``--version`` prints the package's version.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from lessons_lib.cli.console import safe_streams
from lessons_lib.core.plugins.apiregistry import apis
from lessons_lib.core.plugins.commands import command_table
from lessons_lib.core.plugins.serviceregistry import service_entries


def _usage() -> str:
    table = command_table()
    width = max(len(n) for n in table)
    lines = ["usage: python -m lessons_lib [--lang en|zh] COMMAND [ARGS]", "", "commands:"]
    lines += [f"  {name.ljust(width)}  {command.help}" for name, command in table.items()]
    lines += ["", "Run 'python -m lessons_lib COMMAND --help' for a command's options."]
    lines += ["--version: print the version of lessons_lib."]
    lines += ["--lang: the learner's language (default: LESSONS_LANG, else zh)."]
    return "\n".join(lines)


def _take_language(args: list[str]) -> tuple[list[str], str]:
    """Remove ``--lang en|zh`` (anywhere); the command's language: ``--lang``, else LESSONS_LANG, else
    the one in force (a cell of an English lesson: English; a console: Chinese)."""
    from lessons_lib.core.messages import ENV_VAR, LANGUAGES, language

    chosen, rest, i = None, [], 0
    while i < len(args):
        if args[i] == "--lang":
            if i + 1 >= len(args):
                raise ValueError("--lang needs a value: en or zh")
            chosen, i = args[i + 1], i + 2
            continue
        if args[i].startswith("--lang="):
            chosen = args[i].partition("=")[2]
        else:
            rest.append(args[i])
        i += 1
    env = os.environ.get(ENV_VAR, "").strip()
    lang, where = (chosen, "--lang") if chosen is not None else (env, ENV_VAR) if env else (language(), "")
    if lang.strip().lower() not in LANGUAGES:
        raise ValueError(f"{where} {lang!r} is not a language of the course: use en or zh")
    return rest, lang


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch to a command; print usage for no or an unknown command."""
    safe_streams()  # the console policy (README, "Platforms"): never fail on the console's encoding
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in {"-V", "--version"}:
        print(f"lessons_lib {_version()}")
        return 0
    try:  # find the plug-ins first: one named in LESSONS_LIB_* that is missing is one line, never a traceback
        command_table(), apis(), service_entries()
    except ValueError as exc:
        print(f"lessons_lib: {exc}", file=sys.stderr)
        return 2
    if not args or args[0] in {"-h", "--help"}:
        print(_usage())
        return 0 if args else 2
    try:
        args, lang = _take_language(args)
    except ValueError as exc:
        print(f"lessons_lib: {exc}", file=sys.stderr)
        return 2
    from lessons_lib.core.messages import speaking

    try:
        with speaking(lang):  # called from a notebook cell, it leaves the notebook's language alone
            code = _dispatch(args)
            sys.stdout.flush()
            return code
    except BrokenPipeError:
        return _reader_gone()


def _version() -> str:
    """The package's version: its own ``__version__`` (the package is loaded before its ``cli``)."""
    return str(getattr(sys.modules[__name__.partition(".")[0]], "__version__", "unknown"))


def _reader_gone() -> int:
    """The reader of stdout closed it (``run | head``): stop quietly, as ``cat`` does.

    Python would report the same error again when it flushes stdout at exit, so stdout is pointed
    at the null device first (the recipe of Python's ``signal`` documentation; ``os.devnull``
    exists on every platform).
    """
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file behind stdout (a notebook)
        pass
    return 1


def _dispatch(args: list[str]) -> int:
    if not args:
        print(_usage())
        return 2
    name, rest = args[0], args[1:]
    command = command_table().get(name)
    if command is None:
        print(f"lessons_lib: unknown command {name!r}.\n\n{_usage()}", file=sys.stderr)
        return 2
    try:
        return int(command.main(rest) or 0)
    except KeyboardInterrupt:
        print("lessons_lib: interrupted.", file=sys.stderr)
        return 130
