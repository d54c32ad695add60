"""Lesson 40's direct-function way, and the three ways answering one request side by side.

The direct function is the application's own Python code over the order database: no HTTP, no
MCP (to the loop, a service made of the application's own code: ``engine/apptools``). It still
decides by the desk's rules (:mod:`lessons_lib.services.orders.rules`) and checks its arguments
with the same ECMA-262 validator, so the three ways are one business: :func:`three_ways` sends
one request (tool name and arguments, as a model would fill them) the three ways, each through
the loop's own execution step, and reduces each answer to a :data:`Verdict` a test can compare.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager, closing
from pathlib import Path
from typing import Final, cast

import lessons_lib.services.orders.data as orderdata
from lessons_lib.core.echo import short
from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.engine.schemacheck import ecma_validator, problem
from lessons_lib.services.orders.rules import (
    HTTP_STATUS,
    SESSION_CUSTOMER,
    DeskError,
    check_session,
    open_investigation,
    visible_order,
)
from lessons_lib.services.orders.tools import ORDER_ID_PATTERN

GET_ORDER_DECLARATION: Final[JSONObject] = {
    "type": "function",
    "name": "get_order",
    "description": "Read one order: status, region, item, waybill number, version and update time.",
    "parameters": {
        "type": "object",
        "properties": {"order_id": {"type": "string", "pattern": ORDER_ID_PATTERN}},
        "required": ["order_id"],
        "additionalProperties": False,
    },
    "strict": False,
}
"""The hand-written declaration of the direct-function way (seed 001's schema)."""

_CREATE_PARAMETERS: Final[JSONObject] = {
    "type": "object",
    "properties": {
        "order_id": {"type": "string", "pattern": ORDER_ID_PATTERN},
        "reason": {"type": "string", "enum": list(orderdata.INVESTIGATION_REASONS)},
        "note": {"type": "string", "minLength": 1, "maxLength": 200},
    },
    "required": ["order_id", "reason", "note"],
}
"""The direct function for a write, as the application would declare it (not used in lesson 40's task)."""

PARAMETERS: Final[dict[str, JSONObject]] = {
    "get_order": cast(JSONObject, GET_ORDER_DECLARATION["parameters"]),
    "create_investigation": _CREATE_PARAMETERS,
}

WAY_NAMES: Final = ("function", "openapi", "mcp")
CALL_TIMEOUT: Final = 10.0

Verdict = tuple[int, str]
"""One answer reduced for comparison: an HTTP-like status (200, 201, 400, 404, 409...) and its key data."""


def direct_call(
    db: Path, name: str, arguments: JSONObject, customer: str = SESSION_CUSTOMER
) -> tuple[str, bool]:
    """The direct-function way's execution step: (feedback text, is_error). Lesson 40."""
    from lessons_lib.examples.openapi.router import intent_key

    schema = PARAMETERS.get(name)
    if schema is None:
        return f"unknown function '{short(name)}'; known: {', '.join(PARAMETERS)}", True
    found = problem(ecma_validator(schema), arguments)
    if found is not None:
        return f"invalid arguments for {name}: {found}", True
    try:
        with closing(orderdata.connect(db)) as conn:
            check_session(conn, customer)
            if name == "get_order":
                order = visible_order(conn, str(arguments["order_id"]), customer)
                return json.dumps(
                    {k: v for k, v in order.items() if k != "customer_id"}, ensure_ascii=False
                ), False
            key = intent_key(name, arguments)
            _, row, created = open_investigation(
                conn,
                customer,
                str(arguments["order_id"]),
                str(arguments["reason"]),
                str(arguments["note"]),
                key,
            )
    except DeskError as refusal:
        return json.dumps(
            {"error": {"code": refusal.code, "message": refusal.message}}, ensure_ascii=False
        ), True
    answer = {k: v for k, v in row.items() if k != "idempotency_key"}
    return json.dumps({**answer, "created": created}, ensure_ascii=False), False


def verdict(text: str, is_error: bool) -> Verdict:
    """An answer of any way as (status, key data): what must be the same across the three ways."""
    if not is_error:
        data = json.loads(text)
        if "investigation_id" in data:
            return (201 if data["created"] else 200), f"{data['order_id']} {data['reason']} {data['note']}"
        return 200, f"{data['order_id']} {data['status']} v{data['version']}"
    text = text.removeprefix("ERROR: ")
    if text.lower().startswith("invalid arguments"):
        return 400, ""  # refused before anything was sent: the HTTP API answers such a request 400
    status = re.match(r"HTTP (\d{3}): ", text)
    if status is not None:
        return int(status.group(1)), ""
    try:
        code = json.loads(text)["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return 0, short(text)
    return HTTP_STATUS.get(code, 0), ""


@asynccontextmanager
async def three_ways(
    token: str, scratch: Path
) -> AsyncIterator[Callable[[str, JSONObject], Awaitable[dict[str, Verdict]]]]:
    """The three ways, each on its own fresh database in ``scratch``; yields ``answer(name, arguments)``.

    ``answer`` sends one request the function way, through the OpenAPI router, and as an MCP
    ``tools/call`` to the server generated from the document, each through the loop's own
    execution step (``engine/execute``: routing, the argument checks, the call); each answer
    becomes a verdict.
    """
    from lessons_lib.core.plugins.apitypes import ToolCall
    from lessons_lib.core.traces.trace import Trace
    from lessons_lib.engine.apptools import AppTool, AppTools, app_tool
    from lessons_lib.engine.execute import Route, ServiceSpec, connect, execute_calls
    from lessons_lib.engine.models import offline_setting
    from lessons_lib.examples.openapi.mcp_server import build_openapi_server
    from lessons_lib.examples.openapi.router import open_order_api
    from lessons_lib.examples.openapi.tools import responses_tool

    dbs = [orderdata.create_database(scratch / f"{way}.sqlite3", replace=True) for way in WAY_NAMES]
    async with AsyncExitStack() as stack:
        router = await stack.enter_async_context(open_order_api(token, dbs[1]))
        behind = await stack.enter_async_context(open_order_api(token, dbs[2]))

        async def function(name: str, arguments: JSONObject) -> tuple[str, bool]:
            return direct_call(dbs[0], name, arguments)

        async def routed(name: str, arguments: JSONObject) -> tuple[str, bool]:
            answer = await router.call(name, dict(arguments))
            return answer.text, answer.is_error

        write = AppTool("create_investigation", "Open an investigation of one order.", _CREATE_PARAMETERS)
        services: dict[str, ServiceSpec] = {
            "function": AppTools((app_tool(GET_ORDER_DECLARATION), write), function),
            "openapi": AppTools(
                tuple(app_tool(responses_tool(op)) for op in router.operations.values()), routed
            ),
            "mcp": lambda name: build_openapi_server(behind, name),
        }
        trace = Trace(task="three ways", model=offline_setting().public())  # the frames land here
        connected, declared = await connect(stack, services, trace)
        routes: dict[str, dict[str, Route]] = {way: {} for way in WAY_NAMES}
        for d in declared:
            routes[d.service][d.tool] = Route(d.alias, d.service, d.tool)

        async def answer(name: str, arguments: JSONObject) -> dict[str, Verdict]:
            answers = {}
            for way in WAY_NAMES:
                call = ToolCall(f"call_{way}_{len(trace.links)}", name, dict(arguments))
                aliased = {name: routes[way][name]} if name in routes[way] else {}
                (result,) = await execute_calls([call], aliased, connected, CALL_TIMEOUT, trace)
                answers[way] = verdict(result.output, result.is_error)
            return answers

        yield answer
