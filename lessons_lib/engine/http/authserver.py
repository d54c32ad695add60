"""The authorization server's HTTP routes: the SDK's auth routes around the course's authority (lesson 61).

:func:`authority_app` serves an authority (an ``OAuthAuthorizationServerProvider``) with the SDK's
``create_auth_routes``: metadata (RFC 8414), registration, authorize, token, revocation. Added here,
since the SDK's token handler knows ``authorization_code``, ``refresh_token`` and the jwt-bearer
grant only: the ``client_credentials`` grant (RFC 6749 section 4.4) a service uses to call another
API with a token of its own, and the consent page of the stand-in for the user.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, Protocol

from mcp.server.auth.handlers.metadata import MetadataHandler
from mcp.server.auth.handlers.token import TokenHandler
from mcp.server.auth.json_response import PydanticJSONResponse
from mcp.server.auth.middleware.client_auth import AuthenticationError, ClientAuthenticator
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    OAuthAuthorizationServerProvider,
    RefreshToken,
)
from mcp.server.auth.routes import TOKEN_PATH, build_metadata, create_auth_routes
from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE, RequestBodyLimitMiddleware
from mcp.shared.auth import OAuthToken
from starlette.applications import Starlette
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, request_response

from lessons_lib.engine.http.protected import http_url
from lessons_lib.engine.http.secretfilter import redact_logs

if TYPE_CHECKING:
    from starlette.types import ASGIApp

CONSENT_PATH: Final = "/consent"
CONSENT_HEADER: Final = "X-Consent"
CONSENT_LABEL: Final = "auto-approved by the course's stand-in for the user (no person was asked)"


class Authority(OAuthAuthorizationServerProvider[AuthorizationCode, RefreshToken, AccessToken], Protocol):
    """What the routes need of an authority besides the SDK's provider protocol."""

    issuer: str
    resources: dict[str, tuple[str, ...]]

    def grant(
        self, client_id: str, resource: str, scopes: Sequence[str], *, with_refresh: bool
    ) -> OAuthToken:
        """Tokens for ``client_id`` at ``resource`` (a refresh token too if ``with_refresh``)."""
        ...

    async def consent(self, request: Request) -> Response:
        """The consent page: approves a pending authorization request (the stand-in for the user)."""
        ...


def authority_app(authority: Authority) -> Starlette:
    """The authorization server as a Starlette app: the SDK's routes, its token endpoint extended."""
    redact_logs()
    registration = ClientRegistrationOptions(enabled=True)
    revocation = RevocationOptions(enabled=True)
    issuer = http_url(authority.issuer)
    metadata = build_metadata(issuer, None, registration, revocation)
    metadata.grant_types_supported = [*(metadata.grant_types_supported or []), "client_credentials"]
    metadata.authorization_response_iss_parameter_supported = True
    sdk_token = TokenHandler(authority, ClientAuthenticator(authority))

    async def token(request: Request) -> Response:
        if (await request.form()).get("grant_type") == "client_credentials":
            return await _client_credentials(authority, request)
        return await sdk_token.handle(request)

    routes: list[Route] = []
    for route in create_auth_routes(authority, issuer, None, registration, revocation):
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
    routes.append(Route(CONSENT_PATH, authority.consent, methods=["GET"]))
    return Starlette(routes=routes)


async def _client_credentials(authority: Authority, request: Request) -> Response:
    """The ``client_credentials`` grant (RFC 6749 section 4.4) for one audience."""
    form = await request.form()
    try:
        client = await ClientAuthenticator(authority).authenticate_request(request)
    except AuthenticationError as refused:
        return _token_error("invalid_client", refused.message, 401)
    if "client_credentials" not in client.grant_types:
        return _token_error("unauthorized_client", "this client may not use the client_credentials grant")
    resource = str(form.get("resource") or "").rstrip("/")
    if resource not in authority.resources:
        return _token_error("invalid_target", "name the API in the resource parameter (RFC 8707)")
    allowed = set((client.scope or "").split()) & set(authority.resources[resource])
    asked = str(form.get("scope") or "").split() or sorted(allowed)
    if not set(asked) <= allowed:
        return _token_error("invalid_scope", "this client may not ask for that scope at that API")
    return PydanticJSONResponse(
        authority.grant(client.client_id or "", resource, asked, with_refresh=False),
        headers={"Cache-Control": "no-store", "Pragma": "no-cache"},
    )


def _cors(app: ASGIApp, methods: Sequence[str] = ("GET", "OPTIONS")) -> ASGIApp:
    return CORSMiddleware(app, allow_origins="*", allow_methods=list(methods))


def _token_error(error: str, description: str, status: int = 400) -> Response:
    return JSONResponse(
        {"error": error, "error_description": description},
        status_code=status,
        headers={"Cache-Control": "no-store", "Pragma": "no-cache"},
    )
