"""The read_text_file example: what-ifs, scenarios, bad values, widgets and commands (lessons 01-11).

``ENTRY`` declares it to the kernel: the ``serve`` and ``whatif`` commands, its public names (the
file service's among them) and the file service it stands on. Each function below imports its
module only when called, so finding the entry stays cheap.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from lessons_lib.core.plugins.exampleregistry import Command, ExampleEntry, public
from lessons_lib.services.files import ENTRY as FILES


def _serve(argv: Sequence[str]) -> int:
    from lessons_lib.examples.files.cli_serve import main

    return main(argv)


def _whatif_command(argv: Sequence[str]) -> int:
    from lessons_lib.examples.files.cli_whatif import main

    return main(argv)


def _service() -> ModuleType:
    from lessons_lib.services.files import service

    return service


def _whatif() -> ModuleType:
    from lessons_lib.examples.files import whatif

    return whatif


def _widgets() -> ModuleType:
    from lessons_lib.examples.files import widgets

    return widgets


def _scenarios() -> ModuleType:
    from lessons_lib.examples.files import scenarios

    return scenarios


def _badvalues() -> ModuleType:
    from lessons_lib.examples.files import badvalues

    return badvalues


ENTRY = ExampleEntry(
    "files",
    "read_text_file on the MCP file service, and its what-ifs",
    "01-11",
    commands=(
        Command(
            "serve",
            _serve,
            "run the read_text_file MCP server over stdio (--http: Streamable HTTP)",
            "serve",
            "04",
            10,
        ),
        Command(
            "whatif",
            _whatif_command,
            "compare two runs field by field (head 20 vs 5)",
            "whatif --head 20 --vs 5 --changed",
            "09",
            100,
        ),
    ),
    public=(
        public(_service, "FileService", "build_server", "read_text_file", "service_reads", "INPUT_SCHEMA"),
        public(_whatif, "compare_runs", "compare_head", "compare_tail"),
        public(_widgets, "head_lab", "head_view"),
        public(_scenarios, "SCENARIOS", "run_scenario"),
        public(_badvalues, "BAD_VALUES", "run_bad_value", "bad_values_table"),
    ),
    services=(FILES,),
)
