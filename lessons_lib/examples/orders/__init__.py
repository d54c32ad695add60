"""The order desk example: guardrails, the lab, acceptance, exercises and commands (lessons 30-33).

``ENTRY`` declares it to the kernel: ``run --example orders``, the ``verify-calls`` command, its
public names (the order desk service's among them), the names lessons 50-52 use, and the order desk
service it stands on. Each function below imports its module only when called.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from lessons_lib.core.plugins.exampleregistry import Command, ExampleEntry, public
from lessons_lib.services.orders import ENTRY as ORDERS


def _run_command(argv: Sequence[str]) -> int:
    from lessons_lib.examples.orders.cli import main

    return main(argv)


def _verify_calls(argv: Sequence[str]) -> int:
    from lessons_lib.examples.orders.cli import main_verify_calls

    return main_verify_calls(argv)


def _data() -> ModuleType:
    from lessons_lib.services.orders import data

    return data


def _tools() -> ModuleType:
    from lessons_lib.services.orders import tools

    return tools


def _service() -> ModuleType:
    from lessons_lib.services.orders import service

    return service


def _standin() -> ModuleType:
    from lessons_lib.services.orders import standin

    return standin


def _wiretext() -> ModuleType:
    from lessons_lib.services.orders import wiretext

    return wiretext


def _run() -> ModuleType:
    from lessons_lib.examples.orders import run

    return run


def _calllayer() -> ModuleType:
    from lessons_lib.examples.orders import calllayer

    return calllayer


def _finder() -> ModuleType:
    from lessons_lib.examples.orders import finder

    return finder


def _guards() -> ModuleType:
    from lessons_lib.examples.orders import guards

    return guards


def _lab() -> ModuleType:
    from lessons_lib.examples.orders import lab

    return lab


def _acceptance() -> ModuleType:
    from lessons_lib.examples.orders import acceptance

    return acceptance


def _callflow() -> ModuleType:
    from lessons_lib.examples.orders import callflow

    return callflow


def _reconcile() -> ModuleType:
    from lessons_lib.examples.orders import reconcile

    return reconcile


def _sabotage() -> ModuleType:
    from lessons_lib.examples.orders import sabotage

    return sabotage


def _exercises() -> ModuleType:
    from lessons_lib.examples.orders import exercises

    return exercises


ENTRY = ExampleEntry(
    "orders",
    "the order desk: many calls, failures, guardrails",
    "30-33",
    run=_run_command,
    commands=(
        Command(
            "verify-calls",
            _verify_calls,
            "check a many-call trace round by round and its pairing (lesson 31)",
            "verify-calls data/trace.json",
            "31",
            60,
        ),
    ),
    public=(
        public(_data, "create_database"),
        public(_tools, "ORDER_TOOLS"),
        public(_service, "OrderDesk"),
        public(_run, "run_orders"),
        public(_calllayer, "sent_key", "intent_key"),
        public(_finder, "run_finder"),
        public(_guards, "Guards", "SYSTEM_RULES"),
        public(_standin, "Quirks"),
        public(
            _lab,
            "order_scenarios",
            "run_order_scenario",
            "ledger_table",
            "TRACK",
            "execute_sql_demo",
            "EXECUTE_SQL_TOOL",
        ),
        public(_wiretext, "INVESTIGATE"),
        public(_acceptance, "acceptance_matrix", "rejecting_values"),
        public(_callflow, "call_flow"),
        public(_reconcile, "lookup_key", "cancel_notice"),
        public(_sabotage, "try_call_sabotages"),
        public(_exercises, "check_waybill_schema", "check_pairing", "check_intent_key", "check_confirm"),
    ),
    shared=(public(_calllayer, "with_key"), public(_lab, "scenario")),
    services=(ORDERS,),
)
