"""The order desk: a second MCP service, over a real SQLite database. Introduced in lesson 30.

Built on the low-level ``mcp.server.Server`` like the file service. The SDK does not check
arguments against ``inputSchema`` (GUIDE section 5), so the desk does it itself with
``jsonschema`` against its own declaration, then runs the business checks (session access,
existence, order state, idempotency). Every refusal is a tool execution error (``isError``)
whose ``structuredContent`` carries ``status: "error"`` and an ``error`` object, decided
before any row is written; an exception inside a handler becomes ``code: "internal"``.

Knobs for the lessons on failures (31-33): ``delays`` (seconds a handler waits before it
works: concurrency and timeouts), ``faults`` (tools whose handler always raises) and
``flaky`` (tools whose next N calls raise: a transient outage).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final, TypedDict

import lessons_lib.services.orders.data as od
from lessons_lib.core.echo import hostile, short, violation
from lessons_lib.services.orders.rules import (
    SESSION_CUSTOMER,
    DeskError,
    check_session,
    open_investigation,
    visible_order,
)
from lessons_lib.services.orders.tools import SERVICE, WRITE_TOOLS, JSONDict, declarations

if TYPE_CHECKING:
    from jsonschema.protocols import Validator
    from mcp.server import Server
    from mcp.server.context import ServerRequestContext

__all__ = ["DeskOptions", "OrderDesk", "build_server", "is_write"]

_EXAMPLE_VALUES: Final = {"order_id": "O-1042", "waybill_no": "WB-77042"}


class DeskOptions(TypedDict, total=False):
    """The keyword options of :class:`OrderDesk` (``desk=`` of ``run_orders``)."""

    customer_id: str
    idempotency_key: bool
    delays: Mapping[str, float]
    faults: frozenset[str]
    flaky: dict[str, int]


@dataclass
class OrderDesk:
    """The desk's logic over one database file, for one session customer (lesson 30)."""

    db_path: Path
    customer_id: str = SESSION_CUSTOMER
    idempotency_key: bool = True
    delays: Mapping[str, float] = field(default_factory=dict)
    faults: frozenset[str] = frozenset()
    flaky: dict[str, int] = field(default_factory=dict)
    """Tool -> how many of its next calls fail (then it works): a transient outage."""
    tools: list[JSONDict] = field(init=False)

    def __post_init__(self) -> None:
        from lessons_lib.engine.schemacheck import ecma_validator

        self.tools = declarations(idempotency_key=self.idempotency_key)
        self._by_name = {t["name"]: t for t in self.tools}
        # compiled once, when the desk starts: no call pays for importing or compiling them
        self._validators = {t["name"]: ecma_validator(t["input"]) for t in self.tools}

    def call(self, name: str, arguments: Mapping[str, object]) -> tuple[JSONDict, bool]:
        """Run one tool on ``arguments``; return ``(structured result, is_error)``."""
        tool = self._by_name.get(name)
        if tool is None:
            raise KeyError(name)
        try:
            check_arguments(self._validators[name], arguments)
            if name in self.faults or self.flaky.get(name, 0) > 0:
                self.flaky[name] = self.flaky.get(name, 1) - 1
                raise RuntimeError(f"injected fault in {name}")
            with closing(od.connect(self.db_path)) as conn:  # one short-lived connection per call
                check_session(conn, self.customer_id)
                result = getattr(self, f"_{name}")(conn, dict(arguments))
            return result, False
        except DeskError as refusal:
            return self.error_result(name, refusal.code, refusal.message), True
        except Exception as exc:  # a bug or an outage: isError, never a crash, never a traceback
            message = f"the order desk failed ({type(exc).__name__}); nothing was written, try again later"
            return self.error_result(name, "internal", message), True

    def error_result(self, name: str, code: str, message: str) -> JSONDict:
        """The result shape for a refusal: every field of the output schema, ``status: error``."""
        fields = self._by_name[name]["output"]["properties"]
        result: JSONDict = {key: None for key in fields}
        if "items" in result:
            result["items"] = []
        result.update(status="error", error={"code": code, "message": message})
        return result

    def _order(self, conn: sqlite3.Connection, order_id: str) -> od.OrderRow:
        # Another customer's order reads as missing: the desk never confirms that it exists.
        return visible_order(conn, order_id, self.customer_id)

    def _get_order(self, conn: sqlite3.Connection, args: JSONDict) -> JSONDict:
        order = self._order(conn, args["order_id"])
        public = _pick(order, "order_id", "status", "region", "item", "total_cents", "waybill_no")
        return {"status": "ok", "order": public, "evidence": _evidence(order), "error": None}

    def _track_shipment(self, conn: sqlite3.Connection, args: JSONDict) -> JSONDict:
        shipment = od.fetch_shipment(conn, args["waybill_no"])
        if shipment is None:
            raise DeskError("not_found", f"no waybill {args['waybill_no']}; take the number from get_order")
        self._order(conn, shipment["order_id"])  # the waybill of another customer's order reads as missing
        public = _pick(shipment, "waybill_no", "order_id", "carrier", "status", "last_event")
        evidence = {"waybill_no": shipment["waybill_no"], "updated_at": shipment["updated_at"]}
        return {"status": "ok", "shipment": public, "evidence": evidence, "error": None}

    def _search_delivery_policy(self, conn: sqlite3.Connection, args: JSONDict) -> JSONDict:
        page = od.search_policies(
            conn, args["topic"], args.get("region"), args.get("page", 1), args.get("page_size", 2)
        )
        paging = _pick(page, "page", "page_size", "total", "truncated", "next_page")
        return {"status": "ok", "items": page["items"], "paging": paging, "error": None}

    def _create_investigation(self, conn: sqlite3.Connection, args: JSONDict) -> JSONDict:
        order, row, created = open_investigation(
            conn,
            self.customer_id,
            args["order_id"],
            args["reason"],
            args["note"],
            args.get("idempotency_key"),
        )
        return {
            "status": "created" if created else "replayed",
            "investigation": dict(row),
            "evidence": _evidence(order),
            "error": None,
        }


