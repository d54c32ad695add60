"""One of the course's MCP servers over the official SDK's Streamable HTTP transport. Lessons 60-62.

The server definition is the one stdio serves (the file service, the order desk, lesson 12's notes
server): this module only puts it behind HTTP, with the SDK's own parts. ``streamable_http_app``
(on a low-level ``Server`` and on ``MCPServer`` alike) builds the ASGI app: the SDK's session
manager answers both revisions on one path, ``/mcp``: 2025-11-25 (``initialize`` opens a session
named by ``Mcp-Session-Id``, ``DELETE`` ends it, an unknown id is 404) and 2026-07-28 (no session:
each POST names ``MCP-Protocol-Version``, ``server/discover``). What is chosen here:

- the address: 127.0.0.1 unless told otherwise, port 0 = the system picks a free one; the socket is
  bound before the app is built (:mod:`lessons_lib.engine.http.sockets`);
- Host/Origin checks against DNS rebinding (``TransportSecuritySettings``: loopback names plus the
  bound host; the SDK answers a bad Host 421, a bad Origin 403);
- a request-body limit, :data:`MAX_BODY` (the SDK answers 413 before parsing).

uvicorn serves the app; :func:`serve_http` blocks until Ctrl-C, :func:`running` serves in a thread
for a test, a notebook cell or the conformance check and stops at the end of its ``with``.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol

from lessons_lib.engine.http.serverlog import sdk_logs_one_line
from lessons_lib.engine.http.sockets import bind, origin_of

if TYPE_CHECKING:
    import uvicorn
    from mcp.server.transport_security import TransportSecuritySettings
    from starlette.applications import Starlette
    from starlette.types import ASGIApp, Receive, Scope, Send

MAX_BODY: Final = 1_048_576
"""Largest request body accepted (bytes); a larger one is answered 413 before it is parsed."""

HEADER_TIMEOUT: Final = 10.0
"""Seconds a connection may take to send a request's line and headers; then it is closed."""
MAX_CONNECTIONS: Final = 512
"""Connections and requests in flight at once; past it uvicorn answers 503 at once."""

MAX_SESSIONS: Final = 1000
"""Open 2025-11-25 sessions at once; one more ``initialize`` is answered 503 (the SDK's limit)."""
SESSION_IDLE: Final = 30 * 60.0
"""Seconds after which a session nobody uses is closed (the SDK's default)."""

MCP_PATH: Final = "/mcp"
LOOPBACK: Final = ("127.0.0.1", "localhost", "::1")


class HttpServable(Protocol):
    """What the SDK's low-level ``Server`` and ``MCPServer`` both offer: an ASGI app of themselves."""

    def streamable_http_app(  # noqa: D102
        self,
        *,
        streamable_http_path: str = ...,
        json_response: bool = ...,
        max_request_body_size: int = ...,
        transport_security: TransportSecuritySettings | None = ...,
        host: str = ...,
        session_idle_timeout: float | None = ...,
        max_sessions: int | None = ...,
    ) -> Starlette: ...


@dataclass(frozen=True)
class HttpOptions:
    """Where and how to serve: host, port (0 = a free one), body limit, JSON answers instead of SSE."""

    host: str = "127.0.0.1"
    port: int = 0
    max_body: int = MAX_BODY
    json_response: bool = False
    header_timeout: float = HEADER_TIMEOUT
    max_connections: int = MAX_CONNECTIONS
    max_sessions: int = MAX_SESSIONS
    session_idle: float = SESSION_IDLE


def security(host: str) -> TransportSecuritySettings:
    """Host/Origin checks: the loopback names on any port, and ``host`` itself when it is another."""
    from mcp.server.transport_security import TransportSecuritySettings

    names = ["127.0.0.1", "localhost", "[::1]"]
    shown = f"[{host}]" if ":" in host else host
    if shown not in names and host not in ("0.0.0.0", "::"):
        names.append(shown)
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[*names, *(f"{n}:*" for n in names)],  # a Host without a port names port 80
        allowed_origins=[f"{scheme}://{n}:*" for n in names for scheme in ("http", "https")],
    )


def build_app(server: HttpServable, options: HttpOptions = HttpOptions()) -> Starlette:
    """The SDK's Streamable HTTP app for ``server`` at :data:`MCP_PATH`, with our checks and limit."""
    return server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        json_response=options.json_response,
        max_request_body_size=options.max_body,
        transport_security=security(options.host),
        host=options.host,
        session_idle_timeout=options.session_idle,
        max_sessions=options.max_sessions,
    )


def url_of(sock: socket.socket) -> str:
    """The MCP endpoint's URL for a bound socket."""
    return origin_of(sock) + MCP_PATH


