"""The learner's MCP connection shares its write side with the SDK's session. Lesson 11.

``SharedWire`` wraps a :class:`~lessons_lib.engine.wire.FramedTransport`: the SDK's session
(``initialize``, ``tools/list``) and the learner's own ``tools/call`` frames go over the same
JSON-RPC wire, so the service's recorder sees every frame in order.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Final, TypeAlias

import anyio
from anyio.abc import ObjectReceiveStream, ObjectSendStream

from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.messages import t
from lessons_lib.engine.wire import FramedTransport, to_wire

if TYPE_CHECKING:
    from mcp.shared.message import SessionMessage

Incoming: TypeAlias = "SessionMessage | Exception"
Streams: TypeAlias = "tuple[ObjectReceiveStream[Incoming], ObjectSendStream[SessionMessage]]"

REPLY_TIMEOUT: Final = 10.0


class SharedWire:
    """A framed MCP transport whose write side the learner shares with the SDK's session.

    Replies to the learner's own requests are taken off the wire before the session sees
    them (the session would drop an id it did not send). The SDK has no such hook.
    """

    def __init__(self, inner: FramedTransport) -> None:
        self._inner = inner
        self._waiting: dict[str, ObjectSendStream[JSONObject]] = {}
        self._write: ObjectSendStream[SessionMessage] | None = None
        self._cm: AbstractAsyncContextManager[Streams] | None = None

    async def __aenter__(self) -> Streams:
        self._cm = self._open()
        return await self._cm.__aenter__()

    async def __aexit__(self, *exc: object) -> None:
        if self._cm is not None:
            await self._cm.__aexit__(None, None, None)

    @asynccontextmanager
    async def _open(self) -> AsyncIterator[Streams]:
        async with self._inner as (read, write):
            self._write = write
            to_session, session_read = anyio.create_memory_object_stream[Incoming](16)
            async with anyio.create_task_group() as tg:
                tg.start_soon(self._pump, read, to_session)
                try:
                    yield session_read, write
                finally:
                    tg.cancel_scope.cancel()

    async def _pump(
        self, read: ObjectReceiveStream[Incoming], to_session: ObjectSendStream[Incoming]
    ) -> None:
        async with to_session:
            async for item in read:
                frame = {} if isinstance(item, Exception) else json.loads(to_wire(item.message))
                waiter = None if "method" in frame else self._waiting.pop(json.dumps(frame.get("id")), None)
                if waiter is not None:
                    await waiter.send(frame)
                else:
                    await to_session.send(item)

    async def request(self, frame: JSONObject) -> JSONObject:
        """Send one JSON-RPC request as written and wait for the reply with its id."""
        from mcp.shared.message import SessionMessage
        from mcp_types import jsonrpc_message_adapter

        key = json.dumps(frame.get("id"))
        if key in self._waiting:
            raise ValueError(t("engine.wire.busy_id", key=key))
        message = SessionMessage(jsonrpc_message_adapter.validate_python(frame))
        send, receive = anyio.create_memory_object_stream[JSONObject](1)
        self._waiting[key] = send
        assert self._write is not None
        try:
            await self._write.send(message)
            with anyio.fail_after(REPLY_TIMEOUT):
                return await receive.receive()
        except TimeoutError:
            raise TimeoutError(t("engine.wire.timeout", seconds=REPLY_TIMEOUT, key=key)) from None
        finally:
            self._waiting.pop(key, None)
            send.close()
            receive.close()
