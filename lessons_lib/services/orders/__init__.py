"""The order desk service: data, rules, tools, the MCP server and its stand-in (lessons 30-33, 40, 50).

``ENTRY`` declares it: one server definition
(:func:`~lessons_lib.services.orders.service.build_server`), built on a fresh database.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lessons_lib.core.plugins.serviceregistry import ServiceEntry

if TYPE_CHECKING:
    from mcp.server import Server


def server(name: str | None = None) -> Server:
    """The desk's MCP server on a fresh database of its own, under service ``name`` (None: ``orders``)."""
    from lessons_lib.services.orders.service import fresh_server

    return fresh_server() if name is None else fresh_server(name)


ENTRY = ServiceEntry("orders", "the order desk: orders, delivery policy, investigations", "30-33", server)
