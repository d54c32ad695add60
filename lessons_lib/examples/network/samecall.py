"""Lesson 60: the same ``read_text_file`` call over stdio and over Streamable HTTP, and what HTTP adds.

Every function here talks to a real server: the file service as a process on stdio
(``python -m lessons_lib serve``) and the same server definition over HTTP on a free loopback port
(:func:`lessons_lib.engine.http.serve.running`). What they return holds no port, session id or time,
so a notebook can store it: a session id is shown as ``(session id)``, a URL by its path.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.engine.http.client import SESSION

if TYPE_CHECKING:
    import httpx2

EXAMPLE_CALL: Final = {"path": "/workspace/notes.txt", "head": 1}
ACCEPT: Final = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
NEW: Final = "2026-07-28"
OLD: Final = "2025-11-25"
META: Final = {
    "io.modelcontextprotocol/protocolVersion": NEW,
    "io.modelcontextprotocol/clientCapabilities": {},
}
"""The ``_meta`` every 2026-07-28 request carries instead of an ``initialize`` handshake."""

Frame = tuple[str, JSONObject]
"""(direction, JSON-RPC frame) as the tapped transport saw it."""


@contextlib.contextmanager
def quiet_server() -> Iterator[None]:
    """The SDK's server log silenced while a refused request is made (no stray line in a notebook)."""
    logger = logging.getLogger("mcp")
    before = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(before)


def _session(open_transport: Callable[[], AbstractAsyncContextManager[Any]]) -> list[Frame]:
    """One session through the SDK client on a tapped transport: ``tools/list``, one ``tools/call``."""
    import anyio
    from mcp import Client

    from lessons_lib.engine.http.client import TappedTransport
    from lessons_lib.engine.runsync import run_sync

    frames: list[Frame] = []

    async def main() -> None:
        with anyio.fail_after(60):
            transport = TappedTransport(open_transport, lambda d, f: frames.append((d, f)))
            async with Client(transport, mode="legacy") as client:
                await client.list_tools()
                await client.call_tool("read_text_file", EXAMPLE_CALL)

    run_sync(main)
    return frames


def over_stdio() -> list[Frame]:
    """The frames of one session with ``python -m lessons_lib serve`` as a child process on stdio."""
    import os

    from mcp.client.stdio import StdioServerParameters, stdio_client

    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI")}
    params = StdioServerParameters(command=sys.executable, args=["-m", "lessons_lib", "serve"], env=env)
    with tempfile.TemporaryDirectory(prefix="stdio-") as scratch:  # a real file for the child's stderr
        with (Path(scratch) / "stderr.txt").open("w", encoding="utf-8") as errlog:
            return _session(lambda: stdio_client(params, errlog=errlog))


def over_http(url: str) -> list[Frame]:
    """The frames of the same session with the server at ``url`` over Streamable HTTP."""
    from mcp.client.streamable_http import streamable_http_client

    return _session(lambda: streamable_http_client(url))


def frame_name(frame: JSONObject) -> str:
    """``initialize``, ``tools/call`` ... or ``result (id 2)`` for an answer."""
    if "method" in frame:
        return str(frame["method"])
    return f"result (id {frame.get('id')})" if "result" in frame else f"error (id {frame.get('id')})"


@dataclass(frozen=True)
class Exchange:
    """One HTTP request and its answer, with nothing that changes between runs."""

    step: str
    request: str
    status: int
    answer: str


def _summary(response: httpx2.Response, opens: bool = False) -> str:
    """What an answer says: the session it opens (``opens``), its error, or what kind of body it has."""
    kind = response.headers.get("content-type", "").split(";")[0]
    shown = []
    if response.status_code == 202:
        return "(no body)"
    if opens and "mcp-session-id" in response.headers:
        shown.append(f"Mcp-Session-Id: {SESSION}")
    if kind == "application/json" and response.content:
        body = response.json()
        error = body.get("error") if isinstance(body, dict) else None
        shown.append(f"error {error['code']}: {error['message']}" if error else "JSON")
    elif kind:
        shown.append(kind)
    else:
        shown.append(response.text.strip()[:60] or "(no body)")
    return " · ".join(shown)


