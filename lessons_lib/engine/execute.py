"""Execution: the MCP services of a run and the tool calls of one model reply. Lesson 05.

Each service is an in-process MCP server reached through real JSON-RPC frames
(:class:`~lessons_lib.engine.wire.FramedTransport` + ``mcp.Client`` in legacy mode). A service
is given as a root folder (the file service over it) or as a factory ``name -> Server`` (any
low-level ``mcp.server.Server``, for example an order desk).

The calls of one reply run concurrently (one anyio task each). Their requests leave in the
order of the calls (a lock held until each request frame is on the wire), so the host knows
each call's JSON-RPC id from its own bookkeeping and the requests' order in the trace does not
depend on scheduling; the replies overlap. Results come back in the order of the calls.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

import anyio

from lessons_lib.core.echo import hostile, short
from lessons_lib.core.example import ALIAS_SEPARATOR
from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.plugins.apitypes import ToolCall
from lessons_lib.core.traces.trace import Trace
from lessons_lib.core.traces.tracetypes import CallRecord, Event
from lessons_lib.engine.adapters import CallResult, Declared, marked
from lessons_lib.engine.apptools import AppService, AppTools
from lessons_lib.engine.http.client import McpUrl
from lessons_lib.engine.policy import DEFAULT_POLICY, Policy

if TYPE_CHECKING:
    from mcp import Client
    from mcp.server import Server
    from mcp_types import CallToolResult

ServerFactory = Callable[[str], "Server"]
"""Builds the low-level MCP server for a service name."""

ServiceSpec = str | Path | ServerFactory | AppTools | McpUrl
"""A folder served by the file service, a server factory, the application's own tools (lesson 40), or
a service's URL, reached over Streamable HTTP (lesson 60)."""


@dataclass(frozen=True)
class Route:
    """Where an alias leads: which service, which tool name is sent there."""

    alias: str
    service: str
    tool: str


def alias_of(service: str, tool: str) -> str:
    """The model-side name of a service's tool, ``<service>__<tool>`` (lesson 06)."""
    return f"{service}{ALIAS_SEPARATOR}{tool}"


def feedback_text(result: CallToolResult) -> str:
    """The ``function_call_output.output`` for an MCP result: its text, marked if it failed."""
    text = "\n".join(c.text for c in result.content if c.type == "text")
    return marked(text, bool(result.is_error))


class Service:
    """One connected MCP service: its session and the host's own record of its requests."""

    def __init__(self, name: str, trace: Trace) -> None:
        self.name, self.trace = name, trace
        self.session: Client | None = None
        self._pending: dict[object, str] = {}  # JSON-RPC id -> method, for labelling replies
        self._sent: anyio.Event | None = None
        self.sent_id: int | str | None = None

    def sink(self, direction: str, frame: JSONObject) -> Event:
        """Every frame of this service lands in the trace (returns its event); a ``tools/call`` is noted."""
        if "method" in frame:
            label = str(frame["method"])
            if "id" in frame:
                self._pending[frame["id"]] = label
                rid = frame["id"]
                if label == "tools/call" and self._sent is not None and isinstance(rid, int | str):
                    self.sent_id = rid
                    self._sent.set()
        else:
            label = self._pending.pop(frame.get("id"), "response")
        sender, receiver = (
            ("application", self.name) if direction == "to_service" else (self.name, "application")
        )
        self.trace.add("mcp", sender, receiver, label, frame)
        return self.trace.events[-1]

    async def call(
        self, tool: str, args: dict[str, object], timeout: float, link: CallRecord, sending: anyio.Lock
    ) -> tuple[str, bool]:
        """Send one ``tools/call``: (feedback text, is_error); ``link["mcp_id"]`` gets its JSON-RPC id."""
        from mcp.shared.exceptions import MCPError

        session = self.session
        assert session is not None, "connect the service first"
        outcome: list[tuple[str, bool]] = []

        async def go(sent: anyio.Event) -> None:
            try:
                with anyio.fail_after(timeout):
                    result = await session.call_tool(tool, args)
                outcome.append((feedback_text(result), bool(result.is_error)))
            except MCPError as exc:
                outcome.append((marked(f"protocol error {exc.code}: {exc.error.message}", True), True))
            except TimeoutError:
                outcome.append((marked(f"the tool service did not answer within {timeout:g} s", True), True))
            finally:
                sent.set()  # also when the call failed before its request went out

        async with anyio.create_task_group() as tg:
            async with sending:
                self._sent, self.sent_id = anyio.Event(), None
                tg.start_soon(go, self._sent)
                await self._sent.wait()
                link["mcp_id"], self._sent = self.sent_id, None
        return outcome[0]


async def connect(
    stack: AsyncExitStack, services: Mapping[str, ServiceSpec], trace: Trace
) -> tuple[dict[str, Service | AppService], list[Declared]]:
    """Connect every service (``initialize``, ``tools/list``) and list what to declare."""
    from mcp import Client

    from lessons_lib.core.plugins.serviceregistry import serve_folder  # a folder: the file service's
    from lessons_lib.engine.wire import FramedTransport

    connected: dict[str, Service | AppService] = {}
    declared: list[Declared] = []
    for name, spec in services.items():
        if isinstance(spec, AppTools):  # no MCP: the application's own code (lesson 40)
            connected[name] = AppService(name, spec)
            declared += spec.declared(name)
            continue
        service = Service(name, trace)
        if isinstance(spec, McpUrl):  # over the network (lesson 60): the same frames, each in its envelope
            from lessons_lib.engine.http.client import HttpFramedTransport

            client = Client(HttpFramedTransport.to(spec, service.sink), mode=spec.mode)
        else:
            server = (
                cast("Server", serve_folder(Path(spec), name)) if isinstance(spec, str | Path) else spec(name)
            )
            client = Client(FramedTransport(server, service.sink), mode="legacy")
        service.session = await stack.enter_async_context(client)
        connected[name] = service
        for tool in (await service.session.list_tools()).tools:
            declared.append(
                Declared(
                    alias_of(name, tool.name),
                    name,
                    tool.name,
                    tool.description or "",
                    dict(tool.input_schema),
                )
            )
    return connected, declared


