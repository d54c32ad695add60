"""The loopback OAuth 2.1 authorization server that decides who may call a course service (lesson 61).

:class:`LocalAuthority` is an ``OAuthAuthorizationServerProvider`` of the MCP SDK (``mcp.server.auth``),
kept in memory (bounded stores): dynamic client registration (RFC 7591), authorization code with
PKCE (S256 only), refresh, revocation, and the ``client_credentials`` grant for services. Every
token names exactly one service as its audience (the RFC 8707 resource indicator is required).
Access tokens are JWTs in the RFC 9068 profile, signed with an ES256 key made at start and never
stored. The consent step is **an auto-approving stand-in for the user** (``/consent``): it
approves whatever a registered client asked for, within the service's scopes; no person is asked.

What the SDK (mcp 2.3.0) does not provide is written here: the provider itself (the SDK ships the
protocol, not a store), the consent page, issuing signed access tokens (the SDK leaves the token
format to the provider). Its HTTP routes are in :mod:`lessons_lib.engine.http.authserver`; a
service it guards, in :mod:`lessons_lib.engine.http.protected`; the client, in
:mod:`lessons_lib.engine.http.oauthclient`.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final
from urllib.parse import urlencode

import jwt
from cryptography.hazmat.primitives.asymmetric import ec
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
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from lessons_lib.engine.http.authserver import CONSENT_HEADER, CONSENT_LABEL, CONSENT_PATH, authority_app
from lessons_lib.engine.http.protected import ALGORITHM, TOKEN_TYPE, AudienceVerifier, http_url, protect
from lessons_lib.engine.http.serve import LoopbackServer, serving
from lessons_lib.engine.http.stores import BoundedStore

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.types import ASGIApp

USER: Final = "learner"
"""The one resource owner of the loopback authority (the ``sub`` of the tokens it grants a user)."""


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
        return self.grant(
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
        return self.grant(client.client_id or "", refresh_token.resource or "", scopes, with_refresh=True)

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

    def grant(
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

    async def consent(self, request: Request) -> Response:
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

    def app(self) -> Starlette:
        """The authorization server as a Starlette app: the SDK's routes, its token endpoint extended."""
        return authority_app(self)


@contextlib.contextmanager
def loopback_authority(**options: int) -> Iterator[LocalAuthority]:
    """A :class:`LocalAuthority` listening on a free loopback port until the block ends.

    For ``serve --http --auth``: ``with loopback_authority() as authority:`` then serve
    ``authority.guard(app, url, scopes)``; a client finds the authority from the service's 401.
    """
    server = LoopbackServer()
    authority = LocalAuthority(server.url, **options)
    with serving((server, authority.app())):
        yield authority
