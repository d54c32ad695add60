"""The OAuth 2.1 flow on loopback, over real HTTP: 401 -> metadata -> register -> authorize -> token -> call.

Lesson 61's sequence: the SDK's client (``OAuthClientProvider``) against the local authority and
the course's file service as a protected resource (``lessons_lib.engine.http``: ``authority``,
``protected``, ``oauthclient``).
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Iterator
from urllib.parse import parse_qsl, urlsplit

import httpx2
import pytest
from _oauth_support import FILES_SCOPE, World, loopback_world, post, read_notes

from lessons_lib.engine.http.authserver import CONSENT_HEADER, CONSENT_LABEL
from lessons_lib.engine.http.oauthclient import REDIRECT_URI, Hops, oauth_client, sequence


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    with loopback_world() as running:
        yield running


def test_the_401_names_the_protected_resource_metadata(world: World) -> None:
    refused = post(world.files)
    assert refused.status_code == 401
    challenge = refused.headers["www-authenticate"]
    metadata_url = world.files.replace("/mcp", "/.well-known/oauth-protected-resource/mcp")
    assert challenge.startswith("Bearer ") and f'resource_metadata="{metadata_url}"' in challenge
    assert f'scope="{FILES_SCOPE}"' in challenge and "error=" not in challenge  # no token, no error code
    metadata = httpx2.get(metadata_url).json()
    assert metadata["resource"] == world.files
    assert metadata["authorization_servers"] == [world.issuer]
    assert metadata["scopes_supported"] == [FILES_SCOPE]


def test_the_authority_publishes_pkce_registration_and_its_grants(world: World) -> None:
    metadata = httpx2.get(world.issuer + "/.well-known/oauth-authorization-server").json()
    assert metadata["issuer"] == world.issuer
    assert metadata["code_challenge_methods_supported"] == ["S256"]
    assert metadata["registration_endpoint"] == world.issuer + "/register"
    assert {"authorization_code", "refresh_token", "client_credentials"} <= set(
        metadata["grant_types_supported"]
    )
    assert metadata["authorization_response_iss_parameter_supported"] is True


def test_the_sdk_client_runs_the_whole_flow_then_calls_a_tool(world: World) -> None:
    hops, before = Hops(), world.authority.consents
    result = read_notes(world.files, oauth_client(world.files, hops=hops), hops)
    assert not result.is_error and "项目笔记" in result.content[0].text
    assert world.authority.consents == before + 1
    steps = [(h.method, h.path.split("?")[0], h.status) for h in hops]
    assert steps[:8] == [
        ("POST", "/mcp", 401),
        ("GET", "/.well-known/oauth-protected-resource/mcp", 200),
        ("GET", "/.well-known/oauth-authorization-server", 200),
        ("POST", "/register", 201),
        ("GET", "/authorize", 302),
        ("GET", "/consent", 302),
        ("POST", "/token", 200),
        ("POST", "/mcp", 200),
    ]
    roles = {
        httpx2.URL(world.files).netloc.decode(): "file service",
        httpx2.URL(world.issuer).netloc.decode(): "AS",
    }
    lines = sequence(hops, roles)
    assert lines[0] == "file service: POST /mcp -> 401" and lines[5].startswith("AS: GET /consent?request=…")
    assert "resource=<file service>/mcp" in lines[4]
    assert not any("127.0.0.1" in line for line in lines)
    authorize = dict(parse_qsl(urlsplit(hops[4].path).query))
    assert authorize["resource"] == world.files and authorize["code_challenge_method"] == "S256"
    assert authorize["scope"] == FILES_SCOPE and authorize["state"] == "…"  # recorded without its value


def _register(world: World) -> str:
    registered = httpx2.post(
        world.issuer + "/register",
        json={"redirect_uris": [REDIRECT_URI], "token_endpoint_auth_method": "none", "client_name": "test"},
    )
    assert registered.status_code == 201
    return str(registered.json()["client_id"])


def _authorize(world: World, client_id: str, challenge: str, **extra: str) -> httpx2.Response:
    """Authorize, then (if the authority sends us there) the consent stand-in: the last redirect."""
    params = {"response_type": "code", "client_id": client_id, "redirect_uri": REDIRECT_URI}
    params |= {"code_challenge": challenge, "code_challenge_method": "S256", "state": "s", **extra}
    answer = httpx2.get(world.issuer + "/authorize", params=params)
    assert answer.status_code == 302
    if answer.headers["location"].startswith(world.issuer):
        answer = httpx2.get(answer.headers["location"])
        assert answer.headers[CONSENT_HEADER] == CONSENT_LABEL
    return answer


def test_pkce_the_code_is_worth_nothing_without_its_verifier_and_works_once(world: World) -> None:
    client_id = _register(world)
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
    back = _authorize(world, client_id, challenge, resource=world.files)
    code = dict(parse_qsl(urlsplit(back.headers["location"]).query))["code"]
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "client_id": client_id,
        "redirect_uri": REDIRECT_URI,
    }
    wrong = httpx2.post(world.issuer + "/token", data={**form, "code_verifier": verifier[::-1]})
    assert wrong.status_code == 400 and wrong.json()["error"] == "invalid_grant"
    right = httpx2.post(world.issuer + "/token", data={**form, "code_verifier": verifier})
    assert right.status_code == 200 and right.json()["scope"] == FILES_SCOPE
    again = httpx2.post(world.issuer + "/token", data={**form, "code_verifier": verifier})
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"
    assert post(world.files, right.json()["access_token"]).status_code == 200
    refreshed = httpx2.post(
        world.issuer + "/token",
        data={
            "grant_type": "refresh_token",
            "refresh_token": right.json()["refresh_token"],
            "client_id": client_id,
        },
    )
    assert (
        refreshed.status_code == 200
        and post(world.files, refreshed.json()["access_token"]).status_code == 200
    )
    reused = httpx2.post(
        world.issuer + "/token",
        data={
            "grant_type": "refresh_token",
            "refresh_token": right.json()["refresh_token"],
            "client_id": client_id,
        },
    )
    assert reused.status_code == 400  # refresh tokens rotate


@pytest.mark.parametrize(
    ("extra", "error"),
    [
        ({}, "invalid_target"),
        ({"resource": "http://127.0.0.1:9/elsewhere"}, "invalid_target"),
        ({"resource": "FILES", "scope": "files:write"}, "invalid_scope"),
    ],
    ids=["no-resource", "unknown-resource", "scope-the-service-lacks"],
)
def test_no_code_without_one_known_audience_and_its_scopes(
    world: World, extra: dict[str, str], error: str
) -> None:
    extra = {k: world.files if v == "FILES" else v for k, v in extra.items()}
    back = _authorize(world, _register(world), "x" * 43, **extra)
    assert dict(parse_qsl(urlsplit(back.headers["location"]).query))["error"] == error


def test_the_authority_keeps_bounded_stores() -> None:
    from lessons_lib.engine.http.stores import BoundedStore

    store: BoundedStore[int, int] = BoundedStore(3)
    for n in range(10):
        store.put(n, n)
    assert len(store) == 3 and store.get(6) is None and store.get(9) == 9


def test_loopback_authority_serves_until_the_block_ends() -> None:
    from lessons_lib.engine.http.authority import loopback_authority

    with loopback_authority() as authority:
        metadata = httpx2.get(authority.issuer + "/.well-known/oauth-authorization-server")
        assert metadata.status_code == 200 and metadata.json()["issuer"] == authority.issuer
    with pytest.raises(httpx2.ConnectError):
        httpx2.get(authority.issuer + "/.well-known/oauth-authorization-server")
