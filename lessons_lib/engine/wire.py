"""In-process MCP connection with real JSON-RPC framing, and a frame recorder.

Introduced in lesson 05. ``mcp.Client(server)`` in its default mode dispatches straight into
the server without any JSON-RPC; to show the frames a real transport carries, this module runs
the server on memory streams and passes every message through its wire form: serialised to
JSON text exactly as the stdio transport does, recorded, then parsed back. The SDK offers no
such tap, so it is written here.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from types import TracebackType
from typing import TYPE_CHECKING, TypeAlias

import anyio
from anyio.abc import ObjectReceiveStream, ObjectSendStream

from lessons_lib.core.jsonvalue import JSONObject

if TYPE_CHECKING:
    from mcp.server import Server
    from mcp.shared.message import SessionMessage
    from mcp_types import JSONRPCMessage

FrameSink = Callable[[str, JSONObject], object]
"""Called as ``sink(direction, frame)``; direction is ``"to_service"`` or ``"to_application"`` (what it
returns is not used here; the application's sink returns the trace event it wrote)."""

Item: TypeAlias = "SessionMessage | Exception"
"""What an MCP stream carries: a message, or the error a transport met reading one."""
Streams: TypeAlias = (
    "tuple[ObjectReceiveStream[SessionMessage | Exception], ObjectSendStream[SessionMessage]]"
)

_BUFFER = 16


class ConnectingTransport:
    """An MCP client transport as the SDK takes one: entering opens ``_connect()``, exiting closes it."""

    _cm: AbstractAsyncContextManager[Streams] | None = None

    def _connect(self) -> AbstractAsyncContextManager[Streams]:
        raise NotImplementedError

    async def __aenter__(self) -> Streams:
        self._cm = self._connect()
        return await self._cm.__aenter__()

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._cm is not None:
            await self._cm.__aexit__(exc_type, exc, tb)
            self._cm = None


class FramedTransport(ConnectingTransport):
    """An MCP client transport to an in-process server; every frame goes through JSON text."""

    def __init__(self, server: Server, sink: FrameSink) -> None:
        self._server = server
        self._sink = sink

    @asynccontextmanager
    async def _connect(self) -> AsyncIterator[Streams]:
        client_out_send, client_out_recv = anyio.create_memory_object_stream[Item](_BUFFER)
        client_in_send, client_in_recv = anyio.create_memory_object_stream[Item](_BUFFER)
        server_in_send, server_in_recv = anyio.create_memory_object_stream[Item](_BUFFER)
        server_out_send, server_out_recv = anyio.create_memory_object_stream[Item](_BUFFER)
        server = self._server
        async with anyio.create_task_group() as tg:
            tg.start_soon(self._relay, client_out_recv, server_in_send, "to_service")
            tg.start_soon(self._relay, server_out_recv, client_in_send, "to_application")
            tg.start_soon(self._serve, server, server_in_recv, server_out_send)
            try:
                yield client_in_recv, client_out_send
            finally:
                await client_out_send.aclose()
                with anyio.move_on_after(2):
                    await client_in_recv.aclose()
                tg.cancel_scope.cancel()

    @staticmethod
    async def _serve(server: Server, read: ObjectReceiveStream[Item], write: ObjectSendStream[Item]) -> None:
        async with read, write:
            await server.run(read, write, server.create_initialization_options())

    async def _relay(
        self, source: ObjectReceiveStream[Item], dest: ObjectSendStream[Item], direction: str
    ) -> None:
        await relay_frames(source, dest, direction, self._sink)


async def relay_frames(
    source: ObjectReceiveStream[Item],
    dest: ObjectSendStream[Item],
    direction: str,
    sink: FrameSink,
    *,
    keep_metadata: bool = False,
) -> None:
    """Pass every message from ``source`` to ``dest`` through its JSON text, which ``sink`` records.

    Also the tap of the HTTP transport (:mod:`lessons_lib.engine.http.client`, lesson 60): the frames
    a run records are the same over stdio, in process and over HTTP. ``keep_metadata`` passes on
    what the SDK's HTTP transport attaches to a message (which request a reply belongs to).
    """
    from mcp.shared.message import SessionMessage
    from mcp_types import jsonrpc_message_adapter

    async with source, dest:
        async for item in source:
            if isinstance(item, Exception):
                await dest.send(item)
                continue
            text = to_wire(item.message)
            sink(direction, json.loads(text))
            message = jsonrpc_message_adapter.validate_json(text, by_name=False)
            await dest.send(SessionMessage(message, metadata=item.metadata if keep_metadata else None))


def to_wire(message: JSONRPCMessage) -> str:
    """The JSON text of one JSON-RPC message, spelled as the SDK's stdio transport writes it.

    A message that holds a lone surrogate (``"\\ud800"``: valid JSON text, but no UTF-8 string)
    cannot be written; that is a ``ValueError`` saying so, not pydantic's serialiser error. The
    application refuses such arguments before they get here (``execute.parse_arguments``).
    """
    from pydantic_core import PydanticSerializationError

    try:
        return str(message.model_dump_json(by_alias=True, exclude_unset=True))
    except PydanticSerializationError:
        raise ValueError(
            "a JSON-RPC message holds a lone surrogate (\\ud800-\\udfff), which UTF-8 cannot carry;"
            " it was not sent"
        ) from None
