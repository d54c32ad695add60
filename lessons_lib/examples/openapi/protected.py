"""The HTTP order API of lessons 40-41 as an OAuth protected resource (lesson 61).

The app of :mod:`lessons_lib.examples.openapi.app` checks one fixed bearer token. Here a front
checks the OAuth token first (:func:`lessons_lib.engine.http.protected.protect`: the audience is the
API's own URL, the scope ``orders:read``) and only then hands the request on, with the app's
fixed token put in place of the OAuth one; that fixed token is random and never leaves the process.
The app itself is unchanged: the same operations, checks and refusals as in lessons 40-41.
"""

from __future__ import annotations

import secrets
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from lessons_lib.engine.http.authority import LocalAuthority, ServiceCredentials
from lessons_lib.engine.http.oauthclient import Hops, downstream_auth
from lessons_lib.examples.openapi.app import build_app

if TYPE_CHECKING:
    import httpx2
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

ORDERS_SCOPE: Final = "orders:read"


class _InnerBearer:
    """Passes a request on with the app's own ``Authorization`` (the front has checked the real one)."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app, self._header = app, f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = [(k, v) for k, v in scope["headers"] if k.lower() != b"authorization"]
            scope = {**scope, "headers": [*headers, (b"authorization", self._header)]}
        await self.app(scope, receive, send)


def protected_order_api(
    db_path: str | Path, authority: LocalAuthority, resource_url: str, scopes: Sequence[str] = (ORDERS_SCOPE,)
) -> ASGIApp:
    """The order API over ``db_path`` behind OAuth: only ``authority``'s tokens for ``resource_url`` pass."""
    inner = secrets.token_urlsafe(32)
    return authority.guard(
        _InnerBearer(build_app(db_path, inner), inner), resource_url, scopes, name="order API"
    )


def order_desk_app(
    api_url: str, credentials: ServiceCredentials, issuer: str, hops: Hops | None = None
) -> ASGIApp:
    """The order desk (lesson 40's MCP server) over Streamable HTTP, calling the API with a token of its own.

    Its HTTP client carries :func:`~lessons_lib.engine.http.oauthclient.downstream_auth`: a
    ``client_credentials`` token whose audience is ``api_url``. The token a caller presented to
    the desk is never forwarded (no token passthrough). The client closes when the app shuts down.
    """
    import httpx2

    from lessons_lib.examples.openapi.app import openapi_document
    from lessons_lib.examples.openapi.mcp_server import build_openapi_server
    from lessons_lib.examples.openapi.router import OpenAPIRouter

    hooks = {"response": [hops.record]} if hops is not None else {}
    auth = downstream_auth(api_url, credentials, issuer, ORDERS_SCOPE)
    client = httpx2.AsyncClient(base_url=api_url, auth=auth, event_hooks=hooks, timeout=30)
    server = build_openapi_server(OpenAPIRouter(openapi_document(), client, None))
    return _ClosingAtShutdown(server.streamable_http_app(), client)


class _ClosingAtShutdown:
    """Runs ``app`` and closes ``client`` when the server shuts down, in the server's own event loop."""

    def __init__(self, app: ASGIApp, client: httpx2.AsyncClient) -> None:
        self.app, self.client = app, client

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return

        async def closing(message: Message) -> None:
            if message["type"] == "lifespan.shutdown.complete":
                await self.client.aclose()
            await send(message)

        await self.app(scope, receive, closing)


DESK_SCOPE: Final = "desk:use"
ROLES: Final = ("authorization server", "order API", "order desk")


@dataclass(frozen=True)
class Passthrough:
    """Lesson 61's passthrough cell: the desk's answer, its calls to the API, the forwarded token refused."""

    answer: str
    downstream: list[str]
    passed_status: int
    passed_reason: str


def no_passthrough(order_id: str = "O-1042") -> Passthrough:
    """The order desk over HTTP on loopback, its order API behind OAuth; every server stopped on return.

    The course's client gets a token for the desk and calls ``get_order``; the desk calls the
    API with a ``client_credentials`` token of its own (the ``downstream`` lines); then the
    client's desk token is offered to the API directly, as a passthrough would: refused.
    """
    import httpx2

    from lessons_lib.engine.http.oauthclient import Hops, oauth_client, oauth_session, sequence
    from lessons_lib.engine.http.serve import LoopbackServer, serving
    from lessons_lib.engine.runsync import run_sync
    from lessons_lib.services.orders.data import create_database

    auth_server, api_server, desk_server = LoopbackServer(), LoopbackServer(), LoopbackServer()
    authority = LocalAuthority(auth_server.url)
    api, desk = api_server.url, desk_server.url + "/mcp"
    credentials = authority.add_service_client("order-desk", [ORDERS_SCOPE])
    downstream = Hops()
    caller = oauth_client(desk)

    async def call() -> str:
        async with oauth_session(desk, caller) as session:
            result = await session.call_tool("get_order", {"order_id": order_id})
            return str(result.content[0].text)

    with tempfile.TemporaryDirectory(prefix="orders-") as scratch:
        db = create_database(Path(scratch) / "orders.sqlite3")
        with serving(
            (auth_server, authority.app()),
            (api_server, protected_order_api(db, authority, api)),
            (
                desk_server,
                authority.guard(
                    order_desk_app(api, credentials, authority.issuer, downstream), desk, [DESK_SCOPE]
                ),
            ),
        ):
            answer = run_sync(call)
            token = caller.context.current_tokens.access_token if caller.context.current_tokens else ""
            passed = httpx2.get(
                f"{api}/orders/{order_id}", headers={"Authorization": f"Bearer {token}"}, timeout=10
            )
    reason = passed.headers.get("www-authenticate", "").partition('error_description="')[2].partition('"')[0]
    roles = dict(
        zip(
            (s.url.removeprefix("http://") for s in (auth_server, api_server, desk_server)),
            ROLES,
            strict=True,
        )
    )
    return Passthrough(answer, sequence(downstream, roles), passed.status_code, reason)