def check_arguments(validator: Validator, arguments: Mapping[str, object]) -> None:
    """Validate against the tool's own inputSchema (draft 2020-12, ECMA-262 patterns) or DeskError.

    The message names the field and what it must be; it quotes no more than a short prefix of
    the value (:mod:`lessons_lib.core.echo`), whatever was sent.
    """
    from jsonschema.exceptions import best_match

    found = hostile(dict(arguments), "arguments")
    if found is not None:
        raise DeskError("invalid_arguments", f"Invalid arguments: {found}")
    error = best_match(validator.iter_errors(dict(arguments)))
    if error is None:
        return
    where = ".".join(str(p) for p in error.absolute_path)
    hint = f" (for example {_EXAMPLE_VALUES[where]})" if where in _EXAMPLE_VALUES else ""
    raise DeskError("invalid_arguments", f"Invalid arguments: {violation(error)}{hint}")


def _pick(row: Mapping[str, object], *keys: str) -> JSONDict:
    return {key: value for key, value in row.items() if key in keys}


def _evidence(order: od.OrderRow) -> JSONDict:
    return {
        "order_id": order["order_id"],
        "order_version": order["version"],
        "updated_at": order["updated_at"],
    }


def build_server(desk: OrderDesk, name: str = SERVICE) -> Server:
    """A low-level MCP server exposing the desk's tools (lesson 30)."""
    import anyio
    import mcp_types as types
    from mcp.server import Server
    from mcp.shared.exceptions import MCPError

    from lessons_lib.services.orders.listing import listed_tools

    listed = listed_tools(desk.tools)

    async def on_list_tools(
        ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def on_call_tool(
        ctx: ServerRequestContext, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        if params.name not in {t.name for t in listed}:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {short(params.name)}")
        delay = desk.delays.get(params.name, 0.0)
        if delay:
            await anyio.sleep(delay)  # a slow back end: other calls run meanwhile
        # The desk's own work (one short sqlite3 query) runs on the event loop: calls that arrive
        # together finish in the order they arrived, so a trace's message order is the same every run.
        structured, is_error = desk.call(params.name, params.arguments or {})
        text = json.dumps(structured, ensure_ascii=False)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)],
            structured_content=structured,
            is_error=is_error,
        )

    return Server(name, version="1.0.0", on_list_tools=on_list_tools, on_call_tool=on_call_tool)


def is_write(tool: str) -> bool:
    """True for a tool that changes data, by the application's own list (lesson 33)."""
    return tool in WRITE_TOOLS


def fresh_server(name: str = SERVICE) -> Server:
    """The desk's MCP server on a fresh database of its own (lesson 11's two-service workbench)."""
    return build_server(OrderDesk(od.create_database()), name)
