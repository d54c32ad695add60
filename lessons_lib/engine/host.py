"""The application (host): declaration -> call -> execution -> feedback, as one loop.

Introduced in lesson 03. It connects to each MCP service (``services``: name -> folder or
server factory), lists its tools and declares each to the model under an alias
``<service>__<tool>``; sends the task; reads the tool calls of each reply; checks that every
call can be paired (a ``call_id``, none twice) and that the reply stays under
``Limits.max_calls``; runs the calls concurrently over MCP ``tools/call``; turns each result
(success or failure) into one feedback item paired by ``call_id``, in the order of the calls;
then asks the model again with the earlier input, the model's output and the feedback.

What is specific to one model API (tool declarations, the SDK call, the shapes of calls,
feedback and answer) sits in an adapter (:mod:`lessons_lib.engine.adapters`), chosen by
``api``. The host keeps its own state (the round, the latest reply body, the next input, the
JSON-RPC id of each call); the :class:`Trace` is only written, never read back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

import anyio

from lessons_lib.core.example import EXAMPLE_HEAD, EXAMPLE_PATH, SERVICE_NAME, check_lines, task_text
from lessons_lib.core.messages import t
from lessons_lib.core.outcomes import make_outcome
from lessons_lib.core.paths import WORKSPACE_DIR
from lessons_lib.core.plugins.apiregistry import api_or_reference
from lessons_lib.core.traces.trace import Trace
from lessons_lib.engine.adapters import JsonObject, ModelAdapter, ModelReply, Stop
from lessons_lib.engine.apis import open_api
from lessons_lib.engine.execute import Route, ServiceSpec, connect, execute_calls
from lessons_lib.engine.modelrecord import ModelRecorder
from lessons_lib.engine.models import ModelSetting, make_http_client
from lessons_lib.engine.policy import DEFAULT_POLICY, Policy
from lessons_lib.engine.redact import OFFLINE_KEY, redact_json
from lessons_lib.engine.runsync import run_sync
from lessons_lib.engine.standins.rules import Script
from lessons_lib.engine.stops import answered, check_pairable, model_timeout, round_limit, total_timeout

if TYPE_CHECKING:
    import httpx2

__all__ = ["Limits", "arun_chain", "run_chain"]


@dataclass(frozen=True)
class Limits:
    """Guardrails: model requests per run, seconds per call, seconds per run, calls per reply.

    ``total_timeout`` counts from the first model request (connecting the services and loading
    the SDKs before it do not count); ``clock`` reads that time (a test injects its own).
    """

    max_rounds: int = 4
    call_timeout: float = 10.0
    total_timeout: float = 30.0
    max_calls: int = 16
    clock: Callable[[], float] = field(default=time.monotonic, compare=False, repr=False)


@dataclass(kw_only=True)
class _Run(ModelRecorder):
    """The host's own state for one run (the trace is only written; the model side is recorded)."""

    setting: ModelSetting
    limits: Limits
    policy: Policy = DEFAULT_POLICY
    model_input: list[JsonObject] = field(default_factory=list)  # what the next request sends

    started: float | None = None  # the clock when the first model request left
    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)  # the total time bound
    unrouted: list[str] = field(default_factory=list)  # aliases the application had no route for
    failed: int = 0  # failures reported by a service (isError or a protocol error)


