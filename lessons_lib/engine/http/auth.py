"""Who may call an HTTP service: a local OAuth 2.1 authorization server and protected resources (lesson 61).

Built from the MCP SDK's own auth parts (``mcp.server.auth``, ``mcp.client.auth``), on loopback:

- :class:`LocalAuthority` is an ``OAuthAuthorizationServerProvider`` kept in memory (bounded stores)
  behind the SDK's ``create_auth_routes``: metadata (RFC 8414), dynamic client registration
  (RFC 7591), authorization code with PKCE (S256 only), refresh, revocation. Every token names
  exactly one service as its audience (the RFC 8707 resource indicator is required). Access
  tokens are JWTs in the RFC 9068 profile, signed with an ES256 key made at start and never stored.
- The consent step is **an auto-approving stand-in for the user** (``/consent``): it approves
  whatever a registered client asked for, within the service's scopes. No person is asked.
- :func:`protect` wraps any ASGI app (an MCP Streamable HTTP app, the order API) as a protected
  resource: its Protected Resource Metadata (RFC 9728, the SDK's ``create_protected_resource_routes``),
  401 with ``WWW-Authenticate`` naming that metadata, 403 ``insufficient_scope`` naming the scope.
  :class:`AudienceVerifier` (the SDK's ``TokenVerifier``) refuses a token for another audience,
  an expired one, one from another issuer, a forged or malformed one.
- :func:`oauth_client` is the SDK's ``OAuthClientProvider`` (an ``httpx2.Auth``) with the
  stand-in's redirect and callback handlers: the whole flow runs without a browser.
- :func:`downstream_auth` is how a service calls another API without token passthrough: its own
  client-credentials token for that API's audience (the SDK's ``ClientCredentialsOAuthProvider``).

What the SDK (mcp 2.3.0) does not provide, written here: the provider itself (the SDK ships the
protocol, not a store); the consent page; the ``client_credentials`` grant on the server side (the
SDK's token handler knows ``authorization_code``, ``refresh_token`` and the jwt-bearer grant only);
issuing and checking signed access tokens (the SDK leaves the token format to the provider); the
``scope`` auth-parameter of RFC 6750 section 3 in its 401/403 challenges (the SDK names the missing
scope only in ``error_description``, but its own client reads ``scope`` for step-up); scopes per tool
(the SDK's scopes cover a whole endpoint); a reason for a refused token; a way to run an ASGI app on
a free loopback port (:class:`lessons_lib.engine.http.serve.LoopbackServer`, shared with lesson 60).

Secrets (access and refresh tokens, authorization codes, PKCE verifiers, client secrets) stay in
memory: no log record, hop, error message or printed line here carries one
(``tests/examples/network/test_oauth_canary.py``).
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar
from urllib.parse import parse_qsl, quote, urlencode, urljoin, urlsplit, urlunsplit

import httpx2
import jwt
from cryptography.hazmat.primitives.asymmetric import ec
from mcp.client.auth import OAuthClientProvider, OAuthFlowError
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.server.auth.handlers.metadata import MetadataHandler
from mcp.server.auth.handlers.token import TokenHandler
from mcp.server.auth.json_response import PydanticJSONResponse
from mcp.server.auth.middleware.auth_context import AuthContextMiddleware
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser, BearerAuthBackend, RequireAuthMiddleware
from mcp.server.auth.middleware.client_auth import AuthenticationError, ClientAuthenticator
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    AuthorizeError,
    IdentityAssertionParams,
    RefreshToken,
    TokenError,
    construct_redirect_uri,
)
from mcp.server.auth.routes import (
    TOKEN_PATH,
    build_metadata,
    build_resource_metadata_url,
    create_auth_routes,
    create_protected_resource_routes,
)
from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE, RequestBodyLimitMiddleware
from mcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
    OAuthToken,
)
from pydantic import AnyHttpUrl, AnyUrl, ConfigDict, TypeAdapter
from starlette.applications import Starlette
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route, Router, request_response

from lessons_lib.engine.http.serve import LoopbackServer, serving

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

K = TypeVar("K")
V = TypeVar("V")

CONSENT_PATH: Final = "/consent"
REDIRECT_URI: Final = "http://127.0.0.1/oauth/callback"
"""The course client's loopback redirect URI (RFC 8252); nothing listens there: the stand-in
reads the code from the redirect instead of following it."""
CONSENT_HEADER: Final = "X-Consent"
CONSENT_LABEL: Final = "auto-approved by the course's stand-in for the user (no person was asked)"
USER: Final = "learner"
"""The one resource owner of the loopback authority (the ``sub`` of the tokens it grants a user)."""
ALGORITHM: Final = "ES256"
TOKEN_TYPE: Final = "at+jwt"
"""RFC 9068: the ``typ`` of a JWT access token, so an ID token or other JWT is not taken for one."""

_URL = TypeAdapter(AnyHttpUrl, config=ConfigDict(url_preserve_empty_path=True))


def http_url(url: str) -> AnyHttpUrl:
    """``url`` as the SDK's URL type, an empty path kept empty (issuers compare as strings)."""
    return _URL.validate_python(url)


