"""The command table of ``python -m lessons_lib``, read by the dispatcher and lesson 10's cheat sheet.

The kernel's own commands are listed here (their modules are imported when one runs); each
example adds its own through its entry (:class:`~lessons_lib.core.plugins.exampleregistry.Command`),
so :func:`command_table` is the kernel's rows and every example's, in the order of their ``order``.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from lessons_lib.core.plugins.exampleregistry import Command, Main, example_entries


def _kernel(target: str) -> Main:
    """A command of the kernel's command line, ``module:function``, imported when it runs."""
    module, _, function = target.partition(":")

    def main(argv: Sequence[str]) -> int | None:
        return getattr(importlib.import_module(f"lessons_lib.cli.{module}"), function)(argv)

    main.__qualname__ = main.__name__ = f"{module}.{function}"
    return main


# the kernel's commands; lesson numbers say where each is introduced
KERNEL: tuple[Command, ...] = (
    Command(
        "run",
        _kernel("run:main"),
        "run the whole chain once and print each step (or --json)",
        "run --head 5",
        "03",
        20,
    ),
    Command(
        "record",
        _kernel("record:main"),
        "re-record the fixtures in data/ from an offline run",
        "record",
        "06",
        30,
    ),
    Command(
        "verify-fields",
        _kernel("checks:main_fields"),
        "check field fragments offline (lesson 07)",
        "verify-fields",
        "07",
        40,
    ),
    Command(
        "verify-roundtrip",
        _kernel("checks:main_roundtrip"),
        "check a two-round exchange offline (lesson 07)",
        "verify-roundtrip",
        "07",
        50,
    ),
    Command(
        "diagnose",
        _kernel("checks:main_diagnose"),
        "name the first broken link of a trace (lesson 08)",
        "diagnose data/trace.json",
        "08",
        70,
    ),
    Command(
        "tree",
        _kernel("tree:main"),
        "print a message as a field tree, or export HTML",
        "tree response_1 --highlight output[0].arguments",
        "03",
        80,
    ),
    Command(
        "diagram",
        _kernel("diagram:main"),
        "draw the actors, loop, chain or trace diagram",
        "diagram loop",
        "01",
        90,
    ),
    Command(
        "grade",
        _kernel("grade:main"),
        "grade a learner's application loop offline (lesson 11)",
        "grade notebooks/11_write_the_loop.ipynb --cells solution",
        "11",
        110,
    ),
    Command(
        "grade-server",
        _kernel("grade_server:main"),
        "grade a learner's search_notes MCP server over stdio (lesson 12)",
        "grade-server lessons_lib/services/notes/server.py",
        "12",
        120,
    ),
    Command(
        "conformance",
        _kernel("conformance:main"),
        "the official MCP conformance suite on a served example over HTTP (lesson 62)",
        "conformance server --example notes",
        "62",
        130,
    ),
    Command(
        "trust",
        _kernel("trust:main"),
        "trust the lessons' stored outputs so JupyterLab shows their diagrams before a run (lesson 00)",
        "trust",
        "00",
        200,
    ),
    Command(
        "refresh",
        _kernel("refresh:main"),
        "re-run the notebooks and store their outputs (maintainers)",
        "refresh",
        "00",
        210,
    ),
    Command(
        "edition",
        _kernel("edition:main"),
        "build the English edition from the translation store, or list what is missing (maintainers)",
        "edition en status",
        "00",
        220,
    ),
)


def command_table() -> dict[str, Command]:
    """Every command, the kernel's and the examples', in the order of ``order`` (then as found).

    Two commands with one name are a one-line ``ValueError``."""
    rows = [*KERNEL, *(c for entry in example_entries() for c in entry.commands)]
    table: dict[str, Command] = {}
    for row in sorted(rows, key=lambda c: c.order):
        if row.name in table:
            raise ValueError(f"two commands are called '{row.name}'")
        table[row.name] = row
    return table


EXIT_CODES = "Exit codes: 0 success, 1 a check failed or the run did not reach an answer, 2 bad input."


def command_help(name: str) -> str:
    """The ``--help`` description of a command: its line in the table and the exit codes."""
    line = command_table()[name].help
    return f"{line[0].upper()}{line[1:]}. {EXIT_CODES}"
