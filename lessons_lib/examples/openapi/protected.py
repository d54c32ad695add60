"""The HTTP order API of lessons 40-41 as an OAuth protected resource (lesson 61).

The app of :mod:`lessons_lib.examples.openapi.app` checks one fixed bearer token. Here a front
checks the OAuth token first (:func:`lessons_lib.engine.httpauth.protect`: the audience is the
API's own URL, the scope ``orders:read``) and only then hands the request on, with the app's
fixed token put in place of the OAuth one; that fixed token is random and never leaves the process.
The app itself is unchanged: the same operations, checks and refusals as in lessons 40-41.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

from lessons_lib.engine.httpauth import Hops, LocalAuthority, ServiceCredentials, downstream_auth
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

    Its HTTP client carries :func:`~lessons_lib.engine.httpauth.downstream_auth`: a
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
