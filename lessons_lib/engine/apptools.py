"""Tools the application runs itself, with no MCP service between: a service of the one loop. Lesson 40.

Lesson 40 runs one task three ways. Two of them have no MCP server: the application calls a
Python function it wrote, or the OpenAPI router that sends one HTTP request. Both still go
through the one loop (:func:`lessons_lib.engine.host.arun_chain`), so the key cleaning, the
caps, the SDK error mapping and the one-line failures hold for them: a :class:`AppTools` is
given in ``services`` like a folder or a server factory. Its tools are declared under their own
names (the application wrote them, there is no service to prefix), its calls are routed,
parsed and refused by the loop as every call is, and ``call(name, arguments)`` returns the
feedback text and whether it failed. There is no JSON-RPC: the link's ``mcp_id`` stays None.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import cast

import anyio

from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.traces.tracetypes import CallRecord
from lessons_lib.engine.adapters import Declared, marked

AppCall = Callable[[str, JSONObject], Awaitable[tuple[str, bool]]]
"""``call(tool name, arguments object) -> (feedback text, is_error)``: the application's own step."""


@dataclass(frozen=True)
class AppTool:
    """One tool the application declares itself: its name, description and ``parameters`` rule."""

    name: str
    description: str
    parameters: JSONObject


@dataclass(frozen=True)
class AppTools:
    """A service of the loop made of the application's own code (no MCP): tools and how to call them."""

    tools: tuple[AppTool, ...]
    call: AppCall

    def declared(self, service: str) -> list[Declared]:
        """The tools as the loop declares them: under their own names (no ``<service>__`` alias)."""
        return [Declared(t.name, service, t.name, t.description, dict(t.parameters)) for t in self.tools]


def app_tool(declaration: JSONObject) -> AppTool:
    """An :class:`AppTool` from a Responses ``function`` declaration (name, description, parameters)."""
    parameters = declaration.get("parameters")
    return AppTool(
        str(declaration["name"]),
        str(declaration.get("description") or ""),
        dict(parameters) if isinstance(parameters, dict) else {},
    )


class AppService:
    """The loop's side of an :class:`AppTools` service (as ``execute.Service`` is of an MCP one)."""

    def __init__(self, name: str, tools: AppTools) -> None:
        self.name, self.tools = name, tools

    async def call(
        self, tool: str, args: dict[str, object], timeout: float, link: CallRecord, sending: anyio.Lock
    ) -> tuple[str, bool]:
        """Run one call: (feedback text, marked if it failed, and is_error); no JSON-RPC id."""
        try:
            with anyio.fail_after(timeout):
                text, is_error = await self.tools.call(tool, cast(JSONObject, args))  # parsed JSON
        except TimeoutError:
            text, is_error = f"the application's tool did not finish within {timeout:g} s", True
        return marked(text, is_error), is_error