def same_resource(a: str, b: str) -> bool:
    """Two resource URLs name the same service (a trailing slash aside, as the SDK compares them)."""
    return a.rstrip("/") == b.rstrip("/")


class BoundedStore(Generic[K, V]):
    """A dict that keeps at most ``capacity`` entries, dropping the oldest (the authority's stores)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._items: OrderedDict[K, V] = OrderedDict()

    def put(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.capacity:
            self._items.popitem(last=False)

    def get(self, key: K) -> V | None:
        return self._items.get(key)

    def pop(self, key: K) -> V | None:
        return self._items.pop(key, None)

    def __len__(self) -> int:
        return len(self._items)


@dataclass(frozen=True)
class ServiceCredentials:
    """A pre-registered confidential client for the ``client_credentials`` grant: a service's identity."""

    client_id: str
    client_secret: str = field(repr=False)


@dataclass(frozen=True)
class _Pending:
    """An authorization request waiting at the consent step."""

    client_id: str
    params: AuthorizationParams
    scopes: tuple[str, ...]
    resource: str


class LocalAuthority:
    """The loopback OAuth 2.1 authorization server, an ``OAuthAuthorizationServerProvider`` (lesson 61).

    ``issuer`` is its own URL (``http://127.0.0.1:PORT``). Services are registered with
    :meth:`add_resource` (their URL and scopes); a token is only ever issued for one of them.
    Codes live ``code_ttl`` seconds and are used once; access tokens live ``access_ttl``; refresh
    tokens rotate. Each store keeps at most ``capacity`` entries.
    """

    def __init__(
        self,
        issuer: str,
        *,
        code_ttl: int = 60,
        access_ttl: int = 300,
        refresh_ttl: int = 3600,
        capacity: int = 1024,
    ) -> None:
        self.issuer = str(http_url(issuer))
        self.code_ttl, self.access_ttl, self.refresh_ttl = code_ttl, access_ttl, refresh_ttl
        self._key = ec.generate_private_key(ec.SECP256R1())
        self.public_key = self._key.public_key()
        self.resources: dict[str, tuple[str, ...]] = {}
        self._clients: BoundedStore[str, OAuthClientInformationFull] = BoundedStore(capacity)
        self._pending: BoundedStore[str, _Pending] = BoundedStore(capacity)
        self._codes: BoundedStore[str, AuthorizationCode] = BoundedStore(capacity)
        self._refresh: BoundedStore[str, RefreshToken] = BoundedStore(capacity)
        self._revoked: BoundedStore[str, float] = BoundedStore(capacity)
        self.consents = 0
        """How many times the stand-in approved a request (a test can see that consent happened)."""

    # --- the course's own calls -------------------------------------------------------------

    def add_resource(self, url: str, scopes: Sequence[str]) -> None:
        """Let tokens be issued for the service at ``url``, with at most these ``scopes``."""
        self.resources[url.rstrip("/")] = tuple(scopes)

    def guard(
        self,
        app: ASGIApp,
        resource_url: str,
        scopes: Sequence[str],
        name: str | None = None,
        tool_scopes: Mapping[str, str] | None = None,
    ) -> ASGIApp:
        """``app`` served at ``resource_url`` as this authority's protected resource (see :func:`protect`)."""
        self.add_resource(resource_url, [*scopes, *(tool_scopes or {}).values()])
        return protect(
            app,
            resource_url=resource_url,
            issuer=self.issuer,
            verifier=self.verifier(resource_url),
            scopes=scopes,
            name=name,
            tool_scopes=tool_scopes,
        )

    def verifier(self, resource_url: str) -> AudienceVerifier:
        """The token check for the service at ``resource_url`` (the authority's public key only)."""
        return AudienceVerifier(self.issuer, self.public_key, resource_url)

    def add_service_client(self, name: str, scopes: Sequence[str]) -> ServiceCredentials:
        """Register a confidential client that may use the ``client_credentials`` grant."""
        credentials = ServiceCredentials(f"{name}-{secrets.token_hex(4)}", secrets.token_urlsafe(32))
        self._clients.put(
            credentials.client_id,
            OAuthClientInformationFull(
                client_id=credentials.client_id,
                client_secret=credentials.client_secret,
                client_secret_expires_at=0,
                client_name=name,
                redirect_uris=None,
                grant_types=["client_credentials"],
                token_endpoint_auth_method="client_secret_post",
                scope=" ".join(scopes),
            ),
        )
        return credentials

    def mint(
        self,
        audience: str,
        scopes: Iterable[str],
        *,
        client_id: str = "minted",
        subject: str = USER,
        lifetime: int | None = None,
        issuer: str | None = None,
    ) -> str:
        """A signed access token as this authority would issue it; ``issuer``/``lifetime`` may lie.

        Tests and lessons use it to present tokens the flow would never produce (expired, for another
        audience, naming another issuer) to a real service.
        """
        now = int(time.time())
        claims = {
            "iss": issuer or self.issuer,
            "aud": audience.rstrip("/"),
            "sub": subject,
            "client_id": client_id,
            "scope": " ".join(scopes),
            "iat": now,
            "exp": now + (self.access_ttl if lifetime is None else lifetime),
            "jti": secrets.token_hex(16),
        }
        return jwt.encode(claims, self._key, algorithm=ALGORITHM, headers={"typ": TOKEN_TYPE})

    # --- the provider protocol (called by the SDK's handlers) -------------------------------

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self._clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        # Policy of this authority: a registered client may ask for any scope of any service; the
        # consent step and each service's scopes decide what it gets.
        client_info.scope = " ".join(sorted({s for scopes in self.resources.values() for s in scopes}))
        self._clients.put(client_info.client_id or "", client_info)

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        resource = (params.resource or "").rstrip("/")
        if resource not in self.resources:
            raise AuthorizeError(
                "invalid_target",
                "name the service in the resource parameter (RFC 8707): one known service URL",
            )
        scopes = tuple(params.scopes or self.resources[resource])
        unknown = [s for s in scopes if s not in self.resources[resource]]
        if unknown:
            raise AuthorizeError("invalid_scope", f"the service does not offer scope {unknown[0]}")
        request_id = secrets.token_urlsafe(16)
        self._pending.put(request_id, _Pending(client.client_id or "", params, scopes, resource))
        return f"{self.issuer.rstrip('/')}{CONSENT_PATH}?{urlencode({'request': request_id})}"

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> AuthorizationCode | None:
        code = self._codes.get(authorization_code)
        return code if code is not None and code.client_id == client.client_id else None

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: AuthorizationCode
    ) -> OAuthToken:
        if self._codes.pop(authorization_code.code) is None:
            raise TokenError("invalid_grant", "authorization code already used")
        return self._grant(
            client.client_id or "",
            authorization_code.resource or "",
            authorization_code.scopes,
            with_refresh=True,
        )

    async def load_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: str
    ) -> RefreshToken | None:
        found = self._refresh.get(refresh_token)
        return found if found is not None and found.client_id == client.client_id else None

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]
    ) -> OAuthToken:
        if self._refresh.pop(refresh_token.token) is None:  # rotation: each refresh token works once
            raise TokenError("invalid_grant", "refresh token already used")
        return self._grant(client.client_id or "", refresh_token.resource or "", scopes, with_refresh=True)

    async def load_access_token(self, token: str) -> AccessToken | None:
        # Any audience: the revocation endpoint asks; services use AudienceVerifier instead.
        found = await AudienceVerifier(self.issuer, self.public_key, None).verify_token(token)
        if found is None or self._revoked.get((found.claims or {}).get("jti", "")) is not None:
            return None
        return found

    async def revoke_token(self, token: AccessToken | RefreshToken) -> None:
        if isinstance(token, RefreshToken):
            self._refresh.pop(token.token)
        else:
            self._revoked.put(str((token.claims or {}).get("jti", "")), time.time())

    async def exchange_identity_assertion(
        self, client: OAuthClientInformationFull, params: IdentityAssertionParams
    ) -> OAuthToken:
        raise TokenError("unsupported_grant_type", "this authority takes no identity assertions (SEP-990)")

    # --- what the SDK does not provide -------------------------------------------------------

    def _grant(
        self, client_id: str, resource: str, scopes: Sequence[str], *, with_refresh: bool
    ) -> OAuthToken:
        access = self.mint(resource, scopes, client_id=client_id)
        refresh = None
        if with_refresh:
            refresh = secrets.token_urlsafe(32)
            self._refresh.put(
                refresh,
                RefreshToken(
                    token=refresh,
                    client_id=client_id,
                    scopes=list(scopes),
                    expires_at=int(time.time()) + self.refresh_ttl,
                    resource=resource,
                    subject=USER,
                ),
            )
        return OAuthToken(
            access_token=access, expires_in=self.access_ttl, scope=" ".join(scopes), refresh_token=refresh
        )

    async def _consent(self, request: Request) -> Response:
        """The stand-in for the user: approves the pending request and sends the code to the client."""
        pending = self._pending.pop(request.query_params.get("request", ""))
        if pending is None:
            return JSONResponse(
                {"error": "invalid_request", "error_description": "no such authorization request"},
                status_code=400,
            )
        self.consents += 1
        code = secrets.token_urlsafe(32)
        params = pending.params
        self._codes.put(
            code,
            AuthorizationCode(
                code=code,
                scopes=list(pending.scopes),
                expires_at=time.time() + self.code_ttl,
                client_id=pending.client_id,
                code_challenge=params.code_challenge,
                redirect_uri=params.redirect_uri,
                redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
                resource=pending.resource,
                subject=USER,
            ),
        )
        target = construct_redirect_uri(
            str(params.redirect_uri), code=code, state=params.state, iss=self.issuer
        )
        return RedirectResponse(
            target, status_code=302, headers={"Cache-Control": "no-store", CONSENT_HEADER: CONSENT_LABEL}
        )

    async def _client_credentials(self, request: Request) -> Response:
        """The ``client_credentials`` grant (RFC 6749 section 4.4) for one audience."""
        form = await request.form()
        try:
            client = await ClientAuthenticator(self).authenticate_request(request)
        except AuthenticationError as refused:
            return _token_error("invalid_client", refused.message, 401)
        if "client_credentials" not in client.grant_types:
            return _token_error("unauthorized_client", "this client may not use the client_credentials grant")
        resource = str(form.get("resource") or "").rstrip("/")
        if resource not in self.resources:
            return _token_error("invalid_target", "name the API in the resource parameter (RFC 8707)")
        allowed = set((client.scope or "").split()) & set(self.resources[resource])
        asked = str(form.get("scope") or "").split() or sorted(allowed)
        if not set(asked) <= allowed:
            return _token_error("invalid_scope", "this client may not ask for that scope at that API")
        return PydanticJSONResponse(
            self._grant(client.client_id or "", resource, asked, with_refresh=False),
            headers={"Cache-Control": "no-store", "Pragma": "no-cache"},
        )

    def app(self) -> Starlette:
        """The authorization server as a Starlette app: the SDK's routes, its token endpoint extended."""
        redact_logs()
        registration = ClientRegistrationOptions(enabled=True)
        revocation = RevocationOptions(enabled=True)
        issuer = http_url(self.issuer)
        metadata = build_metadata(issuer, None, registration, revocation)
        metadata.grant_types_supported = [*(metadata.grant_types_supported or []), "client_credentials"]
        metadata.authorization_response_iss_parameter_supported = True
        sdk_token = TokenHandler(self, ClientAuthenticator(self))

        async def token(request: Request) -> Response:
            if (await request.form()).get("grant_type") == "client_credentials":
                return await self._client_credentials(request)
            return await sdk_token.handle(request)

        routes: list[Route] = []
        for route in create_auth_routes(self, issuer, None, registration, revocation):
            if route.path == "/.well-known/oauth-authorization-server":
                route = Route(
                    route.path,
                    _cors(request_response(MetadataHandler(metadata).handle)),
                    methods=["GET", "OPTIONS"],
                )
            elif route.path == TOKEN_PATH:
                limited = RequestBodyLimitMiddleware(request_response(token), DEFAULT_MAX_REQUEST_BODY_SIZE)
                route = Route(TOKEN_PATH, _cors(limited, ["POST", "OPTIONS"]), methods=["POST", "OPTIONS"])
            routes.append(route)
        routes.append(Route(CONSENT_PATH, self._consent, methods=["GET"]))
        return Starlette(routes=routes)