async def arun_chain(
    task: str | None = None,
    *,
    path: str = EXAMPLE_PATH,
    head: int | None = EXAMPLE_HEAD,
    tail: int | None = None,
    services: Mapping[str, ServiceSpec] | None = None,
    live: bool = False,
    model: str | None = None,
    script: Script | None = None,
    limits: Limits | None = None,
    stale_routes: Mapping[str, str] | None = None,
    api: str | None = None,
    tool_choice: object = None,
    policy: Policy | None = None,
) -> Trace:
    """Run the whole chain once and return its trace (async form of :func:`run_chain`).

    ``task`` replaces the text built from ``path``/``head``/``tail``. ``services`` maps a
    service name to a folder (served by the file service) or a server factory; the default
    is ``{"fs": data/workspace}``. ``stale_routes`` (alias -> tool name) plays an application
    whose alias map is out of date: it sends that name to the service instead of the one
    ``tools/list`` declared (lesson 05's protocol error). ``api`` names a model API of
    the registry (lesson 20; None: the reference API, Responses); ``tool_choice`` replaces the
    loop's own choice (``required``) on the first request (lessons 08 and 21). ``policy`` adds an example's
    hooks (:mod:`lessons_lib.engine.policy`: confirmation, retries, its own stand-in...).
    """
    check_lines(head, tail)
    limits, policy = limits or Limits(), policy or DEFAULT_POLICY
    adapter, setting, public = open_api(
        api_or_reference(api), live=live, model=model, tool_choice=tool_choice
    )
    adapter.settings.update(policy.settings)
    if not live and policy.label is not None:
        public["label"] = policy.label
    text = task if task is not None else task_text(path, head, tail)
    trace = Trace(task=text, model=public)
    run = _Run(trace, setting=setting, limits=limits, policy=policy)
    transport = None if live else (policy.standin or partial(adapter.offline_transport, script or Script()))()
    with run.scope as scope:  # its deadline is set when the first model request leaves
        try:
            await _loop(
                run, adapter, services or {SERVICE_NAME: WORKSPACE_DIR}, stale_routes or {}, transport
            )
        except* Stop as group:  # raised inside the MCP clients' task groups, so it arrives grouped
            stop = _first(group)
            assert isinstance(stop, Stop)
            trace.outcome = make_outcome(stop.status, stop.reason, stop.text)
        except* Exception as group:  # an unplanned failure is an outcome too, never a traceback
            failure = _one_line(_first(group))
            trace.outcome = make_outcome(
                "error", f"the run failed: {failure}", t("engine.run_failed", failure=failure)
            )
    if scope.cancelled_caught:
        trace.outcome = total_timeout(limits.total_timeout)
    if policy.finish is not None:
        policy.finish(trace)
    return _cleaned(trace, setting.key)


def _cleaned(trace: Trace, key: str) -> Trace:
    """The one place the key is removed: the whole trace, before anything shows or saves it."""
    if key == OFFLINE_KEY:
        return trace
    data = redact_json(trace.to_dict(), key)
    assert isinstance(data, dict)
    return Trace.from_dict(data)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    text = text if len(text) <= 200 else text[:199] + "…"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


async def _loop(
    run: _Run,
    adapter: ModelAdapter,
    services: Mapping[str, ServiceSpec],
    stale_routes: Mapping[str, str],
    transport: httpx2.AsyncBaseTransport | None,
) -> None:
    trace, limits = run.trace, run.limits
    async with AsyncExitStack() as stack:
        connected, declared = await connect(stack, services, trace)
        routes: dict[str, Route] = {}
        for d in declared:
            routes[d.alias] = Route(d.alias, d.service, stale_routes.get(d.alias, d.tool))
            trace.tools.append({"alias": d.alias, "service": d.service, "name": d.tool})
        if run.policy.calls is not None:  # lesson 32: fields the call layer fills are not the model's
            declared = run.policy.calls.declare(declared)
        tools = adapter.declare(declared)
        if run.policy.screen is not None:  # lesson 52: the application declares only what the task may use
            tools = run.policy.screen.declare(trace.task, tools)
        # entered on the stack so the HTTP client is closed when the run ends
        http = await stack.enter_async_context(make_http_client(run.on_body, transport, limits.call_timeout))
        adapter.open(run.setting, http, limits.call_timeout)
        run.model_input = adapter.first_input(trace.task)
        model_retries = 0
        while True:
            _check_time(run)
            if run.rounds >= limits.max_rounds:
                if run.policy.fallback is not None:
                    trace.answer = run.policy.fallback
                raise round_limit(limits.max_rounds, fallback=run.policy.fallback is not None)
            try:
                reply = await _ask(run, adapter, tools)
            except Stop as stop:
                if (stop.http_status or 0) < 500 or model_retries >= run.policy.model_retries:
                    raise
                model_retries += 1  # model layer: ask again from the user's message; new call ids
                run.model_input = adapter.first_input(trace.task)
                continue
            if not reply.calls:
                if reply.text is None:
                    raise Stop(
                        "error",
                        "the model returned neither a function_call nor a message",
                        t("engine.no_call_no_text"),
                    )
                trace.answer = reply.text
                trace.outcome = answered(run.rounds, reply.text, run.unrouted, run.failed)
                return
            check_pairable(reply.calls, run.rounds, limits.max_calls)
            started = time.perf_counter()
            results = await execute_calls(
                reply.calls, routes, connected, limits.call_timeout, trace, run.policy
            )
            if run.policy.turn_seconds is not None:
                run.policy.turn_seconds.append(time.perf_counter() - started)
            links = {link["call_id"]: link for link in trace.links}  # paired by call_id, never by position
            for result in results:
                link = links[result.call.call_id]
                if result.is_error and result.call.name not in routes:
                    run.unrouted.append(result.call.name)
                elif result.is_error and link["mcp_id"] is not None:
                    run.failed += 1
            items = [adapter.feedback_item(r) for r in results]
            run.model_input = adapter.next_input(run.model_input, run.body, items)


