"""A fuzzy order search as the alternative to asking for a missing id (seed 003). Lesson 33.

Seed 003, trap 2: a model is good at structure and bad at guessing real ids; either tell it to
ask the user, or give it a fuzzy search tool so that it searches first and then looks up. This
module is that second way, kept apart from the order desk's four declarations: a service of
its own (``finder``) with one read-only tool, ``find_orders(keyword)``, over the same SQLite
database and the same session customer. :func:`run_finder` runs a task through the one loop
with the desk *and* the finder, so the stand-in can search before it calls ``get_order``.

Matching uses the standard library's :mod:`difflib` (a similarity ratio) plus a substring test;
no fuzzy-matching package is installed in the course's environment.
"""

from __future__ import annotations

import json
from contextlib import closing
from difflib import SequenceMatcher
from pathlib import Path
from typing import TYPE_CHECKING, Final, Unpack

import lessons_lib.services.orders.data as od
from lessons_lib.services.orders.rules import SESSION_CUSTOMER
from lessons_lib.services.orders.tools import JSONDict
from lessons_lib.services.orders.wiretext import FIND_TASK

if TYPE_CHECKING:
    from mcp.server import Server
    from mcp.server.context import ServerRequestContext

    from lessons_lib.examples.orders.run import OrdersRun, RunOptions

FINDER: Final = "finder"

MIN_RATIO: Final = 0.5
FIND_ORDERS: Final[JSONDict] = {
    "name": "find_orders",
    "title": "按商品模糊查找订单",
    "description": (
        "按商品名（可以不完整）模糊查找当前客户的订单，返回候选的订单号、商品和状态。"
        "当用户没有给订单号、但说了买的是什么时调用，然后用候选的订单号调用 get_order。"
        "候选不止一个时请用户选，不要自己挑；不要拿它查物流或政策。"
    ),
    "input": {
        "type": "object",
        "properties": {
            "keyword": {
                "type": "string",
                "minLength": 1,
                "maxLength": 20,
                "description": "商品名或其中几个字",
            }
        },
        "required": ["keyword"],
        "additionalProperties": False,
    },
}


def find_orders(db_path: Path, keyword: str, customer_id: str = SESSION_CUSTOMER) -> list[dict[str, str]]:
    """The session customer's orders whose item looks like ``keyword``, best match first (lesson 33)."""
    with closing(od.connect(db_path)) as conn:
        rows = conn.execute(
            "SELECT order_id, item, status FROM orders WHERE customer_id = ? ORDER BY order_id",
            (customer_id,),
        ).fetchall()
    scored = []
    for order_id, item, status in rows:
        ratio = 1.0 if keyword in item else SequenceMatcher(None, keyword, item).ratio()
        if ratio >= MIN_RATIO:
            scored.append((-ratio, order_id, {"order_id": order_id, "item": item, "status": status}))
    return [match for _, _, match in sorted(scored)]


def finder_server(db_path: Path, name: str = FINDER) -> Server:
    """The finder as a low-level MCP server: one tool, arguments checked, errors as ``isError``."""
    import mcp_types as types
    from mcp.server import Server

    tool = types.Tool(
        name=FIND_ORDERS["name"],
        title=FIND_ORDERS["title"],
        description=FIND_ORDERS["description"],
        input_schema=FIND_ORDERS["input"],
        annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
    )

    async def on_list_tools(
        ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool])

    async def on_call_tool(
        ctx: ServerRequestContext, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        keyword = (params.arguments or {}).get("keyword")
        if params.name != tool.name or not isinstance(keyword, str) or not 1 <= len(keyword) <= 20:
            error = {"code": "invalid_arguments", "message": "keyword must be 1 to 20 characters"}
            result: JSONDict = {"status": "error", "items": [], "error": error}
        else:
            result = {"status": "ok", "items": find_orders(db_path, keyword), "error": None}
        text = json.dumps(result, ensure_ascii=False)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)],
            structured_content=result,
            is_error=result["status"] == "error",
        )

    return Server(name, version="1.0.0", on_list_tools=on_list_tools, on_call_tool=on_call_tool)


def run_finder(task: str = FIND_TASK, **kwargs: Unpack[RunOptions]) -> OrdersRun:
    """Run ``task`` with the order desk and the finder on one fresh database (lesson 33)."""
    from lessons_lib.examples.orders.run import run_orders

    path = od.create_database()
    services = {FINDER: lambda name: finder_server(path, name)}
    return run_orders(task, **(kwargs | {"db_path": path, "services": services}))