def _cors(app: ASGIApp, methods: Sequence[str] = ("GET", "OPTIONS")) -> ASGIApp:
    return CORSMiddleware(app, allow_origins="*", allow_methods=list(methods))


def _token_error(error: str, description: str, status: int = 400) -> Response:
    return JSONResponse(
        {"error": error, "error_description": description},
        status_code=status,
        headers={"Cache-Control": "no-store", "Pragma": "no-cache"},
    )


# --- the protected resource ---------------------------------------------------------------------

_refusal: contextvars.ContextVar[str | None] = contextvars.ContextVar("oauth_refusal", default=None)
"""Why the token of the request being checked was refused (set by the verifier, read by the challenge)."""


class AudienceVerifier:
    """The SDK's ``TokenVerifier`` for one service: signature, issuer, audience, expiry (lesson 61).

    ``audience`` is the service's own URL; ``None`` accepts any audience (only the authority uses
    that, for revocation). A refused token yields ``None`` and a reason that never quotes the token.
    """

    def __init__(self, issuer: str, public_key: ec.EllipticCurvePublicKey, audience: str | None) -> None:
        self.issuer, self.public_key = issuer, public_key
        self.audience = audience.rstrip("/") if audience is not None else None

    def check(self, token: str) -> AccessToken | str:
        """The token's grant, or why it is refused."""
        try:
            if jwt.get_unverified_header(token).get("typ") != TOKEN_TYPE:
                return "not an access token (typ is not at+jwt)"
            claims = jwt.decode(
                token,
                self.public_key,
                algorithms=[ALGORITHM],
                issuer=self.issuer,
                audience=self.audience,
                options={
                    "require": ["iss", "aud", "exp", "iat", "sub"],
                    "verify_aud": self.audience is not None,
                },
            )
        except jwt.ExpiredSignatureError:
            return "token expired"
        except jwt.InvalidIssuerError:
            return "token issued by another authorization server"
        except jwt.InvalidAudienceError:
            return "token issued for another service (audience)"
        except jwt.InvalidSignatureError:
            return "token signature does not verify"
        except jwt.PyJWTError:
            return "malformed token"
        return AccessToken(
            token=token,
            client_id=str(claims.get("client_id", "")),
            scopes=str(claims.get("scope", "")).split(),
            expires_at=int(claims["exp"]),
            resource=str(claims["aud"]),
            subject=str(claims["sub"]),
            claims={"iss": claims["iss"], "jti": claims.get("jti", "")},
        )

    async def verify_token(self, token: str) -> AccessToken | None:
        found = self.check(token)
        if isinstance(found, str):
            _refusal.set(found)
            return None
        return found


