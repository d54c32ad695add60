"""The OpenAPI example: the order HTTP API, generated tools, the router, three ways (lessons 40-41).

``ENTRY`` declares it to the kernel: ``run --example openapi``, the ``openapi`` command, its public
names and the order desk service behind its HTTP API. Each function below imports its module only
when called.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from lessons_lib.core.plugins.exampleregistry import Command, ExampleEntry, public
from lessons_lib.services.orders import ENTRY as ORDERS


def _run_command(argv: Sequence[str]) -> int:
    from lessons_lib.examples.openapi.cli import main_run

    return main_run(argv)


def _openapi(argv: Sequence[str]) -> int:
    from lessons_lib.examples.openapi.cli import main

    return main(argv)


def _threeways() -> ModuleType:
    from lessons_lib.examples.openapi import threeways

    return threeways


def _choices() -> ModuleType:
    from lessons_lib.examples.openapi import choices

    return choices


def _app() -> ModuleType:
    from lessons_lib.examples.openapi import app

    return app


def _tools() -> ModuleType:
    from lessons_lib.examples.openapi import tools

    return tools


def _router() -> ModuleType:
    from lessons_lib.examples.openapi import router

    return router


def _exercise() -> ModuleType:
    from lessons_lib.examples.openapi import exercise

    return exercise


ENTRY = ExampleEntry(
    "openapi",
    "from OpenAPI to tools: the order API, the router, three ways",
    "40-41",
    run=_run_command,
    commands=(
        Command(
            "openapi",
            _openapi,
            "the order API: document, generated tools, a routed call, three ways (lessons 40-41)",
            "openapi tools --report",
            "41",
            160,
        ),
    ),
    public=(
        public(_threeways, "run_three_ways"),
        public(_choices, "choice_table"),
        public(_app, "openapi_document"),
        public(_tools, "operations", "resolve", "flatten", "responses_tool", "chat_tool", "strict_report"),
        public(_router, "call_order_tool"),
        public(_exercise, "check_declaration"),
    ),
    services=(ORDERS,),
)
