"""A protected resource: any ASGI app behind the loopback authority's bearer tokens (lesson 61).

:func:`protect` wraps an app (an MCP Streamable HTTP app, the order API) as an OAuth protected
resource: its Protected Resource Metadata (RFC 9728, the SDK's ``create_protected_resource_routes``),
401 with ``WWW-Authenticate`` naming that metadata, 403 ``insufficient_scope`` naming the scope.
:class:`AudienceVerifier` (the SDK's ``TokenVerifier``) refuses a token for another audience, an
expired one, one from another issuer, a forged or malformed one, and says why. Written here because
the SDK (mcp 2.3.0) leaves them out: the ``scope`` auth-parameter of RFC 6750 section 3 in the
challenges (the SDK names the missing scope only in ``error_description``, but its own client reads
``scope`` for step-up), scopes per tool (the SDK's scopes cover a whole endpoint), the reason a
token was refused.
"""

from __future__ import annotations

import contextvars
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Final

import jwt
from cryptography.hazmat.primitives.asymmetric import ec
from mcp.server.auth.middleware.auth_context import AuthContextMiddleware
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser, BearerAuthBackend, RequireAuthMiddleware
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.routes import build_resource_metadata_url, create_protected_resource_routes
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE
from pydantic import AnyHttpUrl, ConfigDict, TypeAdapter
from starlette.authentication import AuthCredentials
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.routing import Router

from lessons_lib.engine.http.secretfilter import redact_logs

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

ALGORITHM: Final = "ES256"
TOKEN_TYPE: Final = "at+jwt"
"""RFC 9068: the ``typ`` of a JWT access token, so an ID token or other JWT is not taken for one."""

_URL = TypeAdapter(AnyHttpUrl, config=ConfigDict(url_preserve_empty_path=True))


def http_url(url: str) -> AnyHttpUrl:
    """``url`` as the SDK's URL type, an empty path kept empty (issuers compare as strings)."""
    return _URL.validate_python(url)


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

    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, AuthenticatedUser] | None:
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
