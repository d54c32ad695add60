"""The course's OAuth client: the SDK's providers with a stand-in for the user, and its hops (lesson 61).

- :func:`oauth_client` is the SDK's ``OAuthClientProvider`` (an ``httpx2.Auth``) with the
  stand-in's redirect and callback handlers (:class:`AutoConsent`): the whole flow runs without a
  browser, and no person is asked.
- :func:`downstream_auth` is how a service calls another API without token passthrough: its own
  client-credentials token for that API's audience (the SDK's ``ClientCredentialsOAuthProvider``).
- :class:`Hops` records each HTTP exchange of a run with nothing secret in it; :func:`sequence`
  writes them as the lesson's sequence, one line per hop.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import parse_qsl, quote, urljoin, urlsplit, urlunsplit

import httpx2
from mcp.client.auth import OAuthClientProvider, OAuthFlowError
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientMetadata
from pydantic import AnyUrl

from lessons_lib.engine.http.authority import ServiceCredentials
from lessons_lib.engine.http.secretfilter import redact_logs
from lessons_lib.engine.http.stores import MemoryTokenStorage

REDIRECT_URI: Final = "http://127.0.0.1/oauth/callback"
"""The course client's loopback redirect URI (RFC 8252); nothing listens there: the stand-in
reads the code from the redirect instead of following it."""


SAFE_QUERY: Final = frozenset(
    {"response_type", "scope", "resource", "code_challenge_method", "error", "grant_type"}
)
"""Query parameters a recorded hop shows; every other value (code, state, client id, challenge) is elided."""


def redact_url(url: str) -> str:
    """``url``'s path and query, each query value outside :data:`SAFE_QUERY` replaced by ``…``."""
    parts = urlsplit(url)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    query = "&".join(f"{k}={quote(v, safe='/:') if k in SAFE_QUERY else '…'}" for k, v in pairs)
    return urlunsplit(("", "", parts.path, query, ""))


@dataclass(frozen=True)
class Hop:
    """One HTTP exchange of an OAuth run, with nothing secret in it (lesson 61's sequence diagram)."""

    method: str
    path: str
    status: int
    host: str


class Hops(list[Hop]):
    """The hops of a run, in order; ``record`` is an httpx2 response hook."""

    async def record(self, response: httpx2.Response) -> None:
        request = response.request
        self.append(
            Hop(
                request.method,
                redact_url(str(request.url)),
                response.status_code,
                request.url.netloc.decode(),
            )
        )


def sequence(hops: Iterable[Hop], roles: Mapping[str, str]) -> list[str]:
    """Lesson 61's sequence as text, one line per hop: each ``host:port`` (``roles``' keys) shown as
    its role, in the ``Host`` column and inside URLs alike, so no port reaches a stored output."""

    def named(text: str) -> str:
        for host, role in roles.items():
            text = text.replace(f"http://{host}", f"<{role}>")
        return text

    return [f"{roles.get(h.host, 'other')}: {h.method} {named(h.path)} -> {h.status}" for h in hops]


class AutoConsent:
    """The user's part of the flow, played by the course: follow the authorization redirects on
    loopback up to the client's redirect URI and hand the code to the SDK (no browser, no person)."""

    def __init__(self, hops: Hops | None = None, redirect_uri: str = REDIRECT_URI) -> None:
        self.hops, self.redirect_uri = hops, redirect_uri
        self._result: AuthorizationCodeResult | None = None

    async def redirect(self, authorization_url: str) -> None:
        hooks = {"response": [self.hops.record]} if self.hops is not None else {}
        async with httpx2.AsyncClient(follow_redirects=False, timeout=10, event_hooks=hooks) as client:
            url = authorization_url
            for _ in range(5):
                if urlsplit(url).hostname not in ("127.0.0.1", "localhost", "::1"):
                    raise OAuthFlowError("the consent stand-in follows loopback addresses only")
                response = await client.get(url)
                location = response.headers.get("location")
                if response.status_code not in (302, 303) or location is None:
                    raise OAuthFlowError(
                        f"authorization stopped: HTTP {response.status_code} {_error_of(response)}"
                    )
                url = urljoin(url, location)
                if url.split("?")[0] == self.redirect_uri:
                    self._result = _code_result(url)
                    return
        raise OAuthFlowError("authorization did not come back to the client's redirect URI")

    async def callback(self) -> AuthorizationCodeResult:
        result, self._result = self._result, None
        if result is None:
            raise OAuthFlowError("no authorization code arrived")
        return result


def _error_of(response: httpx2.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return ""
    return f"{body.get('error', '')}: {body.get('error_description', '')}" if isinstance(body, dict) else ""


def _code_result(url: str) -> AuthorizationCodeResult:
    query = dict(parse_qsl(urlsplit(url).query))
    if "error" in query:
        raise OAuthFlowError(f"authorization refused: {query['error']}: {query.get('error_description', '')}")
    return AuthorizationCodeResult(code=query.get("code", ""), state=query.get("state"), iss=query.get("iss"))


def oauth_client(url: str, *, hops: Hops | None = None, scope: str | None = None) -> OAuthClientProvider:
    """An ``httpx2.Auth`` that runs the OAuth flow for the service at ``url`` on the first 401 (lesson 61).

    The SDK's ``OAuthClientProvider``: discovery from ``WWW-Authenticate`` (RFC 9728), the
    authorization server's metadata, dynamic registration as a public client, PKCE, the resource
    indicator, scope step-up on 403. Consent is :class:`AutoConsent`, the stand-in for the user.
    """
    redact_logs()
    consent = AutoConsent(hops)
    metadata = OAuthClientMetadata(
        client_name="lessons_lib course client",
        redirect_uris=[AnyUrl(REDIRECT_URI)],
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method="none",
        scope=scope,
    )
    return OAuthClientProvider(url, metadata, MemoryTokenStorage(), consent.redirect, consent.callback)


def downstream_auth(
    api_url: str, credentials: ServiceCredentials, issuer: str, scope: str | None = None
) -> httpx2.Auth:
    """How a service calls the API at ``api_url``: a token of its own, for that audience (no passthrough).

    The SDK's ``ClientCredentialsOAuthProvider``: on the API's 401 it reads the API's metadata and
    asks ``issuer`` for a ``client_credentials`` token naming ``api_url`` as its resource. The token
    the service itself received is never forwarded. (``client_secret_post``: with
    ``client_secret_basic`` the SDK's client sends no ``client_id`` in the form, which the SDK's
    server requires.)
    """
    redact_logs()
    return ClientCredentialsOAuthProvider(
        api_url,
        MemoryTokenStorage(),
        credentials.client_id,
        credentials.client_secret,
        token_endpoint_auth_method="client_secret_post",
        scope=scope,
        issuer=issuer,
    )


@contextlib.asynccontextmanager
async def oauth_session(url: str, auth: httpx2.Auth, hops: Hops | None = None) -> AsyncIterator[Any]:
    """An initialised MCP ``ClientSession`` over Streamable HTTP to ``url``, authorised by ``auth``."""
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    http = create_mcp_http_client(auth=auth)
    if hops is not None:
        http.event_hooks["response"].append(hops.record)
    async with (
        http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session
