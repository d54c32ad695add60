"""The same task three ways: a direct function, OpenAPI-generated tools, an MCP server (lesson 40).

Task: 查询订单 O-1042 的状态. Each way declares its tool(s) to the model through the real
``openai`` SDK (the offline stand-in answers, labelled as a rule program), receives one
``function_call``, executes it its own way, pairs the result with the ``call_id`` in a
``function_call_output`` and asks again. What differs is only the execution step:

- ``function``: the application calls a Python function it wrote (hand-written declaration);
- ``openapi``: the converter's tools, the router, one HTTP request to the order API;
- ``mcp``: an MCP server generated from the same document, plugged into the course's host
  (:func:`lessons_lib.engine.host.arun_chain`) as a service; ``tools/list`` and ``tools/call``
  over real JSON-RPC frames, then the same router and HTTP request inside the server.

The first two ways have no MCP service for the host to call, so they run the host's own
Responses adapter for two turns with their own execution step.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, cast

from lessons_lib.core.example import ALIAS_SEPARATOR, FAILURE_PREFIX
from lessons_lib.core.jsonvalue import JSONObject, objects
from lessons_lib.engine.runsync import run_sync
from lessons_lib.examples.openapi.router import DEMO_TOKEN, OpenAPIRouter
from lessons_lib.examples.openapi.threeways_direct import GET_ORDER_DECLARATION, direct_call
from lessons_lib.examples.orders import data as orderdata

__all__ = ["TASK", "WAYS", "WayRun", "arun_way", "run_three_ways", "run_way"]

WAYS: Final = ("function", "openapi", "mcp")
TASK: Final = "查询订单 O-1042 的状态"
ARGUMENTS: Final = '{"order_id": "O-1042"}'

Execute = Callable[[str, JSONObject], Awaitable[tuple[str, bool]]]


@dataclass
class WayRun:
    """One way's run: model bodies, the hops execution took, the feedback and the answer."""

    way: str
    tools: list[JSONObject] = field(default_factory=list)
    bodies: list[tuple[str, JSONObject]] = field(default_factory=list)
    hops: list[str] = field(default_factory=list)
    frames: list[JSONObject] = field(default_factory=list)
    output: str = ""
    answer: str = ""

    @property
    def call(self) -> JSONObject:
        """The ``function_call`` item the model returned."""
        first = next(b for d, b in self.bodies if d == "response")
        return next(i for i in objects(first["output"]) if i["type"] == "function_call")

    @property
    def paired(self) -> bool:
        """Did the feedback carry the same ``call_id`` as the call?"""
        second = [b for d, b in self.bodies if d == "request"][1]
        outputs = [i for i in objects(second["input"]) if i.get("type") == "function_call_output"]
        return [o["call_id"] for o in outputs] == [self.call["call_id"]]

    @property
    def declaration_chars(self) -> int:
        """Size of what the model is given to choose from (the ``tools`` list as JSON text)."""
        return len(json.dumps(self.tools, ensure_ascii=False))


async def _round(run: WayRun, execute: Execute, tool: str) -> WayRun:
    """Two model turns through the course's Responses adapter; ``execute`` is the only variable."""
    from lessons_lib.engine.adapters import CallResult, ResponsesAdapter
    from lessons_lib.engine.execute import parse_arguments
    from lessons_lib.engine.models import make_http_client, offline_setting
    from lessons_lib.engine.standin_rules import Script

    adapter, setting = ResponsesAdapter(), offline_setting()

    def sink(direction: str, body: JSONObject, status: int | None) -> None:
        run.bodies.append((direction, body))

    transport = adapter.offline_transport(Script(arguments=ARGUMENTS, tool=tool))
    async with make_http_client(sink, transport, 10.0) as http:
        adapter.open(setting, http, 10.0)
        model_input = adapter.first_input(TASK)
        await adapter.send(model_input, run.tools, first=True)
        first = run.bodies[-1][1]
        items = []
        for call in adapter.read(first).calls:
            arguments, problem = parse_arguments(call.arguments)  # the loop's own parsing and refusals
            text, is_error = (
                (problem, True)
                if arguments is None
                else await execute(call.name, cast(JSONObject, arguments))
            )
            run.output = FAILURE_PREFIX + text if is_error else text
            items.append(adapter.feedback_item(CallResult(call, run.output, is_error)))
        await adapter.send(adapter.next_input(model_input, first, items), run.tools, first=False)
        run.answer = adapter.read(run.bodies[-1][1]).text or ""
    return run


