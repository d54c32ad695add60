"""The order desk application: many calls per turn, two retry layers, guardrails. Lesson 31.

It builds on the host's parts (:mod:`lessons_lib.engine.execute`: services over real MCP
frames, aliases ``<service>__<tool>``; :mod:`lessons_lib.engine.adapters`: the Responses API
through the real SDK) and adds what seeds 001 and 003 ask of an application that may write:

- the calls of one reply run concurrently (``parallel=False`` runs them one by one and asks the
  model for one call per reply); feedback is paired by ``call_id``, in the calls' order;
- a write tool (the application's own list, never the MCP annotations) runs only after
  ``confirm`` said yes; a no becomes a ``declined`` tool error and nothing is written;
- a per-tool timeout (``Guards.timeouts``), a round limit with a fallback answer;
- tool-layer retry: a ``tools/call`` that failed with ``code: internal`` is sent again, same
  ``call_id``, same arguments (so the same idempotency key);
- model-layer retry: a model request answered with HTTP 5xx restarts the turn from the user's
  message, so the model proposes again with new call ids;
- every call lands in the trace's ``links`` with its ledger fields (lesson 31).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from contextlib import AsyncExitStack, closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import httpx2

    from lessons_lib.engine.screens import Screen

import anyio

from lessons_lib.checks.ledger import record_ledger
from lessons_lib.core import orderdata as od
from lessons_lib.core.example import SERVICE_NAME
from lessons_lib.core.jsonvalue import JSON, JSONObject
from lessons_lib.core.outcomes import make_outcome
from lessons_lib.core.paths import WORKSPACE_DIR
from lessons_lib.core.trace import Trace
from lessons_lib.core.tracetypes import Link, Status
from lessons_lib.engine._sync import run_sync
from lessons_lib.engine.adapters import (
    CallResult,
    JsonObject,
    ResponsesAdapter,
    Stop,
    ToolCall,
    marked,
    unreachable,
)
from lessons_lib.engine.execute import Route, Service, ServiceSpec, connect, parse_arguments, route_call
from lessons_lib.engine.host import Limits, _Run
from lessons_lib.engine.models import live_setting, make_http_client, offline_setting, redact
from lessons_lib.engine.offline_orders import LABEL, OrdersModel, Quirks
from lessons_lib.engine.orderdesk import DeskOptions, OrderDesk, build_server
from lessons_lib.engine.orderdesk_tools import SERVICE, WRITE_TOOLS
from lessons_lib.engine.orderguards import SYSTEM_RULES, Confirm, ConfirmRequest, Guards, as_confirm
from lessons_lib.engine.stops import model_timeout, round_limit, too_many_calls, total_timeout


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


class _OrdersAdapter(ResponsesAdapter):
    """Responses with the system rules as ``instructions`` and ``parallel_tool_calls``."""

    def __init__(self, parallel: bool, instructions: str | None) -> None:
        super().__init__()
        self.parallel, self.instructions = parallel, instructions

    async def send(self, model_input: list[JsonObject], tools: list[JsonObject], first: bool) -> None:
        import openai

        client = self._client
        assert isinstance(client, openai.AsyncOpenAI), "open() the adapter first"
        try:
            # The items are plain JSON checked by shape; the SDK types them as TypedDicts.
            await client.responses.create(
                model=self._model,
                input=model_input,  # type: ignore[arg-type]
                tools=tools,  # type: ignore[arg-type]
                parallel_tool_calls=self.parallel,
                instructions=self.instructions or openai.omit,
            )
        except openai.APITimeoutError:
            raise TimeoutError from None
        except openai.APIStatusError as exc:
            raise _ModelFailed(exc.status_code) from None
        except openai.APIConnectionError:
            raise unreachable("OPENAI_BASE_URL") from None


class _ModelFailed(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


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
    (nobody to ask: no write happens). Lessons 50-52: ``services``, ``standin`` (model), ``screen``.
    """
    guards = guards or Guards()
    path = Path(db_path) if db_path is not None else od.create_database()
    order_desk = OrderDesk(path, **(desk or {}))
    files: dict[str, ServiceSpec] = {SERVICE_NAME: WORKSPACE_DIR} if with_files else {}
    served = {SERVICE: lambda name: build_server(order_desk, name), **files, **(services or {})}
    setting = live_setting(model) if live else offline_setting(model)
    if setting is None:
        raise RuntimeError("live mode needs OPENAI_API_KEY; without it the course runs offline")
    info = setting.public()
    if not live:
        info["label"] = LABEL
    trace = Trace(task=task, model=info)
    run = OrdersRun(trace, path)
    rec = _Run(trace, setting, Limits(max_rounds=guards.max_rounds, call_timeout=guards.call_timeout))
    adapter = _OrdersAdapter(parallel, instructions)
    transport = None if live else (standin or OrdersModel(quirks=quirks or Quirks()))
    with anyio.move_on_after(guards.total_timeout) as scope:
        try:
            await _loop(run, rec, adapter, served, transport, guards, as_confirm(confirm), screen)
        except* Stop as group:
            stop = _first(group)
            status: Status = "error" if stop.status == "error" else "stopped"
            trace.outcome = make_outcome(
                status, redact(stop.reason, setting.key), redact(stop.text, setting.key)
            )
    if scope.cancelled_caught:
        trace.outcome = total_timeout(guards.total_timeout)
    record_ledger(trace)
    return run


