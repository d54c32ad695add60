"""The credential canary over a whole OAuth run (lesson 61; the idea of ``test_openapi_tools``' key canary).

Every secret the run makes is collected as it is made: the access and refresh tokens the authority
issues (the course client's, the refreshed ones, the order desk's own downstream token), the
authorization codes, the PKCE verifiers, the desk's client secret. Then none may appear in any log
record (every logger at DEBUG: ``mcp``, ``httpx2``, ``httpcore2``, ``uvicorn`` with its access log,
``starlette``, ``lessons_lib``), in the recorded hops, in a tool result, in a refusal, or in
anything printed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from _oauth_support import post
from mcp.client.auth.oauth2 import PKCEParameters

from lessons_lib.engine.http import oauthclient
from lessons_lib.engine.http.authority import LocalAuthority
from lessons_lib.engine.http.oauthclient import Hops, oauth_client, oauth_session
from lessons_lib.engine.http.serve import LoopbackServer
from lessons_lib.examples.openapi.protected import ORDERS_SCOPE, order_desk_app, protected_order_api

LOGGERS = (
    "",
    "mcp",
    "httpx2",
    "httpcore2",
    "httpcore",
    "uvicorn",
    "uvicorn.access",
    "uvicorn.error",
    "starlette",
)


class Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []
        self.names: set[str] = set()

    def emit(self, record: logging.LogRecord) -> None:
        self.names.add(record.name)
        self.lines.append(self.format(record))


@pytest.fixture
def debug_logs() -> Iterator[Collect]:
    collect = Collect()
    collect.setFormatter(logging.Formatter("%(name)s %(message)s %(args)s"))
    # uvicorn's default logging config (another test's server in this worker) stops
    # ``uvicorn.access`` from propagating to the root: every logger is made to reach it here
    loggers = [logging.getLogger(name) for name in LOGGERS]
    before = [(lg.level, lg.propagate, lg.disabled) for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.DEBUG)
        lg.propagate, lg.disabled = True, False
    logging.getLogger().addHandler(collect)
    yield collect
    logging.getLogger().removeHandler(collect)
    for lg, (level, propagate, disabled) in zip(loggers, before, strict=True):
        lg.setLevel(level)
        lg.propagate, lg.disabled = propagate, disabled


def _collecting(monkeypatch: pytest.MonkeyPatch, authority: LocalAuthority, secrets: set[str]) -> None:
    """Record every secret where it is made."""
    grant = authority.grant

    def recording_grant(*args: Any, **kwargs: Any) -> Any:
        issued = grant(*args, **kwargs)
        secrets.update(s for s in (issued.access_token, issued.refresh_token) if s)
        return issued

    monkeypatch.setattr(authority, "grant", recording_grant)
    generate = PKCEParameters.generate

    def recording_generate() -> PKCEParameters:
        made = generate()
        secrets.add(made.code_verifier)
        return made

    monkeypatch.setattr(PKCEParameters, "generate", staticmethod(recording_generate))
    callback = oauthclient.AutoConsent.callback

    async def recording_callback(self: oauthclient.AutoConsent) -> Any:
        result = await callback(self)
        secrets.add(result.code)
        return result

    monkeypatch.setattr(oauthclient.AutoConsent, "callback", recording_callback)


def test_no_credential_reaches_a_log_a_hop_a_result_or_the_output(
    debug_logs: Collect, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from lessons_lib.services.orders.data import create_database

    secrets: set[str] = set()
    auth_server, api_server, desk_server = LoopbackServer(), LoopbackServer(), LoopbackServer()
    authority = LocalAuthority(auth_server.url)
    _collecting(monkeypatch, authority, secrets)
    api, desk = api_server.url, desk_server.url + "/mcp"
    credentials = authority.add_service_client("order-desk", [ORDERS_SCOPE])
    secrets.add(credentials.client_secret)
    hops, downstream = Hops(), Hops()
    db = create_database(tmp_path / "orders.sqlite3")
    api_app = protected_order_api(db, authority, api)
    desk_app = authority.guard(
        order_desk_app(api, credentials, authority.issuer, downstream), desk, ["desk:use"]
    )
    apps = [(auth_server, authority.app()), (api_server, api_app), (desk_server, desk_app)]
    caller = oauth_client(desk, hops=hops)
    seen: list[str] = []

    async def call() -> None:
        async with oauth_session(desk, caller, hops) as session:
            result = await session.call_tool("get_order", {"order_id": "O-1042"})
            seen.append(result.model_dump_json())

    for server, app in apps:
        server.start(app, log_level="debug")
    try:
        anyio.run(call)
        caller.context.token_expiry_time = time.time() - 1  # the client's token is old: it refreshes
        anyio.run(call)
        refused = post(desk, caller.context.current_tokens.access_token + "x")  # type: ignore[union-attr]
        seen += [refused.text, str(refused.headers)]
        upstream = caller.context.current_tokens.access_token  # type: ignore[union-attr]
        passed = httpx2.get(
            api + "/orders/O-1042", headers={"Authorization": f"Bearer {upstream}"}
        )  # passthrough
        seen += [passed.text, str(passed.headers)]
    finally:
        for server, _ in apps:
            server.stop()
    print(*seen, *hops, *downstream)

    assert "O-1042" in seen[0] and "O-1042" in seen[1]
    assert ("POST", "/token", 200) in [(h.method, h.path, h.status) for h in downstream]
    token_posts = [h for h in hops if (h.method, h.path, h.status) == ("POST", "/token", 200)]
    assert authority.consents == 1 and len(token_posts) == 2, "one authorization, then one refresh"
    assert passed.status_code == 401 and len(secrets) >= 8, (
        "codes, verifiers, 2 refresh + 3 access tokens, a secret"
    )
    assert {"httpcore2.http11", "uvicorn.access", "mcp.client.streamable_http"} <= debug_logs.names
    printed = capsys.readouterr()
    places = [*debug_logs.lines, *seen, *map(repr, hops), *map(repr, downstream), printed.out, printed.err]
    everything = "\n".join(places)
    leaked = [(name, _where(places, secret)) for name, secret in _named(secrets) if secret in everything]
    assert leaked == [], f"secrets found: {leaked}"
    assert "Bearer ey" not in everything and "code=" not in everything.replace("code=…", "")


def _named(secrets: set[str]) -> list[tuple[str, str]]:
    return [(f"secret #{n} ({len(s)} chars)", s) for n, s in enumerate(sorted(secrets))]


def _where(places: list[str], secret: str) -> list[str]:
    """The first words of each place holding ``secret`` (a logger's name, a hop), never the secret."""
    return [place[:60].replace(secret, "<secret>") for place in places if secret in place]


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        (
            "location: http://127.0.0.1/oauth/callback?code=abc123&state=s1&iss=x",
            "callback?code=…&state=…&iss=x",
        ),
        ("Authorization: Bearer abc.def-ghi", "Authorization: Bearer …"),
        (
            '{"access_token": "t1", "refresh_token": "t2", "scope": "a"}',
            '{"access_token": "…", "refresh_token": "…"',
        ),
        ("header eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJ4In0.c2ln tail", "header <jwt> tail"),
        ("client_secret=s3&client_id=c", "client_secret=…&client_id=c"),
    ],
)
def test_the_log_filter_elides_each_kind_of_credential(line: str, kept: str) -> None:
    from lessons_lib.engine.http.secretfilter import SecretFilter, redact_secrets

    assert kept in redact_secrets(line)
    record = logging.LogRecord("httpcore2.http11", logging.DEBUG, __file__, 1, "seen %s", (line,), None)
    assert SecretFilter().filter(record) and kept in record.getMessage()