def _check_time(run: _Run) -> None:
    """Start the total time bound at the first model request; later, stop once it is spent."""
    limits = run.limits
    if run.started is None:
        run.started = limits.clock()
        run.scope.deadline = anyio.current_time() + limits.total_timeout  # cancels a request in flight
    elif limits.clock() - run.started >= limits.total_timeout:
        spent = total_timeout(limits.total_timeout)
        raise Stop(spent["status"], spent["reason"], spent.get("text", ""))


async def _ask(run: _Run, adapter: ModelAdapter, tools: list[JsonObject]) -> ModelReply:
    """One model request and its reply; every failure becomes a :class:`Stop` with one line."""
    timeout = run.limits.call_timeout
    run.body, run.refused = {}, None
    failure: BaseException | None = None
    try:
        with anyio.fail_after(timeout):
            await adapter.send(run.model_input, tools, first=run.rounds == 0)
    except TimeoutError:
        raise model_timeout(timeout) from None
    except Exception as exc:  # noqa: BLE001  (judged below: refused, a Stop, or an unreadable reply)
        failure = exc
    if run.refused is not None:
        raise Stop("error", run.refused, t("engine.refused", refused=run.refused))
    if isinstance(failure, Stop):
        raise failure
    reply = adapter.read(run.body)  # a reply of the wrong shape raises its own Stop
    if failure is not None:
        line = _one_line(failure)
        raise Stop(
            "error", f"the model API's reply could not be read: {line}", t("engine.unreadable", line=line)
        )
    return reply


def _first(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup):
        exc = exc.exceptions[0]
    return exc


def run_chain(
    task: str | None = None,
    *,
    path: str = EXAMPLE_PATH,
    head: int | None = EXAMPLE_HEAD,
    tail: int | None = None,
    services: Mapping[str, ServiceSpec] | None = None,
    live: bool = False,
    model: str | None = None,
    script: Script | None = None,
    limits: Limits | None = None,
    stale_routes: Mapping[str, str] | None = None,
    api: str | None = None,
    tool_choice: object = None,
    policy: Policy | None = None,
) -> Trace:
    """Run the whole chain once (offline by default) and return its trace. Lesson 03.

    The parameters are those of :func:`arun_chain`. Works in a plain script and inside
    Jupyter (where an event loop is already running).
    """

    async def main() -> Trace:
        return await arun_chain(
            task,
            path=path,
            head=head,
            tail=tail,
            services=services,
            live=live,
            model=model,
            script=script,
            limits=limits,
            stale_routes=stale_routes,
            api=api,
            tool_choice=tool_choice,
            policy=policy,
        )

    return run_sync(main)