async def execute_calls(
    calls: Sequence[ToolCall],
    routes: Mapping[str, Route],
    services: Mapping[str, Service | AppService],
    timeout: float,
    trace: Trace,
    policy: Policy = DEFAULT_POLICY,
) -> list[CallResult]:
    """Run the calls of one reply (concurrently unless ``policy.parallel`` is False).

    Each call gets its link in ``trace.links`` first; then ``policy.gate`` is asked for each
    call in order, before any runs; then the calls it let through run. One result per call.
    """
    links: list[CallRecord] = []
    for call in calls:
        link: CallRecord = {
            "call_id": call.call_id,
            "alias": call.name,
            "service": None,
            "tool": None,
            "mcp_id": None,
        }
        trace.links.append(link)
        links.append(link)
    # lesson 31: the reply's calls seen together first (two writes to one order: the second is
    # refused), then the one gate per call (lesson 52's screen, lesson 33's confirmation), all
    # asked before any call runs; a call refused by coordination is never put to the user
    together: list[CallResult | None] = (
        policy.coordinate(calls) if policy.coordinate is not None else [None] * len(calls)
    )
    refused = [c or _gate(call, routes, trace, policy) for call, c in zip(calls, together, strict=True)]
    results: list[CallResult | None] = [None] * len(calls)
    sending = anyio.Lock()  # one request on its way at a time: they leave in the calls' order

    async def one(index: int) -> None:
        call = calls[index]
        if refused[index] is not None:
            results[index] = refused[index]
            return
        seconds = policy.timeouts.get(call.name, timeout)
        results[index] = await _execute(call, routes, services, seconds, links[index], sending, policy)

    if policy.parallel:
        async with anyio.create_task_group() as tg:
            for index in range(len(calls)):
                tg.start_soon(one, index)
    else:
        for index in range(len(calls)):
            await one(index)
    done = [r for r in results if r is not None]
    screen = policy.screen  # lesson 52: what the model sees of each result
    return [screen.result(r) for r in done] if screen is not None else done


def _gate(call: ToolCall, routes: Mapping[str, Route], trace: Trace, policy: Policy) -> CallResult | None:
    if policy.gate is None:
        return None
    route = routes.get(call.name)
    if route is None:
        return policy.gate(call, None, None, trace)
    return policy.gate(call, route.service, route.tool, trace)


async def _execute(
    call: ToolCall,
    routes: Mapping[str, Route],
    services: Mapping[str, Service | AppService],
    timeout: float,
    link: CallRecord,
    sending: anyio.Lock,
    policy: Policy,
) -> CallResult:
    """One call -> one result: route the alias, parse the arguments, send ``tools/call``.

    With ``policy.calls`` set, the call layer fills its own fields first (``link["filled"]`` names
    them). With ``policy.tool_retries`` set, a failure ``policy.retryable`` accepts is sent again (same
    ``call_id``, same arguments) and every JSON-RPC id lands in ``link["attempts"]``.
    """
    routed = route_call(call, routes, link)
    if isinstance(routed, CallResult):
        return routed
    route, args = routed
    if policy.calls is not None:  # lesson 32: the call layer adds what the model never sends
        filled = policy.calls.fill(route.service, route.tool, args)
        if filled != args:
            link["filled"] = sorted(k for k in filled if args.get(k) != filled[k])
        args = filled
    attempts: list[int | str | None] = []
    for _ in range(1 + (policy.tool_retries or 0)):
        output, is_error = await services[route.service].call(route.tool, args, timeout, link, sending)
        attempts.append(link["mcp_id"])
        if not (is_error and policy.retryable(output)):
            break
    if policy.tool_retries is not None:
        link["attempts"] = attempts
    return CallResult(call, output, is_error)


def route_call(
    call: ToolCall, routes: Mapping[str, Route], link: CallRecord | JSONObject
) -> tuple[Route, dict[str, object]] | CallResult:
    """The route and the parsed arguments of a call, or the failure fed back without executing.

    An unknown alias is the application's routing failure; the link records where the call went.
    """
    route = routes.get(call.name)
    if route is None:
        known = ", ".join(sorted(routes)) or "none"
        return CallResult(
            call, marked(f"unknown tool '{short(call.name)}'; declared tools: {known}", True), True
        )
    link["service"], link["tool"] = route.service, route.tool
    args, problem = parse_arguments(call.arguments)
    if args is None:
        return CallResult(call, marked(problem, True), True)
    return route, args


def parse_arguments(arguments: object) -> tuple[dict[str, object] | None, str]:
    """The arguments as an object, or None and why not (JSON text or an object are accepted)."""
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except json.JSONDecodeError as exc:
            return None, f"arguments is not valid JSON ({exc}); nothing was executed"
        except ValueError:  # Python's limit on digits in an integer (json.loads raises before parsing ends)
            return None, "arguments holds a number with thousands of digits; nothing was executed"
    if not isinstance(arguments, dict):
        kind = type(arguments).__name__
        return None, f"arguments must be a JSON object, got {kind}; nothing was executed"
    problem = hostile(arguments)
    if problem is not None:
        return None, f"invalid arguments: {problem}; nothing was executed"
    return arguments, ""
