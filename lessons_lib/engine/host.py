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

from collections.abc import Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import anyio

from lessons_lib.core.echo import short
from lessons_lib.core.example import EXAMPLE_HEAD, EXAMPLE_PATH, SERVICE_NAME, check_lines, task_text
from lessons_lib.core.outcomes import make_outcome
from lessons_lib.core.paths import WORKSPACE_DIR
from lessons_lib.core.trace import Trace
from lessons_lib.core.tracetypes import Outcome
from lessons_lib.engine._sync import run_sync
from lessons_lib.engine.adapters import JsonObject, ModelAdapter, ModelReply, Stop
from lessons_lib.engine.apis import open_api
from lessons_lib.engine.execute import Route, ServiceSpec, connect, execute_calls
from lessons_lib.engine.models import ModelSetting, make_http_client
from lessons_lib.engine.offline_model import Script
from lessons_lib.engine.redact import OFFLINE_KEY, redact_json
from lessons_lib.engine.stops import model_timeout, round_limit, too_many_calls, total_timeout

if TYPE_CHECKING:
    import httpx2

__all__ = ["Limits", "Script", "arun_chain", "run_chain"]


@dataclass(frozen=True)
class Limits:
    """Guardrails: model requests per run, seconds per call, seconds per run, calls per reply."""

    max_rounds: int = 4
    call_timeout: float = 10.0
    total_timeout: float = 30.0
    max_calls: int = 16


@dataclass
class _Run:
    """The host's own state for one run (the trace is only written)."""

    trace: Trace
    setting: ModelSetting
    limits: Limits
    rounds: int = 0
    body: JsonObject = field(default_factory=dict)  # the latest model reply, as received
    model_input: list[JsonObject] = field(default_factory=list)  # what the next request sends

    refused: str | None = None  # why the client would not take the latest reply
    unrouted: list[str] = field(default_factory=list)  # aliases the application had no route for
    failed: int = 0  # failures reported by a service (isError or a protocol error)

    def on_body(self, direction: str, body: JsonObject, status: int | None) -> None:
        if direction == "request":
            self.rounds += 1
            self.trace.add("model", "application", "model", f"request_{self.rounds}", body)
        elif direction == "refused":
            self.refused = str(body.get("reason"))
        else:
            self.body = body
            label = f"response_{self.rounds}" if status == 200 else f"http_error_{self.rounds}"
            self.trace.add("model", "model", "application", label, body)


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
    api: str = "responses",
    tool_choice: object = None,
) -> Trace:
    """Run the whole chain once and return its trace (async form of :func:`run_chain`).

    ``task`` replaces the text built from ``path``/``head``/``tail``. ``services`` maps a
    service name to a folder (served by the file service) or a server factory; the default
    is ``{"fs": data/workspace}``. ``stale_routes`` (alias -> tool name) plays an application
    whose alias map is out of date: it sends that name to the service instead of the one
    ``tools/list`` declared (lesson 05's protocol error). ``api`` is ``"responses"``,
    ``"chat"`` or ``"anthropic"`` (lesson 20); ``tool_choice`` replaces the loop's own choice
    (``required``) on the first request (lessons 08 and 21).
    """
    check_lines(head, tail)
    limits = limits or Limits()
    adapter, setting, public = open_api(api, live=live, model=model, tool_choice=tool_choice)
    text = task if task is not None else task_text(path, head, tail)
    trace = Trace(task=text, model=public)
    run = _Run(trace, setting, limits)
    transport = None if live else adapter.offline_transport(script or Script())
    with anyio.move_on_after(limits.total_timeout) as scope:
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
            trace.outcome = make_outcome("error", f"the run failed: {failure}", f"运行失败：{failure}")
    if scope.cancelled_caught:
        trace.outcome = total_timeout(limits.total_timeout)
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
        tools = adapter.declare(declared)
        # entered on the stack so the HTTP client is closed when the run ends
        http = await stack.enter_async_context(make_http_client(run.on_body, transport, limits.call_timeout))
        adapter.open(run.setting, http, limits.call_timeout)
        run.model_input = adapter.first_input(trace.task)
        while True:
            if run.rounds >= limits.max_rounds:
                raise round_limit(limits.max_rounds)
            reply = await _ask(run, adapter, tools)
            if not reply.calls:
                if reply.text is None:
                    raise Stop(
                        "error",
                        "the model returned neither a function_call nor a message",
                        "模型的回复里既没有工具调用，也没有答复文本",
                    )
                trace.answer = reply.text
                trace.outcome = _answered(run, reply.text)
                return
            _check_pairable(reply, run.rounds, limits.max_calls)
            results = await execute_calls(reply.calls, routes, connected, limits.call_timeout, trace.links)
            for result, link in zip(results, trace.links[-len(results) :], strict=True):
                if result.is_error and link["service"] is None:
                    run.unrouted.append(result.call.name)
                elif result.is_error and link["mcp_id"] is not None:
                    run.failed += 1
            items = [adapter.feedback_item(r) for r in results]
            run.model_input = adapter.next_input(run.model_input, run.body, items)


