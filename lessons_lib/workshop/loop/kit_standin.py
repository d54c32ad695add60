"""The trusted side of a lesson-11 run: the scripted stand-in and the services. Lesson 11.

The grader's hidden cases need moves the task text alone does not give: a call with arguments
that are not JSON, an alias nobody declared, calls to two services in one reply, a model that
never stops calling. :class:`MovesModel` is the offline stand-in (``OfflineModel``, a rule
program, not a language model) whose first reply is a fixed list of ``(alias, arguments text)``
moves; its answers are the stand-in's own. :func:`service_server` builds the real MCP servers a
case runs: the file service, the order desk on a fresh SQLite copy, or the file service with a
fault (a JSON-RPC error instead of a result). A real model may of course call other tools, in
another order, or answer differently: the cases are what a real model *can* do.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final, cast

import httpx2

from lessons_lib.apis.responses.standin import OfflineModel
from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.messages import t
from lessons_lib.engine.standins.rules import Script

if TYPE_CHECKING:
    from mcp.server import Server

Moves = tuple[tuple[str, str], ...]
"""The stand-in's first reply: ``(alias, arguments text)`` per ``function_call``, in order."""

FAULT_MESSAGE: Final = "Service temporarily unavailable: the file service is restarting, try again later"
FAULTS: Final = ("unavailable",)
"""Faults a case may inject: ``unavailable`` answers every ``tools/call`` with JSON-RPC -32603."""


@dataclass
class MovesModel(OfflineModel):
    """The Responses stand-in with a scripted first reply (``moves``); else as ``OfflineModel``."""

    moves: Moves = ()

    def _calls(self, body: JSONObject, items: list[JSONObject]) -> list[JSONObject]:
        choice = body.get("tool_choice", "auto")
        if not self.moves or choice == "none":
            return super()._calls(body, items)
        calls: list[JSONObject] = [
            {
                "type": "function_call",
                "id": f"fc_offline_{self.turns:03d}_{n}",
                "call_id": f"call_offline_{self.turns:03d}_{n}",
                "name": alias,
                "arguments": arguments,
                "status": "completed",
            }
            for n, (alias, arguments) in enumerate(self.moves, start=1)
        ]
        return ([self._message(self.script.preamble)] if self.script.preamble else []) + calls


@dataclass
class Capped(httpx2.AsyncBaseTransport):
    """The stand-in, refusing (HTTP 429) once a run has made more requests than a loop should."""

    inner: OfflineModel
    limit: int
    runaway: bool = False

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        if self.inner.turns >= self.limit:
            self.runaway = True
            error = {
                "message": t("engine.runaway", n=self.limit),
                "type": "rate_limit_error",
                "param": None,
                "code": None,
            }
            return httpx2.Response(429, json={"error": error}, request=request)
        return await self.inner.handle_async_request(request)


@dataclass(frozen=True)
class TrustedSide:
    """A lesson-11 run's trusted side: ``workbench``'s options (a case's ``bench_options``)."""

    root: str | Path | None = None
    script: Script | None = None
    max_requests: int = 8
    services: tuple[str, ...] = ("fs",)
    moves: Moves = ()
    fault: str | None = None
    bare_success: bool = False
    """The learner's ``ToolService`` gets successes without ``isError`` (optional in every MCP revision)."""

    def standin(self) -> Capped:
        """A fresh stand-in for one run: the scripted moves behind the request cap."""
        return Capped(MovesModel(script=self.script or Script(), moves=self.moves), self.max_requests)

    def server(self, name: str) -> Server:
        """A fresh MCP server of service ``name`` with the fault injected."""
        return service_server(name, Path(self.root) if self.root is not None else None, self.fault)


def service_server(name: str, root: Path | None = None, fault: str | None = None) -> Server:
    """The real MCP server of service ``name`` (the order desk, or the file service under any other
    name, on ``root``), with ``fault`` injected into the file service."""
    from lessons_lib.core.plugins.serviceregistry import service_for

    service = service_for(name)  # found by its folder's entry
    if service.folder is None:
        return cast("Server", service.server(name))
    if fault is not None:
        return _faulty_files(name, fault)
    return cast("Server", service.folder(root, name))


def _faulty_files(name: str, fault: str) -> Server:
    """The file service's declaration, but every call meets the fault (a protocol error)."""
    import mcp_types as types
    from mcp.server.context import ServerRequestContext
    from mcp.shared.exceptions import MCPError

    from lessons_lib.services.files.service import build_server

    if fault not in FAULTS:
        raise ValueError(f"unknown fault {fault!r}; known: {', '.join(FAULTS)}")

    async def on_call(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
        raise MCPError(code=types.INTERNAL_ERROR, message=FAULT_MESSAGE)

    return build_server(name=name, on_call=on_call)


def listed_tools(name: str, fault: str | None = None) -> list[JSONObject]:
    """The grader's own copy of service ``name``'s ``tools/list`` (wire JSON, camelCase).

    Asked once per service over the SDK's own client, on a fresh server of its own: never the
    listing the learner's code received (which it could have changed).
    """
    import json

    key = (name, fault)
    if key not in _LISTED:
        from anyio.from_thread import start_blocking_portal
        from mcp import Client

        async def ask() -> str:
            async with Client(service_server(name, fault=fault)) as client:
                result = await client.list_tools()
            return str(result.model_dump_json(by_alias=True, exclude_none=True))

        with start_blocking_portal() as portal:  # also from a thread with a running loop (Jupyter)
            _LISTED[key] = portal.call(ask)
    return list(json.loads(_LISTED[key])["tools"])


_LISTED: dict[tuple[str, str | None], str] = {}
