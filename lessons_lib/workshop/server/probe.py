"""Talk to a learner's MCP server with the official client, recording every frame. Lesson 12.

Two ways to reach the server, both through real JSON-RPC frames and ``mcp.Client`` in legacy
mode (``initialize``, as every host of the 2025 revisions does):

- :func:`memory_probe`: the server object built in this process (``MCPServer`` or a
  low-level ``Server``), on memory streams (:class:`~lessons_lib.engine.wire.FramedTransport`).
  This is what the notebook uses: it works on every platform, Windows included, where the
  SDK's stdio client fails inside a Jupyter kernel (modelcontextprotocol/python-sdk#1103: the kernel's
  ``sys.stderr`` has no file descriptor to hand to the child process).
- :func:`stdio_probe`: the learner's file started as a subprocess (``python FILE FOLDER``),
  as a host starts it; the child's stderr goes to a temporary file (a real descriptor, so
  this also works from a kernel), and every stdout line that is not a JSON-RPC message is
  recorded (the SDK's client only logs it).

A :class:`Probe` sends one request at a time and returns the reply *frame* (a ``result`` or an
``error``), so the grader judges what was on the wire, not what the client made of it.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final, cast

import anyio

from lessons_lib.core.jsonvalue import JSONObject

if TYPE_CHECKING:
    from mcp import Client
    from mcp.client._transport import ReadStream, WriteStream
    from mcp.server import Server
    from mcp.shared.message import SessionMessage

    from lessons_lib.engine.wire import Streams

REPLY_TIMEOUT: Final = 5.0
"""Seconds a request may wait for its reply before the grader calls it lost."""
START_TIMEOUT: Final = 30.0
"""Seconds a subprocess may take to answer ``initialize`` (importing the SDK takes a few)."""


@dataclass
class Probe:
    """One connection: the frames both ways, the stray stdout lines, and the client."""

    client: Client | None = None
    frames: list[tuple[str, JSONObject]] = field(default_factory=list)
    stray: list[str] = field(default_factory=list)
    """stdout lines (stdio only) that were not JSON-RPC messages."""
    stderr: str = ""
    timeout: float = REPLY_TIMEOUT
    start_timeout: float = START_TIMEOUT
    """Seconds ``initialize`` may take over stdio (``grade-server --timeout`` sets it too)."""
    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)
    """Cancelled when a stray line swallowed a frame: a reply is then lost for certain."""
    spoiled: str | None = None

    def sink(self, direction: str, frame: JSONObject) -> None:
        self.frames.append((direction, frame))

    async def request(self, method: str, params: JSONObject | None = None) -> JSONObject:
        """Send one request through the client; the reply frame, or ``{"lost": why}``."""
        from mcp.shared.exceptions import MCPError

        assert self.client is not None
        before = len(self.frames)
        try:
            with anyio.fail_after(self.timeout):
                if method == "tools/list":
                    await self.client.list_tools()
                else:
                    p = params or {}
                    await self.client.call_tool(str(p.get("name")), p.get("arguments"))  # type: ignore[arg-type]
        except TimeoutError:
            return {"lost": f"no reply within {self.timeout:g} s"}
        except (MCPError, RuntimeError, ValueError):  # judged from the frame below
            pass
        except Exception as exc:  # noqa: BLE001  (a broken connection is a verdict, not a crash)
            return {"lost": f"{type(exc).__name__}: {exc}".splitlines()[0][:200]}
        sent = [f for d, f in self.frames[before:] if d == "to_service" and f.get("method") == method]
        if not sent:
            return {"lost": "the request was not sent"}
        replies = [
            f for d, f in self.frames[before:] if d == "to_application" and f.get("id") == sent[-1]["id"]
        ]
        return replies[-1] if replies else {"lost": "no reply frame with the request's id"}


def lowlevel(server: object) -> Server:
    """The low-level ``Server`` behind an ``MCPServer`` (the SDK's own in-memory transport does this)."""
    inner = getattr(server, "_lowlevel_server", server)
    if not (hasattr(inner, "run") and hasattr(inner, "create_initialization_options")):
        raise TypeError(f"not an MCP server: {type(server).__name__}")
    return cast("Server", inner)


@contextmanager
def quiet_logging() -> Iterator[None]:
    """Keep the SDK's log setup out of the caller's process (and out of notebook outputs).

    ``MCPServer()`` calls ``logging.basicConfig`` (a handler on the root logger) and the stdio
    client logs every stray line with a traceback; both are undone or silenced here.
    """
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    client_log = logging.getLogger("mcp.client.stdio")
    saved_client = client_log.disabled
    client_log.disabled = True
    try:
        yield
    finally:
        root.handlers[:], client_log.disabled = saved[0], saved_client
        root.setLevel(saved[1])


@asynccontextmanager
async def memory_probe(server: object, probe: Probe) -> AsyncIterator[Probe]:
    """Connect to a server object of this process over framed memory streams."""
    from mcp import Client

    from lessons_lib.engine.wire import FramedTransport

    transport = FramedTransport(lowlevel(server), probe.sink)
    async with Client(transport, mode="legacy", read_timeout_seconds=probe.timeout) as client:
        probe.client = client
        yield probe


@asynccontextmanager
async def stdio_probe(
    file: Path, root: Path, probe: Probe, *, module: bool = False, args: tuple[str, ...] = ()
) -> AsyncIterator[Probe]:
    """Start ``python FILE ROOT`` (or ``python -m MODULE ROOT``) and connect over its stdio.

    The child gets a small environment (the SDK's default: no keys of the caller), plus
    ``PYTHONPATH`` and ``PYTHONUNBUFFERED=1``: a ``print`` then reaches the pipe at once, as in
    a server that flushes, instead of waiting in a buffer to spoil a frame at some later moment.
    """
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    env = {"PYTHONUNBUFFERED": "1", "PYTHONIOENCODING": "utf-8"}
    here = str(Path(__file__).resolve().parents[3])  # so ``-m lessons_lib...`` finds this package
    env["PYTHONPATH"] = os.pathsep.join(
        [here, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    )
    argv = ["-m", str(file)] if module else [str(file)]
    params = StdioServerParameters(command=sys.executable, args=[*argv, str(root), *args], env=env)
    with tempfile.TemporaryFile("w+", encoding="utf-8") as errlog:
        try:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with _tapped(read, write, probe) as streams:
                    client = Client(
                        _Streams(streams), mode="legacy", read_timeout_seconds=probe.start_timeout
                    )
                    async with client:
                        probe.client = client
                        yield probe
        finally:
            errlog.seek(0)
            probe.stderr = errlog.read()


class _Streams:
    """Already-open streams as a client transport (an async context manager yielding them)."""

    def __init__(self, streams: Streams) -> None:
        self._streams = streams

    async def __aenter__(self) -> Streams:
        return self._streams

    async def __aexit__(self, *exc: object) -> None:
        return None


@asynccontextmanager
async def _tapped(
    read: ReadStream[SessionMessage | Exception],
    write: WriteStream[SessionMessage],
    probe: Probe,
) -> AsyncIterator[Streams]:
    """Relay both directions, recording frames; a stray stdout line is recorded and dropped."""
    from lessons_lib.engine.wire import to_wire

    to_client, client_read = anyio.create_memory_object_stream["SessionMessage | Exception"](16)
    client_write, from_client = anyio.create_memory_object_stream["SessionMessage"](16)

    async def inbound() -> None:
        async with to_client:
            async for item in read:
                if isinstance(item, Exception):
                    line = _stray_line(item)
                    probe.stray.append(line)
                    if '"jsonrpc"' in line and probe.spoiled is None:  # a frame glued to other text
                        probe.spoiled = line
                        probe.scope.cancel()
                    continue
                probe.sink("to_application", json.loads(to_wire(item.message)))
                await to_client.send(item)

    async def outbound() -> None:
        async with from_client:
            async for message in from_client:
                probe.sink("to_service", json.loads(to_wire(message.message)))
                await write.send(message)

    async with anyio.create_task_group() as tg:
        tg.start_soon(inbound)
        tg.start_soon(outbound)
        try:
            yield client_read, client_write
        finally:
            tg.cancel_scope.cancel()


def _stray_line(exc: Exception) -> str:
    """The text of a stdout line the client could not parse (pydantic keeps it as the input)."""
    errors = getattr(exc, "errors", None)
    found = errors() if callable(errors) else []
    text = found[0].get("input") if found else None
    return str(text)[:200] if text is not None else str(exc).splitlines()[0][:200]