def _post(
    client: httpx2.Client, url: str, step: str, body: Mapping[str, object], headers: dict[str, str]
) -> Exchange:
    response = client.post(url, json=body, headers={**ACCEPT, **headers})
    shown = ", ".join(f"{k}: {SESSION if k == 'Mcp-Session-Id' else v}" for k, v in headers.items())
    return Exchange(step, f"POST {body.get('method', '?')}" + (f" [{shown}]" if shown else ""),
                    response.status_code, _summary(response))  # fmt: skip


def _initialize(client: str) -> JSONObject:
    """A 2025-11-25 ``initialize`` request from a client named ``client``."""
    info: JSONObject = {"name": client, "version": "1"}
    params: JSONObject = {"protocolVersion": OLD, "capabilities": {}, "clientInfo": info}
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}


def session_walk(url: str) -> list[Exchange]:
    """2025-11-25 by hand: ``initialize`` opens a session, each request names it, ``DELETE`` ends it."""
    import httpx2

    init = _initialize("lesson60")
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    rows = []
    with quiet_server(), httpx2.Client(timeout=10) as client:
        opened = client.post(url, json=init, headers=ACCEPT)
        rows.append(Exchange("1", "POST initialize", opened.status_code, _summary(opened, opens=True)))
        session = {"Mcp-Session-Id": opened.headers.get("mcp-session-id", ""), "MCP-Protocol-Version": OLD}
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        rows.append(_post(client, url, "2", note, session))
        rows.append(_post(client, url, "3", listing, session))
        rows.append(_post(client, url, "4", listing, {"MCP-Protocol-Version": OLD}))
        ended = client.delete(url, headers=session)
        rows.append(Exchange("5", f"DELETE [Mcp-Session-Id: {SESSION}]", ended.status_code, "-"))
        rows.append(_post(client, url, "6", listing, session))
    return rows


def stateless_walk(url: str) -> list[Exchange]:
    """2026-07-28 by hand: no session; each POST names its revision, method and tool in headers."""
    import httpx2

    discover = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": META}}
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "read_text_file", "arguments": EXAMPLE_CALL, "_meta": META}}  # fmt: skip
    version = {"MCP-Protocol-Version": NEW}
    with quiet_server(), httpx2.Client(timeout=10) as client:
        return [
            _post(client, url, "1", discover, {**version, "Mcp-Method": "server/discover"}),
            _post(
                client, url, "2", call, {**version, "Mcp-Method": "tools/call", "Mcp-Name": "read_text_file"}
            ),
            _post(client, url, "3", call, {**version, "Mcp-Method": "tools/call", "Mcp-Name": "write_file"}),
        ]


def discovered(url: str) -> JSONObject:
    """The result of ``server/discover`` (2026-07-28): what ``initialize`` used to answer."""
    import httpx2

    body = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": META}}
    headers = {**ACCEPT, "MCP-Protocol-Version": NEW, "Mcp-Method": "server/discover"}
    return dict(httpx2.post(url, json=body, headers=headers, timeout=10).json()["result"])


ORIGINS: Final = ("http://localhost:5173", "http://evil.example", "http://localhost.evil.example:5173")
HOSTS: Final = ("evil.example", "127.0.0.1.evil.example")


def guard_walk(url: str) -> list[Exchange]:
    """What the Host and Origin checks refuse: an ``initialize`` from a page of another site."""
    import httpx2

    init = _initialize("page")
    rows = []
    with quiet_server(), httpx2.Client(timeout=10) as client:
        for origin in ORIGINS:
            answer = client.post(url, json=init, headers={**ACCEPT, "Origin": origin})
            rows.append(Exchange("Origin", origin, answer.status_code, _refusal(answer)))
        for host in HOSTS:
            answer = client.post(url, json=init, headers={**ACCEPT, "Host": host})
            rows.append(Exchange("Host", host, answer.status_code, _refusal(answer)))
    return rows


def _refusal(response: httpx2.Response) -> str:
    return "-" if response.status_code == 200 else response.text.strip()[:60]


def show_json(value: object) -> str:
    """Compact JSON for a frame or a result, the way a trace prints it."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