class _ExplainingBackend(BearerAuthBackend):
    """The SDK's bearer backend (its audience check kept); a refused token leaves its reason in the scope."""

    async def authenticate(self, conn: HTTPConnection) -> Any:
        _refusal.set(None)
        found = await super().authenticate(conn)
        if found is None and conn.headers.get("authorization", "").lower().startswith("bearer "):
            conn.scope["oauth.refusal"] = _refusal.get() or "token refused"
        return found


class _Challenge(RequireAuthMiddleware):
    """The SDK's ``RequireAuthMiddleware`` with RFC 6750 challenges that name the scope and the reason,
    and per-tool scopes: a ``tools/call`` of a tool in ``tool_scopes`` also needs that tool's scope."""

    def __init__(
        self, app: ASGIApp, scopes: list[str], metadata_url: AnyHttpUrl, tool_scopes: Mapping[str, str]
    ) -> None:
        super().__init__(app, scopes, metadata_url)
        self.tool_scopes = dict(tool_scopes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        auth = scope.get("auth")
        if not isinstance(scope.get("user"), AuthenticatedUser):
            reason = scope.get("oauth.refusal")
            error = {} if reason is None else {"error": "invalid_token", "error_description": reason}
            await self._challenge(scope, receive, send, 401, error, self.required_scopes)
            return
        granted = set(auth.scopes) if auth is not None else set()
        needed = list(self.required_scopes)
        if self.tool_scopes and scope.get("method") == "POST":
            body = await _read_body(receive)
            if body is None:
                await JSONResponse({"error": "request body too large"}, status_code=413)(scope, receive, send)
                return
            needed += [self.tool_scopes[t] for t in _called_tools(body) if t in self.tool_scopes]
            receive = _replay(body, receive)
        missing = [s for s in needed if s not in granted]
        if missing:
            error = {"error": "insufficient_scope", "error_description": f"Required scope: {missing[0]}"}
            await self._challenge(scope, receive, send, 403, error, list(dict.fromkeys(needed)))
            return
        await self.app(scope, receive, send)

    async def _challenge(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        status: int,
        error: dict[str, str],
        scopes: list[str],
    ) -> None:
        params = {**error, "resource_metadata": str(self.resource_metadata_url)}
        if scopes:
            params["scope"] = " ".join(scopes)
        header = "Bearer " + ", ".join(f'{k}="{v}"' for k, v in params.items())
        body = JSONResponse(
            error or {"error": "unauthorized", "error_description": "a bearer token is required"}
        )
        body.status_code = status
        body.headers["WWW-Authenticate"] = header
        await body(scope, receive, send)


async def _read_body(receive: Receive, limit: int = DEFAULT_MAX_REQUEST_BODY_SIZE) -> bytes | None:
    """The whole request body, or ``None`` past ``limit`` bytes."""
    chunks, size, more = [], 0, True
    while more:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        more = message.get("more_body", False)
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` once, then waits on the real one (a disconnect)."""
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


def _called_tools(body: bytes) -> list[str]:
    """The tool names of the ``tools/call`` requests in a JSON-RPC body (one message or a batch)."""
    try:
        parsed = json.loads(body)
    except ValueError:
        return []
    names = []
    for message in parsed if isinstance(parsed, list) else [parsed]:
        if not isinstance(message, dict):
            continue
        params = message.get("params")
        if message.get("method") == "tools/call" and isinstance(params, dict):
            names.append(str(params.get("name")))
    return names


class _Protected:
    """An ASGI app behind bearer authentication, its Protected Resource Metadata beside it."""

    def __init__(self, app: ASGIApp, metadata: Router, metadata_paths: set[str], guarded: ASGIApp) -> None:
        self.app, self.metadata, self.metadata_paths, self.guarded = app, metadata, metadata_paths, guarded

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] in self.metadata_paths:
            await self.metadata(scope, receive, send)
        elif scope["type"] in ("http", "websocket"):
            await self.guarded(scope, receive, send)
        else:  # lifespan: the wrapped app starts and stops as if unwrapped
            await self.app(scope, receive, send)


def protect(
    app: ASGIApp,
    *,
    resource_url: str,
    issuer: str,
    verifier: AudienceVerifier,
    scopes: Sequence[str] = (),
    name: str | None = None,
    tool_scopes: Mapping[str, str] | None = None,
) -> ASGIApp:
    """``app`` as an OAuth protected resource named ``resource_url`` (lesson 61).

    Every request but the metadata needs a bearer token that ``verifier`` accepts, issued for
    ``resource_url``, holding every scope in ``scopes``; a ``tools/call`` of a tool named in
    ``tool_scopes`` also needs that tool's scope (403 naming it: the client steps up). Works for
    any ASGI app; its lifespan passes through.
    """
    redact_logs()
    resource = http_url(resource_url)
    tool_scopes = dict(tool_scopes or {})
    offered = list(dict.fromkeys([*scopes, *tool_scopes.values()]))
    routes = create_protected_resource_routes(
        resource, [http_url(issuer)], scopes_supported=offered or None, resource_name=name
    )
    guarded = AuthenticationMiddleware(
        AuthContextMiddleware(
            _Challenge(app, list(scopes), build_resource_metadata_url(resource), tool_scopes)
        ),
        backend=_ExplainingBackend(verifier, resource_server_url=resource),
    )
    return _Protected(app, Router(routes=routes), {r.path for r in routes}, guarded)


# --- the client -----------------------------------------------------------------------------------

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


class MemoryTokenStorage:
    """The SDK's ``TokenStorage`` in memory: nothing is written to disk."""

    def __init__(self) -> None:
        self._tokens: OAuthToken | None = None
        self._client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self._tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self._tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self._client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self._client = client_info


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


# --- logs ------------------------------------------------------------------------------------------

_SECRET_PATTERNS: Final = (
    (re.compile(r"eyJ[\w-]*\.[\w-]*\.[\w-]*"), "<jwt>"),
    (re.compile(r"(?i)\b(bearer|basic) +[\w.~+/=-]+"), r"\1 …"),
    (
        re.compile(r"\b(code|code_verifier|refresh_token|access_token|client_secret|state)=[^&\s'\"]+"),
        r"\1=…",
    ),
    (
        re.compile(r'"(access_token|refresh_token|client_secret|code|code_verifier)" *: *"[^"]*"'),
        r'"\1": "…"',
    ),
)
LOG_SOURCES: Final = (
    "httpcore2.http11",
    "httpcore2.http2",
    "httpcore2.connection",
    "httpcore2.proxy",
    "httpcore2.socks",
    "httpx2",
    "mcp.client.auth.oauth2",
    "mcp.client.streamable_http",
    "mcp.server.auth.middleware.bearer_auth",
    "uvicorn.access",
    "uvicorn.error",
)
"""Loggers that can see a credential in flight. At DEBUG, ``httpcore2`` logs every response's
headers, so the ``Location`` of the consent redirect would carry the authorization code into
the log; :class:`SecretFilter` is put on each of them."""


def redact_secrets(text: str) -> str:
    """``text`` with JWTs, bearer/basic credentials, and code/token/secret values elided."""
    for pattern, replacement in _SECRET_PATTERNS:
        text = pattern.sub(replacement, text)
    return text


class SecretFilter(logging.Filter):
    """A logging filter that rewrites a record's message with :func:`redact_secrets` (never drops it)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact_secrets(message)
        if clean != message:
            record.msg, record.args = clean, ()
        return True


_FILTER: Final = SecretFilter()


def redact_logs(names: Iterable[str] = LOG_SOURCES) -> None:
    """Put the secret filter on each logger named (idempotent); a filter on a logger only sees
    what that logger itself logs, so each source is named."""
    for name in names:
        source = logging.getLogger(name)
        if _FILTER not in source.filters:
            source.addFilter(_FILTER)


# --- loopback servers (the runner is httpserve's, shared by lessons 60-62) ------------------------


@contextlib.contextmanager
def loopback_authority(**options: Any) -> Iterator[LocalAuthority]:
    """A :class:`LocalAuthority` listening on a free loopback port until the block ends.

    For ``serve --http --auth``: ``with loopback_authority() as authority:`` then serve
    ``authority.guard(app, url, scopes)``; a client finds the authority from the service's 401.
    """
    server = LoopbackServer()
    authority = LocalAuthority(server.url, **options)
    with serving((server, authority.app())):
        yield authority