async def arun_way(way: str, token: str = DEMO_TOKEN) -> WayRun:
    """Run the task one way (``function``, ``openapi`` or ``mcp``) on a fresh order database."""
    if way not in WAYS:
        raise ValueError(f"way must be one of {', '.join(WAYS)}, got {way!r}")
    run = WayRun(way)
    with tempfile.TemporaryDirectory(prefix="orders-") as scratch:  # removed when the run ends
        return await _run_in(run, orderdata.create_database(Path(scratch) / "orders.sqlite3"), token)


async def _run_in(run: WayRun, db: Path, token: str) -> WayRun:
    from lessons_lib.examples.openapi.router import Exchange, open_order_api

    way = run.way

    def on_http(exchange: Exchange) -> None:
        run.hops.append(f"HTTP {exchange.method} {exchange.url} -> {exchange.status}")

    if way == "function":
        run.tools = [dict(GET_ORDER_DECLARATION)]

        async def call_function(name: str, args: JSONObject) -> tuple[str, bool]:
            run.hops.append(f"Python get_order({args.get('order_id')!r})")
            return direct_call(db, name, args)  # the desk's rules, as the other two ways apply them

        return await _round(run, call_function, "get_order")
    async with open_order_api(token, db, on_http) as router:
        if way == "openapi":
            from lessons_lib.examples.openapi.tools import responses_tool

            run.tools = [responses_tool(op) for op in router.operations.values()]

            async def call_router(name: str, args: JSONObject) -> tuple[str, bool]:
                run.hops.append(f"router {name} -> path/query/body")
                routed = await router.call(name, args)
                return routed.text, routed.is_error

            return await _round(run, call_router, "get_order")
        return await _mcp_way(run, router)


async def _mcp_way(run: WayRun, router: OpenAPIRouter) -> WayRun:
    """The MCP way is the course's host itself, with the generated server plugged in as a service."""
    from lessons_lib.engine.host import arun_chain
    from lessons_lib.engine.standin_rules import Script
    from lessons_lib.examples.openapi.mcp_server import build_openapi_server

    trace = await arun_chain(
        TASK,
        services={"orders": lambda name: build_openapi_server(router, name)},
        script=Script(arguments=ARGUMENTS, tool=f"orders{ALIAS_SEPARATOR}get_order"),
    )
    for event in trace.events:
        body = dict(event["body"])
        if event["channel"] == "model":
            run.bodies.append(("request" if event["label"].startswith("request_") else "response", body))
        else:
            run.frames.append(body)
            if event["label"] == "tools/call" and "method" in body:
                run.hops.insert(len(run.hops) - 1 if run.hops else 0, f"JSON-RPC tools/call id {body['id']}")
    run.tools = objects(next(b for d, b in run.bodies if d == "request")["tools"])
    second = [b for d, b in run.bodies if d == "request"][1]
    run.output = next(
        str(i["output"]) for i in objects(second["input"]) if i.get("type") == "function_call_output"
    )
    run.answer = trace.answer or ""
    return run


def run_way(way: str, token: str = DEMO_TOKEN) -> WayRun:
    """:func:`arun_way` from plain code or a notebook cell (lesson 40)."""

    async def main() -> WayRun:
        return await arun_way(way, token)

    return run_sync(main)


def run_three_ways(token: str = DEMO_TOKEN) -> dict[str, WayRun]:
    """The same task the three ways, in the order of :data:`WAYS`."""

    async def main() -> dict[str, WayRun]:
        return {way: await arun_way(way, token) for way in WAYS}

    return run_sync(main)
