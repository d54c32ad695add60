"""The application's MCP connection over Streamable HTTP, and the HTTP envelope of each frame. Lesson 60.

:class:`McpUrl` names a service by its URL (``run --mcp-url URL``); :class:`HttpFramedTransport`
connects to it through the official SDK's client transport (``streamable_http_client``) and records
every JSON-RPC frame exactly as the in-process and stdio transports do
(:func:`lessons_lib.engine.wire.relay_frames`): the frames of a run are the same over every transport.
What HTTP adds is written beside the frame, in the event's ``http`` field
(:class:`lessons_lib.core.traces.tracetypes.HttpEnvelope`), from the HTTP client's own response hook:
the method and status, the answer's content type, JSON or an SSE stream, and the MCP headers.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

import anyio

from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.traces.tracetypes import HttpEnvelope
from lessons_lib.engine.wire import ConnectingTransport

if TYPE_CHECKING:
    import httpx2

    from lessons_lib.engine.http.oauthclient import Hops
    from lessons_lib.engine.wire import Streams

MCP_HEADERS: Final = ("mcp-protocol-version", "mcp-method", "mcp-name", "mcp-session-id")
SESSION: Final = "(session id)"
"""What a trace keeps of an ``Mcp-Session-Id``: the value differs every run, its presence matters."""
REVISIONS: Final = {"2025-11-25": "legacy", "2026-07-28": "2026-07-28"}
"""The MCP revision a run speaks over HTTP -> the SDK client's ``mode``."""

FrameRecorder = Callable[[str, JSONObject], object]
"""Records one frame (``direction``, ``frame``) and returns the trace event it wrote (a dict)."""


@dataclass(frozen=True)
class McpUrl:
    """An MCP service reached over Streamable HTTP at ``url``, speaking ``revision``.

    With ``oauth`` the connection is authorised by the course's OAuth client (lesson 61,
    :func:`lessons_lib.engine.http.oauthclient.oauth_client`): on the service's first 401 it runs the flow,
    each hop recorded in ``hops`` (a :class:`lessons_lib.engine.http.oauthclient.Hops`; nothing secret in it).
    """

    url: str
    revision: str = "2025-11-25"
    oauth: bool = False
    hops: list[Hops] = field(default_factory=list, compare=False, repr=False)
    challenges: list[int] = field(default_factory=list, compare=False, repr=False)
    """Statuses 401/403 the service answered a connection without ``oauth`` (it wants a token)."""

    def __post_init__(self) -> None:
        if not self.url.lower().startswith(("http://", "https://")):
            raise ValueError(f"an MCP URL starts with http:// or https://, got {self.url!r}")
        if self.revision not in REVISIONS:
            raise ValueError(f"revision {self.revision!r} is not one of {', '.join(REVISIONS)}")

    def flow(self) -> list[str]:
        """The OAuth flow's hops of the runs so far (lesson 61's sequence): hosts by role, no port."""
        from lessons_lib.engine.http.oauthclient import sequence

        service = httpx_netloc(self.url)
        hops = [hop for recorded in self.hops for hop in recorded]
        roles = {h.host: "service" if h.host == service else "authorization server" for h in hops}
        return sequence(hops, roles)

    @property
    def mode(self) -> str:
        """The SDK client's ``mode`` for this revision."""
        return REVISIONS[self.revision]


def httpx_netloc(url: str) -> str:
    """``host:port`` of ``url`` as the HTTP client writes it (the ``Hop.host`` of a hop to it)."""
    from urllib.parse import urlsplit

    return urlsplit(url).netloc


def _key(direction: str, frame: JSONObject) -> tuple[str, str]:
    """Which HTTP exchange a frame belongs to: its JSON-RPC id, or a notification's method."""
    if "id" in frame and frame["id"] is not None:
        return direction, f"id:{json.dumps(frame['id'])}"
    return direction, f"method:{frame.get('method')}"


def _headers(headers: httpx2.Headers) -> dict[str, str]:
    """The MCP headers only (never ``Authorization`` nor ``Location``), each value redacted."""
    from lessons_lib.engine.http.secretfilter import redact_secrets

    found = {name: redact_secrets(headers[name]) for name in MCP_HEADERS if name in headers}
    if "mcp-session-id" in found:
        found["mcp-session-id"] = SESSION
    return found


def _stream(response: httpx2.Response) -> str:
    if response.status_code == 202:  # Accepted: a notification's answer has no body
        return "none"
    kind = response.headers.get("content-type", "")
    return "sse" if kind.startswith("text/event-stream") else "json" if "json" in kind else "none"