async def _loop(
    run: OrdersRun,
    rec: _Run,
    adapter: _OrdersAdapter,
    services: Mapping[str, ServiceSpec],
    transport: httpx2.AsyncBaseTransport | None,
    guards: Guards,
    confirm: Confirm,
    screen: Screen | None = None,
) -> None:
    trace = run.trace
    async with AsyncExitStack() as stack:
        connected, declared = await connect(stack, services, trace)
        routes = {d.alias: Route(d.alias, d.service, d.tool) for d in declared}
        trace.tools.extend({"alias": d.alias, "service": d.service, "name": d.tool} for d in declared)
        tools = adapter.declare(declared)
        tools = screen.declare(trace.task, tools) if screen is not None else tools
        http = await stack.enter_async_context(make_http_client(rec.on_body, transport, guards.call_timeout))
        adapter.open(rec.setting, http, guards.call_timeout)
        rec.model_input = adapter.first_input(trace.task)
        model_retries = 0
        while True:
            if rec.rounds >= guards.max_rounds:
                trace.answer = guards.fallback
                raise round_limit(guards.max_rounds, fallback=True)
            try:
                with anyio.fail_after(guards.call_timeout):
                    await adapter.send(rec.model_input, tools, first=rec.rounds == 0)
            except TimeoutError:
                raise model_timeout(guards.call_timeout) from None
            except _ModelFailed as failed:
                if failed.status < 500 or model_retries >= guards.model_retries:
                    raise Stop(
                        "error",
                        f"the model API answered HTTP {failed.status}",
                        f"模型接口回答了 HTTP {failed.status}",
                    ) from None
                model_retries += 1  # model layer: ask again from the user's message; new call ids
                rec.model_input = adapter.first_input(trace.task)
                continue
            reply = adapter.read(rec.body)
            if not reply.calls:
                trace.answer = reply.text
                trace.outcome = make_outcome(
                    "answered",
                    f"the model answered in round {rec.rounds}",
                    f"模型在第 {rec.rounds} 轮作了答复",
                )
                return
            if len(reply.calls) > guards.max_calls:
                raise too_many_calls(rec.rounds, len(reply.calls), "Guards.max_calls", guards.max_calls)
            ids = [c.call_id for c in reply.calls]
            if None in ids or len(set(ids)) != len(ids):
                raise Stop(
                    "error",
                    f"response_{rec.rounds} has a call without a call_id, or one twice; nothing ran",
                    f"response_{rec.rounds} 里有调用缺少 call_id 或重复了 call_id，无法配对，什么也没有执行",
                )
            started = time.perf_counter()
            results = await _execute_all(
                run, reply.calls, routes, connected, guards, confirm, adapter.parallel, screen
            )
            run.turn_seconds.append(time.perf_counter() - started)
            items = [adapter.feedback_item(r) for r in results]
            rec.model_input = adapter.next_input(rec.model_input, rec.body, items)


