"""No token passthrough: the order desk calls the order API with a token of its own (lesson 61).

Over real HTTP on loopback: the course's client gets a token for the desk (audience: the desk);
the desk's ``tools/call`` reaches the HTTP order API of lessons 40-41 with a ``client_credentials``
token whose audience is the API; the desk's token, passed through to the API, is refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import anyio
import httpx2
import jwt
import pytest
from _engine_support import MCP_HEADERS
from _oauth_support import post

from lessons_lib.engine.http.authority import LocalAuthority
from lessons_lib.engine.http.oauthclient import Hops, oauth_client, oauth_session
from lessons_lib.engine.http.serve import LoopbackServer, serving
from lessons_lib.examples.openapi.protected import ORDERS_SCOPE, order_desk_app, protected_order_api

DESK_SCOPE = "desk:use"
WRITE_SCOPE = "desk:write"


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
    from lessons_lib.services.orders.data import create_database

    db = create_database(Path(tmp_path_factory.mktemp("orders")) / "orders.sqlite3")
    auth_server, api_server, desk_server = LoopbackServer(), LoopbackServer(), LoopbackServer()
    authority = LocalAuthority(auth_server.url)
    api, desk_url = api_server.url, desk_server.url + "/mcp"
    api_app = protected_order_api(db, authority, api)
    downstream = Hops()
    credentials = authority.add_service_client("order-desk", [ORDERS_SCOPE])
    desk_app = authority.guard(
        order_desk_app(api, credentials, authority.issuer, downstream),
        desk_url,
        [DESK_SCOPE],
        tool_scopes={"create_investigation": WRITE_SCOPE},
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


def test_a_write_tool_needs_its_scope_and_the_sdk_client_steps_up(desk: Desk) -> None:
    hops, before = Hops(), desk.authority.consents
    caller = oauth_client(desk.desk, hops=hops)
    arguments = {"order_id": "O-1042", "reason": "delayed", "note": "the parcel has not arrived"}

    async def main() -> tuple[object, object]:
        async with oauth_session(desk.desk, caller, hops) as session:
            read = await session.call_tool("get_order", {"order_id": "O-1042"})
            return read, await session.call_tool("create_investigation", arguments)

    read, write = anyio.run(main)
    assert not read.is_error and "invalid_token" not in write.content[0].text  # type: ignore[attr-defined]
    assert desk.authority.consents == before + 2
    refused = [h for h in hops if h.status == 403]
    assert len(refused) == 1 and refused[0].path == "/mcp"
    asked = [
        dict(parse_qsl(urlsplit(h.path).query))["scope"] for h in hops if h.path.startswith("/authorize")
    ]
    assert [set(a.split()) for a in asked] == [{DESK_SCOPE}, {DESK_SCOPE, WRITE_SCOPE}]
    assert set(_claims(caller.context.current_tokens.access_token)["scope"].split()) == {
        DESK_SCOPE,
        WRITE_SCOPE,
    }  # type: ignore[attr-defined]


def test_the_403_names_the_tools_scope(desk: Desk) -> None:
    token = desk.authority.mint(desk.desk, [DESK_SCOPE])
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "create_investigation"}}
    headers = {**MCP_HEADERS, "Authorization": f"Bearer {token}"}
    answer = httpx2.post(desk.desk, json=call, headers=headers)
    assert answer.status_code == 403
    challenge = answer.headers["www-authenticate"]
    assert (
        f'scope="{DESK_SCOPE} {WRITE_SCOPE}"' in challenge and f"Required scope: {WRITE_SCOPE}" in challenge
    )
    metadata = httpx2.get(desk.desk.replace("/mcp", "/.well-known/oauth-protected-resource/mcp")).json()
    assert metadata["scopes_supported"] == [DESK_SCOPE, WRITE_SCOPE]


def _claims(token: str) -> dict[str, object]:
    return jwt.decode(token, options={"verify_signature": False})


def _host(url: str) -> str:
    return httpx2.URL(url).netloc.decode()