class TappedTransport(ConnectingTransport):
    """An SDK client transport whose frames are recorded as they pass (and kept as the SDK sent them).

    ``inner`` opens the SDK's own transport (``streamable_http_client``, ``stdio_client`` ...); each
    frame goes through :func:`~lessons_lib.engine.wire.relay_frames`, then its event may be given an
    envelope (:meth:`attach`) by whoever saw the exchange that carried it.
    """

    def __init__(
        self, inner: Callable[[], AbstractAsyncContextManager[Streams]], record: FrameRecorder
    ) -> None:
        self._inner = inner
        self._record = record
        self._events: dict[tuple[str, str], dict[str, object]] = {}  # exchange -> the frame's event
        self._pending: dict[tuple[str, str], HttpEnvelope] = {}  # an envelope that came before its frame

    def _frame(self, direction: str, frame: JSONObject) -> None:
        event = self._record(direction, frame)
        if not isinstance(event, dict):
            return
        key = _key(direction, frame)
        if key in self._pending:
            event["http"] = self._pending.pop(key)
        else:
            self._events[key] = event

    def attach(self, key: tuple[str, str], envelope: HttpEnvelope) -> None:
        """Give the frame of exchange ``key`` its envelope, now or when the frame passes."""
        event = self._events.pop(key, None)
        if event is None:
            self._pending[key] = envelope
        else:
            event["http"] = envelope

    @asynccontextmanager
    async def _connect(self) -> AsyncIterator[Streams]:
        from lessons_lib.engine.wire import Item

        async with self._inner() as (read, write):
            to_client_send, to_client_recv = anyio.create_memory_object_stream[Item](16)
            from_client_send, from_client_recv = anyio.create_memory_object_stream[Item](16)
            async with anyio.create_task_group() as tg:
                tg.start_soon(self._relay, read, to_client_send, "to_application")
                tg.start_soon(self._relay, from_client_recv, write, "to_service")
                try:
                    yield to_client_recv, from_client_send
                finally:
                    await from_client_send.aclose()
                    tg.cancel_scope.cancel()

    async def _relay(self, source: object, dest: object, direction: str) -> None:
        from lessons_lib.engine.wire import relay_frames

        await relay_frames(source, dest, direction, self._frame, keep_metadata=True)  # type: ignore[arg-type]


class HttpFramedTransport(TappedTransport):
    """The SDK's Streamable HTTP client transport to ``url``; each frame recorded with its envelope.

    ``auth`` (an ``httpx2.Auth``, the OAuth client of lesson 61) authorises every request; ``hops``
    also records each HTTP exchange of the OAuth flow (its URL redacted).
    """

    def __init__(
        self,
        url: str,
        record: FrameRecorder,
        auth: httpx2.Auth | None = None,
        hops: Callable[[httpx2.Response], Awaitable[None]] | None = None,
    ) -> None:
        super().__init__(self._open, record)
        self._url, self._auth, self._hops = url, auth, hops
        self._challenges: list[int] = []

    @classmethod
    def to(cls, service: McpUrl, record: FrameRecorder) -> HttpFramedTransport:
        """The transport for ``service``, with the course's OAuth client when it asks for one."""
        if not service.oauth:
            transport = cls(service.url, record)
            transport._challenges = service.challenges
            return transport
        from lessons_lib.engine.http.oauthclient import Hops, oauth_client

        hops = Hops()
        service.hops.append(hops)
        return cls(service.url, record, oauth_client(service.url, hops=hops), hops.record)

    @asynccontextmanager
    async def _open(self) -> AsyncIterator[Streams]:
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        client = create_mcp_http_client(auth=self._auth)
        if self._hops is not None:
            client.event_hooks["response"].append(self._hops)
        client.event_hooks["response"].append(self._on_response)
        async with client, streamable_http_client(self._url, http_client=client) as streams:
            yield streams  # type: ignore[misc]

    async def _on_response(self, response: httpx2.Response) -> None:
        """The HTTP client's response hook: the envelope of the POST's frame and of the reply to it."""
        request = response.request
        if response.status_code in (401, 403) and self._auth is None:
            self._challenges.append(response.status_code)
        if request.method != "POST" or response.status_code in (401, 403):
            return  # the GET stream, the DELETE that ends a session, a challenge the OAuth client answers
        try:
            sent = json.loads(request.content)
        except ValueError:
            return
        if not isinstance(sent, dict):
            return
        common = {"method": "POST", "status": response.status_code}
        common |= {"content_type": response.headers.get("content-type", ""), "stream": _stream(response)}
        self.attach(_key("to_service", sent), {**common, "headers": _headers(request.headers)})  # type: ignore[typeddict-item]
        if "id" in sent and "method" in sent:
            reply = _key("to_application", sent)
            self._pending[reply] = {**common, "headers": _headers(response.headers)}  # type: ignore[typeddict-item]
