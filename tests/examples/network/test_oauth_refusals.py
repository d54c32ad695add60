"""A protected service refuses every token that is not for it, over real HTTP (lesson 61).

Another audience, expired, another issuer (named, or a forged signature), a missing scope (403
``insufficient_scope`` naming it for step-up), a malformed token, a JWT that is not an access token.
"""

from __future__ import annotations

from collections.abc import Iterator

import jwt
import pytest
from _oauth_support import FILES_SCOPE, World, loopback_world, post, read_notes

from lessons_lib.engine.http.authority import LocalAuthority
from lessons_lib.engine.http.oauthclient import oauth_client


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    with loopback_world() as running:
        yield running


def _refusal(world: World, token: str, status: int = 401) -> str:
    answer = post(world.files, token)
    assert answer.status_code == status
    challenge = answer.headers["www-authenticate"]
    assert "resource_metadata=" in challenge and f'scope="{FILES_SCOPE}"' in challenge
    return challenge


def test_a_token_the_authority_grants_for_the_service_is_accepted(world: World) -> None:
    assert post(world.files, world.authority.mint(world.files, [FILES_SCOPE])).status_code == 200


def test_a_token_from_the_real_flow_for_another_service_is_refused(world: World) -> None:
    """The twin service has the same tool and scope: only the audience tells the tokens apart."""
    provider = oauth_client(world.twin)
    assert not read_notes(world.twin, provider).is_error
    tokens = provider.context.current_tokens
    assert tokens is not None
    challenge = _refusal(world, tokens.access_token)
    assert 'error="invalid_token"' in challenge and "another service (audience)" in challenge


@pytest.mark.parametrize(
    ("mint", "reason"),
    [
        (lambda w: w.authority.mint(w.twin, [FILES_SCOPE]), "another service (audience)"),
        (lambda w: w.authority.mint(w.files, [FILES_SCOPE], lifetime=-5), "token expired"),
        (
            lambda w: w.authority.mint(w.files, [FILES_SCOPE], issuer="http://127.0.0.1:9"),
            "another authorization server",
        ),
        (
            lambda w: LocalAuthority(w.issuer).mint(w.files, [FILES_SCOPE]),  # same issuer name, not its key
            "signature does not verify",
        ),
        (lambda w: "not-a-token", "malformed token"),
        (
            lambda w: jwt.encode({"iss": w.issuer, "aud": w.files}, "k" * 32, algorithm="HS256"),
            "not an access token",
        ),
    ],
    ids=["audience", "expired", "issuer", "forged", "malformed", "not-at+jwt"],
)
def test_each_wrong_token_is_refused_with_its_reason(world: World, mint: object, reason: str) -> None:
    challenge = _refusal(world, mint(world))  # type: ignore[operator]
    assert 'error="invalid_token"' in challenge and reason in challenge


def test_a_missing_scope_is_403_insufficient_scope_naming_it(world: World) -> None:
    challenge = _refusal(world, world.authority.mint(world.files, ["files:write"]), status=403)
    assert 'error="insufficient_scope"' in challenge
    assert f'error_description="Required scope: {FILES_SCOPE}"' in challenge
