"""No token passthrough: the order desk calls the order API with a token of its own (lesson 61).

Over real HTTP on loopback: the course's client gets a token for the desk (audience: the desk);
the desk's ``tools/call`` reaches the HTTP order API of lessons 40-41 with a ``client_credentials``
token whose audience is the API; the desk's token, passed through to the API, is refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import anyio
import httpx2
import jwt
import pytest
from _oauth_support import post

from lessons_lib.engine.httpauth import (
    Hops,
    LocalAuthority,
    LoopbackServer,
    oauth_client,
    oauth_session,
    serving,
)
from lessons_lib.examples.openapi.protected import ORDERS_SCOPE, order_desk_app, protected_order_api

DESK_SCOPE = "desk:use"


@dataclass
class Desk:
    authority: LocalAuthority
    desk: str
    api: str
    downstream: Hops
    caller: object
    """The course client's ``OAuthClientProvider`` once it has called the desk (its token inside)."""


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Desk]:
    from lessons_lib.examples.orders.data import create_database

    db = create_database(Path(tmp_path_factory.mktemp("orders")) / "orders.sqlite3")
    auth_server, api_server, desk_server = LoopbackServer(), LoopbackServer(), LoopbackServer()
    authority = LocalAuthority(auth_server.url)
    api, desk_url = api_server.url, desk_server.url + "/mcp"
    api_app = protected_order_api(db, authority, api)
    downstream = Hops()
    credentials = authority.add_service_client("order-desk", [ORDERS_SCOPE])
    desk_app = authority.guard(
        order_desk_app(api, credentials, authority.issuer, downstream), desk_url, [DESK_SCOPE]
    )
    with serving((auth_server, authority.app()), (api_server, api_app), (desk_server, desk_app)):
        caller = oauth_client(desk_url)
        yield Desk(authority, desk_url, api, downstream, caller)


def _get_order(desk: Desk) -> object:
    async def main() -> object:
        async with oauth_session(desk.desk, desk.caller) as session:  # type: ignore[arg-type]
            return await session.call_tool("get_order", {"order_id": "O-1042"})

    return anyio.run(main)


@pytest.fixture(scope="module")
def called(desk: Desk) -> object:
    return _get_order(desk)


def test_the_desk_answers_through_the_api_with_its_own_token(desk: Desk, called: object) -> None:
    assert not called.is_error and called.structured_content["order_id"] == "O-1042"  # type: ignore[attr-defined]
    steps = [(h.method, h.path, h.status) for h in desk.downstream]
    assert steps == [
        ("GET", "/orders/O-1042", 401),
        ("GET", "/.well-known/oauth-protected-resource", 200),
        ("GET", "/.well-known/oauth-authorization-server", 200),
        ("POST", "/token", 200),
        ("GET", "/orders/O-1042", 200),
    ]
    assert {h.host for h in desk.downstream} == {
        _host(desk.api),
        _host(desk.authority.issuer),
    }  # never the desk


def test_each_token_names_one_audience(desk: Desk, called: object) -> None:
    upstream = _claims(desk.caller.context.current_tokens.access_token)  # type: ignore[attr-defined]
    assert upstream["aud"] == desk.desk and upstream["scope"] == DESK_SCOPE


def test_the_desks_token_passed_through_to_the_api_is_refused(desk: Desk, called: object) -> None:
    upstream = desk.caller.context.current_tokens.access_token  # type: ignore[attr-defined]
    passed = httpx2.get(desk.api + "/orders/O-1042", headers={"Authorization": f"Bearer {upstream}"})
    assert passed.status_code == 401
    assert "another service (audience)" in passed.headers["www-authenticate"]
    assert "O-1042" not in passed.text  # no order data behind a refused token


def test_the_apis_token_is_refused_at_the_desk(desk: Desk, called: object) -> None:
    api_token = desk.authority.mint(desk.api, [ORDERS_SCOPE])
    assert (
        httpx2.get(desk.api + "/orders/O-1042", headers={"Authorization": f"Bearer {api_token}"}).status_code
        == 200
    )
    refused = post(desk.desk, api_token)
    assert refused.status_code == 401 and "another service (audience)" in refused.headers["www-authenticate"]


def test_the_apis_fixed_inner_token_is_no_way_in(desk: Desk) -> None:
    """Before the front, the app knew one fixed token; now nothing but an OAuth token for the API passes."""
    from lessons_lib.examples.openapi.router import DEMO_TOKEN

    answer = httpx2.get(desk.api + "/orders/O-1042", headers={"Authorization": f"Bearer {DEMO_TOKEN}"})
    assert answer.status_code == 401 and "malformed token" in answer.headers["www-authenticate"]


def _claims(token: str) -> dict[str, object]:
    return jwt.decode(token, options={"verify_signature": False})


def _host(url: str) -> str:
    return httpx2.URL(url).netloc.decode()