def _answered(run: _Run, text: str) -> Outcome:
    """How an answered run ended: after the feedback (and what failed), or without any call."""
    if run.rounds == 1:
        # A reply that ends in a question mark is taken as a question to the user (lesson 08).
        if text.rstrip().endswith(("？", "?")):
            return make_outcome(
                "answered",
                "no tool was called: the model asked the user for what the task leaves out",
                "没有调用工具：模型先向用户提问，要补上任务里缺少的信息，而不是猜",
            )
        return make_outcome(
            "answered", "the model answered without calling a tool", "模型没有调用工具，直接作了答复"
        )
    reason, text_zh = "the model answered after the feedback", "模型在收到反馈之后作了答复"
    if run.unrouted:
        names = ", ".join(short(n) for n in dict.fromkeys(run.unrouted))
        reason += (
            f"; the application had no route for {names} (its own routing failure: "
            "no tool ran, nothing was sent to an MCP service)"
        )
        text_zh += (
            f"；应用的路由表里没有别名 {names}：这是应用的路由失败，没有工具运行，也没有请求发给 MCP 服务"
        )
    if run.failed:
        reason += f"; {run.failed} tool call(s) failed at the service"
        text_zh += f"；有 {run.failed} 个调用在服务一侧失败，反馈如实写明了失败"
    return make_outcome("answered", reason, text_zh)


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
        raise Stop("error", run.refused, f"应用拒收了模型接口的回复：{run.refused}")
    if isinstance(failure, Stop):
        raise failure
    reply = adapter.read(run.body)  # a reply of the wrong shape raises its own Stop
    if failure is not None:
        line = _one_line(failure)
        raise Stop(
            "error", f"the model API's reply could not be read: {line}", f"模型接口的回复读不出来：{line}"
        )
    return reply


def _check_pairable(reply: ModelReply, round_no: int, max_calls: int) -> None:
    """Stop before executing anything if a call cannot be paired or there are too many."""
    if len(reply.calls) > max_calls:
        raise too_many_calls(round_no, len(reply.calls), "Limits.max_calls", max_calls)
    seen: set[str] = set()
    for n, call in enumerate(reply.calls, start=1):
        if call.call_id is None:
            raise Stop(
                "error",
                f"tool call {n} of response_{round_no} has no call_id, so its result could not be "
                "paired; nothing was executed",
                f"response_{round_no} 的第 {n} 个工具调用没有 call_id，结果无法配对，所以什么也没有执行",
            )
        if call.call_id in seen:
            raise Stop(
                "error",
                f"call_id {call.call_id} appears twice in response_{round_no}, so its result could "
                "not be paired; nothing was executed",
                f"call_id {call.call_id} 在 response_{round_no} 里出现了两次，结果无法配对，什么也没有执行",
            )
        seen.add(call.call_id)


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
    api: str = "responses",
    tool_choice: object = None,
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
        )

    return run_sync(main)
