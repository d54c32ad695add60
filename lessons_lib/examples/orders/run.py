"""The order desk's runs: many calls per turn, two retry layers, guardrails. Lesson 31.

There is one application loop (:mod:`lessons_lib.engine.host`); the order desk runs through it
with a :class:`~lessons_lib.engine.policy.Policy` that adds what seeds 001 and 003 ask of an
application that may write, so the key cleaning, the caps and the one-line failures of every
run hold here too:

- the calls of one reply run concurrently (``parallel=False`` runs them one by one and asks the
  model for one call per reply); feedback is paired by ``call_id``, in the calls' order;
- two writes to the same order in one reply: only the first may run, the others get a
  ``conflict`` tool error (:mod:`~lessons_lib.examples.orders.coordinate`, lesson 31);
- a write tool (the application's own list, never the MCP annotations) runs only after
  ``confirm`` said yes; a no becomes a ``declined`` tool error and nothing is written;
- a per-tool timeout (``Guards.timeouts``), a round limit with a fallback answer;
- the call layer (:mod:`~lessons_lib.examples.orders.calllayer`) computes a write's idempotency
  key from its intent and adds it before ``tools/call``: the model is never declared that field;
- tool-layer retry: a ``tools/call`` that failed with ``code: internal`` is sent again, same
  ``call_id``, same arguments (so the same idempotency key);
- model-layer retry: a model request answered with HTTP 5xx restarts the turn from the user's
  message, so the model proposes again with new call ids;
- every call lands in the trace's ``links`` with its ledger fields (lesson 31).
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, Unpack

import lessons_lib.services.orders.data as od
from lessons_lib.checks.ledger import ledger
from lessons_lib.core.example import SERVICE_NAME
from lessons_lib.core.paths import WORKSPACE_DIR
from lessons_lib.core.plugins.apitypes import ToolCall
from lessons_lib.core.traces import queries
from lessons_lib.core.traces.trace import Trace
from lessons_lib.engine.execute import ServiceSpec, parse_arguments
from lessons_lib.engine.host import Limits, arun_chain
from lessons_lib.engine.policy import Policy, confirm_gate, gates, screen_gate
from lessons_lib.engine.runsync import run_sync
from lessons_lib.examples.orders.calllayer import IntentKeys
from lessons_lib.examples.orders.coordinate import one_write_per_order
from lessons_lib.examples.orders.guards import SYSTEM_RULES, Confirm, ConfirmRequest, Guards, as_confirm
from lessons_lib.services.orders.service import DeskOptions, OrderDesk, build_server
from lessons_lib.services.orders.standin import OrdersModel, Quirks, label
from lessons_lib.services.orders.tools import SERVICE, WRITE_TOOLS

if TYPE_CHECKING:
    import httpx2

    from lessons_lib.engine.screens import Screen


@dataclass
class OrdersRun:
    """One run of the order desk: its trace, its database file, the confirmations asked."""

    trace: Trace
    db_path: Path
    asked: list[ConfirmRequest] = field(default_factory=list)
    turn_seconds: list[float] = field(default_factory=list)
    """Wall time of each round's tool calls (measured, so never shown in a stored output)."""

    def rows(self, order_id: str | None = None) -> int:
        """Investigation rows in the database now (lesson 32 counts them)."""
        with closing(od.connect(self.db_path)) as conn:
            return od.count_investigations(conn, order_id)


class RunOptions(TypedDict, total=False):
    """The keyword options of :func:`arun_orders` (and :func:`run_orders`), each optional."""

    db_path: str | Path | None
    desk: DeskOptions | None
    confirm: Confirm | bool | None
    guards: Guards | None
    quirks: Quirks | None
    parallel: bool
    instructions: str | None
    with_files: bool
    live: bool
    model: str | None
    services: Mapping[str, ServiceSpec] | None
    standin: httpx2.AsyncBaseTransport | None
    screen: Screen | None


