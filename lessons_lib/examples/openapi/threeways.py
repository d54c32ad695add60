"""The same task three ways: a direct function, OpenAPI-generated tools, an MCP server (lesson 40).

Task: 查询订单 O-1042 的状态. Each way declares its tool(s) to the model through the real
``openai`` SDK (the offline stand-in answers, labelled as a rule program), receives one
``function_call``, executes it its own way, pairs the result with the ``call_id`` in a
``function_call_output`` and asks again. What differs is only the execution step:

- ``function``: the application calls a Python function it wrote (hand-written declaration);
- ``openapi``: the converter's tools, the router, one HTTP request to the order API;
- ``mcp``: an MCP server generated from the same document, plugged in as a service;
  ``tools/list`` and ``tools/call`` over real JSON-RPC frames, then the same router and HTTP
  request inside the server.

Each way is one run of the course's one loop (:func:`lessons_lib.engine.host.arun_chain`): the
first two give it the application's own tools (:class:`lessons_lib.engine.apptools.AppTools`,
no MCP), so the key cleaning, the caps and the one-line failures of every run hold for them,
live (``run --example openapi --live``) or offline.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final, cast

import lessons_lib.services.orders.data as orderdata
from lessons_lib.core.example import ALIAS_SEPARATOR
from lessons_lib.core.jsonvalue import JSONObject, objects
from lessons_lib.core.traces.trace import Trace
from lessons_lib.engine.runsync import run_sync
from lessons_lib.examples.openapi.router import DEMO_TOKEN
from lessons_lib.examples.openapi.threeways_direct import GET_ORDER_DECLARATION, direct_call

__all__ = ["TASK", "WAYS", "WayRun", "arun_way", "run_three_ways", "run_way"]

WAYS: Final = ("function", "openapi", "mcp")
TASK: Final = "查询订单 O-1042 的状态"
ARGUMENTS: Final = '{"order_id": "O-1042"}'

if TYPE_CHECKING:
    from lessons_lib.engine.execute import ServiceSpec


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
    trace: Trace | None = field(default=None, repr=False, compare=False)
    """The loop's trace of this way's run (key cleaned)."""

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


async def arun_way(
    way: str, token: str = DEMO_TOKEN, *, live: bool = False, model: str | None = None
) -> WayRun:
    """Run the task one way (``function``, ``openapi`` or ``mcp``) on a fresh order database.

    Every way is one run of the course's loop (:func:`lessons_lib.engine.host.arun_chain`);
    ``live`` sends the same task to a real model (``OPENAI_API_KEY``, ``OPENAI_BASE_URL``).
    """
    if way not in WAYS:
        raise ValueError(f"way must be one of {', '.join(WAYS)}, got {way!r}")
    run = WayRun(way)
    with tempfile.TemporaryDirectory(prefix="orders-") as scratch:  # removed when the run ends
        db = orderdata.create_database(Path(scratch) / "orders.sqlite3")
        trace = await _run_in(run, db, token, live, model)
    return _from_trace(run, trace, live, model)


async def _run_in(run: WayRun, db: Path, token: str, live: bool, model: str | None) -> Trace:
    """The way's services for the loop: its execution step is the only thing that differs."""
    from lessons_lib.engine.apptools import AppTools, app_tool
    from lessons_lib.engine.host import arun_chain
    from lessons_lib.engine.standins.rules import Script
    from lessons_lib.examples.openapi.router import Exchange, open_order_api

    def chain(services: Mapping[str, ServiceSpec], tool: str) -> Awaitable[Trace]:
        script = Script(arguments=ARGUMENTS, tool=tool)
        return arun_chain(TASK, services=services, script=script, live=live, model=model)

    if run.way == "function":  # the application's own Python function, hand-declared

        async def call_function(name: str, args: JSONObject) -> tuple[str, bool]:
            run.hops.append(f"Python {name}({args.get('order_id')!r})")
            return direct_call(db, name, args)  # the desk's rules, as the other two ways apply them

        tools = AppTools((app_tool(GET_ORDER_DECLARATION),), call_function)
        return await chain({"app": tools}, "get_order")

    def on_http(exchange: Exchange) -> None:
        run.hops.append(f"HTTP {exchange.method} {exchange.url} -> {exchange.status}")

    async with open_order_api(token, db, on_http) as router:
        if run.way == "openapi":  # the converter's tools; the router sends one HTTP request
            from lessons_lib.examples.openapi.tools import responses_tool

            async def call_router(name: str, args: JSONObject) -> tuple[str, bool]:
                run.hops.append(f"router {name} -> path/query/body")
                routed = await router.call(name, dict(args))
                return routed.text, routed.is_error

            declared = tuple(app_tool(responses_tool(op)) for op in router.operations.values())
            return await chain({"api": AppTools(declared, call_router)}, "get_order")
        from lessons_lib.examples.openapi.mcp_server import build_openapi_server

        # the MCP way: the server generated from the same document, plugged in as a service
        server = {"orders": lambda name: build_openapi_server(router, name)}
        return await chain(server, f"orders{ALIAS_SEPARATOR}get_order")


def _from_trace(run: WayRun, trace: Trace, live: bool, model: str | None) -> WayRun:
    """The way's account, read from the loop's trace (its key already cleaned by the loop)."""
    for event in trace.events:
        body = dict(event["body"])
        if event["channel"] == "model":
            run.bodies.append(("request" if event["label"].startswith("request_") else "response", body))
        else:
            run.frames.append(body)
            if event["label"] == "tools/call" and "method" in body:
                run.hops.insert(len(run.hops) - 1 if run.hops else 0, f"JSON-RPC tools/call id {body['id']}")
    requests = [b for d, b in run.bodies if d == "request"]
    run.tools = objects(requests[0].get("tools")) if requests else []
    outputs = [
        i for b in requests[1:2] for i in objects(b.get("input")) if i.get("type") == "function_call_output"
    ]
    run.output = str(outputs[0].get("output", "")) if outputs else ""
    run.answer = trace.answer or ""
    if live:  # the hops quote what the model sent (ids, names): cleaned as the loop cleans its trace
        run.hops = _cleaned(run.hops, model)
    run.trace = trace
    return run


def _cleaned(hops: list[str], model: str | None) -> list[str]:
    from lessons_lib.core.plugins.apiregistry import reference_api
    from lessons_lib.engine.apis import setting_for
    from lessons_lib.engine.redact import redact_json

    setting = setting_for(reference_api(), True, model)
    return hops if setting is None else [str(h) for h in cast(list[object], redact_json(hops, setting.key))]


def run_way(way: str, token: str = DEMO_TOKEN, *, live: bool = False, model: str | None = None) -> WayRun:
    """:func:`arun_way` from plain code or a notebook cell (lesson 40)."""

    async def main() -> WayRun:
        return await arun_way(way, token, live=live, model=model)

    return run_sync(main)


def run_three_ways(token: str = DEMO_TOKEN) -> dict[str, WayRun]:
    """The same task the three ways, in the order of :data:`WAYS`."""

    async def main() -> dict[str, WayRun]:
        return {way: await arun_way(way, token) for way in WAYS}

    return run_sync(main)