async def _execute_all(
    run: OrdersRun,
    calls: tuple[ToolCall, ...],
    routes: Mapping[str, Route],
    services: Mapping[str, Service],
    guards: Guards,
    confirm: Confirm,
    parallel: bool,
    screen: Screen | None = None,
) -> list[CallResult]:
    """Ask for writes first (one question at a time), then run the calls; results in call order."""
    links = [_new_link(run.trace, c) for c in calls]
    refused = [screen.refuse(run.trace.task, c) if screen else None for c in calls]  # lesson 52
    allowed = [r is None and _allowed(run, c, routes, confirm) for c, r in zip(calls, refused, strict=True)]
    results: list[CallResult | None] = [None] * len(calls)
    sending = anyio.Lock()  # requests leave in the calls' order; replies may overlap

    async def one(n: int) -> None:
        if refused[n] is not None:
            results[n] = refused[n]
        elif not allowed[n]:
            results[n] = _declined(calls[n])
        else:
            results[n] = await _execute(calls[n], routes, services, guards, links[n], sending)

    if parallel:
        async with anyio.create_task_group() as tg:
            for n in range(len(calls)):
                tg.start_soon(one, n)
    else:
        for n in range(len(calls)):
            await one(n)
    return [screen.result(r) if screen else r for r in results if r is not None]


def _allowed(run: OrdersRun, call: ToolCall, routes: Mapping[str, Route], confirm: Confirm) -> bool:
    route = routes.get(call.name)
    if route is None or route.tool not in WRITE_TOOLS:
        return True
    args, _ = parse_arguments(call.arguments)
    request = ConfirmRequest(str(call.call_id), call.name, dict(args or {}), _hints(run.trace, route))
    run.asked.append(request)
    return bool(confirm(request))


async def _execute(
    call: ToolCall,
    routes: Mapping[str, Route],
    services: Mapping[str, Service],
    guards: Guards,
    link: JSONObject,
    sending: anyio.Lock,
) -> CallResult:
    routed = route_call(call, routes, link)
    if isinstance(routed, CallResult):
        return routed
    route, args = routed
    timeout = guards.timeouts.get(call.name, guards.call_timeout)
    attempts: list[JSON] = []
    for _ in range(1 + guards.tool_retries):
        output, is_error = await services[route.service].call(
            route.tool, args, timeout, cast(Link, link), sending
        )
        attempts.append(link["mcp_id"])
        if not (is_error and '"code": "internal"' in output):
            break  # tool layer: only an internal failure is sent again (same call_id, same key)
    link["attempts"] = attempts
    return CallResult(call, output, is_error)


def _declined(call: ToolCall) -> CallResult:
    error = {"code": "declined", "message": "the user did not confirm this write; nothing was written"}
    text = json.dumps({"status": "error", "error": error}, ensure_ascii=False)
    return CallResult(call, marked(text, True), True)


def _new_link(trace: Trace, call: ToolCall) -> JSONObject:
    link: JSONObject = {
        "call_id": call.call_id,
        "alias": call.name,
        "service": None,
        "tool": None,
        "mcp_id": None,
    }
    trace.links.append(cast(Link, link))  # the same dict: the ledger fields are added to it later
    return link


def _hints(trace: Trace, route: Route) -> dict[str, object]:
    """The tool's annotations as the service listed them (a claim, for display only)."""
    from lessons_lib.core import queries

    hints = (queries.mcp_tool(trace, route.tool, route.service) or {}).get("annotations")
    return dict(hints) if isinstance(hints, dict) else {}


def _first(exc: BaseException) -> Stop:
    while isinstance(exc, BaseExceptionGroup):
        exc = exc.exceptions[0]
    assert isinstance(exc, Stop)
    return exc


def run_orders(task: str, **kwargs: Any) -> OrdersRun:
    """Run one order-desk task (offline by default) and return the run. Lesson 31.

    Works in a script and inside Jupyter; the keyword options are those of :func:`arun_orders`.
    """

    async def main() -> OrdersRun:
        return await arun_orders(task, **kwargs)

    return run_sync(main)