def bounded_protocol(header_timeout: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol with a deadline for each request's line and headers (a slow-loris bound).

    uvicorn closes an idle keep-alive connection, but waits forever for a request line that never
    ends (``GET /mcp HTTP/1.1`` and then nothing, or garbage without a blank line): each such
    connection would be held open. Here a timer starts when the connection opens and again after
    each response; if no request is being handled when it fires, the connection is closed.
    """
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as Base
    except ImportError:  # httptools not installed: the pure-Python h11 protocol has the same hooks
        from uvicorn.protocols.http.h11_impl import H11Protocol as Base  # type: ignore[assignment]

    class Bounded(Base):
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            super().connection_lost(exc)

        def _arm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._deadline = self.loop.call_later(header_timeout, self._too_slow)

        def _too_slow(self) -> None:
            handling = self.cycle is not None and not self.cycle.response_complete
            if not handling and not self.transport.is_closing():
                self.transport.close()

    return Bounded


def _uvicorn(
    app: ASGIApp, log_config: bool = True, log_level: str = "warning", options: HttpOptions = HttpOptions()
) -> uvicorn.Server:
    """uvicorn for ``app``, bounded by ``options``; ``log_config=False``: the process's logging as it is."""
    import uvicorn

    extra: dict[str, Any] = {} if log_config else {"log_config": None}
    config = uvicorn.Config(
        app,
        log_level=log_level,
        lifespan="auto",
        timeout_graceful_shutdown=2,
        http=bounded_protocol(options.header_timeout),
        limit_concurrency=options.max_connections,
        **extra,
    )
    return uvicorn.Server(config)


Wrap = Callable[["ASGIApp", str], "ASGIApp"]
"""Puts something around the MCP app before it is served, given the MCP endpoint's URL (the
authorization layer of lesson 61: a protected resource names itself by that URL)."""


class HostGuard:
    """The SDK's Host/Origin check (DNS rebinding) in front of a wrapped app, so it comes first.

    The MCP app checks Host and Origin itself, but a layer put in front of it (the authorization of
    lesson 61, with its metadata endpoints) would answer before it: a foreign Host would get a 401
    instead of its 421. The check here is the SDK's own (``TransportSecurityMiddleware``), without
    its Content-Type rule (the layer in front also serves GET metadata).
    """

    def __init__(self, app: ASGIApp, host: str) -> None:
        from mcp.server.transport_security import TransportSecurityMiddleware

        self.app = app
        self._check = TransportSecurityMiddleware(security(host))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            from starlette.requests import Request

            refused = await self._check.validate_request(Request(scope), is_post=False)
            if refused is not None:
                await refused(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _wrapped(app: ASGIApp, url: str, host: str, wrap: Wrap | None) -> ASGIApp:
    """``app`` with ``wrap`` around it, and the Host/Origin check around that."""
    return app if wrap is None else HostGuard(wrap(app, url), host)


def serve_http(server: HttpServable, options: HttpOptions, ready: str, wrap: Wrap | None = None) -> None:
    """Serve until Ctrl-C; ``ready`` (with ``{url}``) is printed once the socket listens.

    Raises ``OSError`` when the address cannot be bound and ``KeyboardInterrupt`` after a clean
    stop on Ctrl-C (uvicorn re-raises the signal it caught once it has shut down).
    """
    sock = bind(options.host, options.port)
    sdk_logs_one_line()
    app = build_app(server, options)
    with sock:
        print(ready.format(url=url_of(sock)), flush=True)
        _uvicorn(_wrapped(app, url_of(sock), options.host, wrap), options=options).run(sockets=[sock])


@contextmanager
def running(
    server: HttpServable,
    options: HttpOptions = HttpOptions(),
    timeout: float = 10.0,
    wrap: Wrap | None = None,
) -> Iterator[str]:
    """Serve ``server`` in a background thread; yields its URL, stops it at the end of the ``with``."""
    app = build_app(server, options)
    with LoopbackServer(options.host, options.port) as web:
        url = web.url + MCP_PATH
        web.start(_wrapped(app, url, options.host, wrap), timeout, options=options)
        yield url


class LoopbackServer:
    """One ASGI app served by uvicorn in a background thread: the one runner of lessons 60-62.

    The socket is bound at construction (port 0: a free one), so :attr:`url` (the origin,
    ``http://127.0.0.1:PORT``) is known before the app is built: a protected resource must know
    its own URL. :meth:`start` serves the app and returns once it accepts connections; leaving the
    ``with`` block (or :meth:`stop`) stops it and frees the port. The process's logging
    configuration is left as it is.
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self._socket = bind(host, port)
        self.url = origin_of(self._socket)
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def start(
        self,
        app: ASGIApp,
        timeout: float = 10.0,
        log_level: str = "warning",
        options: HttpOptions = HttpOptions(),
    ) -> LoopbackServer:
        """Serve ``app`` (bounded by ``options``), uvicorn logging at ``log_level``; ``RuntimeError``
        if it is not up within ``timeout`` seconds."""
        web = self._server = _uvicorn(app, log_config=False, log_level=log_level, options=options)
        self._thread = threading.Thread(
            target=web.run, kwargs={"sockets": [self._socket]}, daemon=True, name="mcp-http"
        )
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not web.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the loopback server at {self.url} did not start")
            time.sleep(0.01)
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Stop serving (if started) and close the socket."""
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout)
        self._socket.close()

    def __enter__(self) -> LoopbackServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextmanager
def running_app(app: ASGIApp, host: str = "127.0.0.1", port: int = 0, timeout: float = 10.0) -> Iterator[str]:
    """Serve any ASGI app (an MCP server's, an authorization server's) in a background thread.

    Yields its origin (``http://127.0.0.1:PORT``) once it accepts connections; at the end of the
    ``with`` the server stops and the port is free again.
    """
    with LoopbackServer(host, port) as web:
        yield web.start(app, timeout).url


@contextmanager
def serving(*apps: tuple[LoopbackServer, ASGIApp]) -> Iterator[None]:
    """Start each (server, app) and stop them all on leaving, the last started first."""
    with ExitStack() as stack:
        for server, app in apps:
            stack.enter_context(server)
            server.start(app)
        yield