async def arun_orders(
    task: str,
    *,
    db_path: str | Path | None = None,
    desk: DeskOptions | None = None,
    confirm: Confirm | bool | None = None,
    guards: Guards | None = None,
    quirks: Quirks | None = None,
    parallel: bool = True,
    instructions: str | None = SYSTEM_RULES,
    with_files: bool = True,
    live: bool = False,
    model: str | None = None,
    services: Mapping[str, ServiceSpec] | None = None,
    standin: httpx2.AsyncBaseTransport | None = None,
    screen: Screen | None = None,
) -> OrdersRun:
    """Run one order-desk task and return the run (async form of :func:`run_orders`).

    ``db_path``: an existing database (default: a fresh one from the seed). ``desk``: keyword
    options of :class:`OrderDesk` (``delays``, ``faults``, ``idempotency_key``...).
    ``confirm``: the user's answer to a write, a function of :class:`ConfirmRequest`, or None
    (nobody to ask: no write happens). Lessons 50-52: ``services`` (merged over the desk and the
    file service), ``standin`` (the offline model), ``screen`` (the application's filter).
    """
    guards = guards or Guards()
    path = Path(db_path) if db_path is not None else od.create_database()
    order_desk = OrderDesk(path, **(desk or {}))
    served: dict[str, ServiceSpec] = {SERVICE: lambda name: build_server(order_desk, name)}
    if with_files:
        served[SERVICE_NAME] = WORKSPACE_DIR
    served.update(services or {})
    asked: list[ConfirmRequest] = []
    turn_seconds: list[float] = []
    answer = as_confirm(confirm)

    def allow(call: ToolCall, service: str, tool: str, trace: Trace) -> bool:
        if tool not in WRITE_TOOLS:
            return True
        args, _ = parse_arguments(call.arguments)
        request = ConfirmRequest(str(call.call_id), call.name, dict(args or {}), _hints(trace, service, tool))
        asked.append(request)
        return bool(answer(request))

    policy = Policy(
        parallel=parallel,
        settings={"tool_choice": None, "parallel_tool_calls": parallel, "instructions": instructions},
        gate=gates(screen_gate(screen) if screen is not None else None, confirm_gate(allow)),
        timeouts=guards.timeouts,
        tool_retries=guards.tool_retries,
        retryable=lambda output: '"code": "internal"' in output,  # only an internal failure
        model_retries=guards.model_retries,
        fallback=guards.fallback,
        standin=(lambda: standin)
        if standin is not None
        else (lambda: OrdersModel(quirks=quirks or Quirks())),
        label=label(),
        finish=write_ledger,
        turn_seconds=turn_seconds,
        screen=screen,
        calls=IntentKeys(),  # the key comes from the intent, never from the model (lesson 32)
        coordinate=one_write_per_order,  # two writes to one order in one reply: the second is refused
    )
    limits = Limits(
        max_rounds=guards.max_rounds,
        call_timeout=guards.call_timeout,
        total_timeout=guards.total_timeout,
        max_calls=guards.max_calls,
    )
    trace = await arun_chain(task, services=served, live=live, model=model, limits=limits, policy=policy)
    return OrdersRun(trace, path, asked, turn_seconds)


def write_ledger(trace: Trace) -> None:
    """Write each call's ledger fields into its link (the trace is what keeps them). Lesson 31."""
    rows = {r.call_id: r for r in ledger(trace)}
    for link in trace.links:
        row = rows.get(str(link.get("call_id")))
        if row is not None:
            link["round"], link["arguments"] = row.round, row.arguments
            link["status"], link["result"] = row.status, row.result


def _hints(trace: Trace, service: str, tool: str) -> dict[str, object]:
    """The tool's annotations as the service listed them (a claim, for display only)."""
    hints = (queries.mcp_tool(trace, tool, service) or {}).get("annotations")
    return dict(hints) if isinstance(hints, dict) else {}


def run_orders(task: str, **kwargs: Unpack[RunOptions]) -> OrdersRun:
    """Run one order-desk task (offline by default) and return the run. Lesson 31.

    Works in a script and inside Jupyter; the keyword options are those of :func:`arun_orders`.
    """

    async def main() -> OrdersRun:
        return await arun_orders(task, **kwargs)

    return run_sync(main)
