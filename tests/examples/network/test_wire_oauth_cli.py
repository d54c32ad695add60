"""``serve --http --auth`` and ``run --mcp-url --mcp-oauth`` (issue 36, lessons 60-61), over loopback HTTP.

The service is a protected resource of a loopback authority (the SDK's auth parts); the course's
client runs the OAuth flow with the SDK's Streamable HTTP client and ``oauth_client``. The CLI
prints the 401 -> metadata -> authorize -> token -> call sequence and the consent stand-in's label;
the credential canary covers the CLI's output, the run's JSON trace and every log record.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import anyio
import httpx2
import pytest
from _engine_support import clean_env
from _oauth_support import post
from conftest import REPO_ROOT
from test_oauth_canary import Collect, _collecting, debug_logs  # noqa: F401  (debug_logs: a fixture)

from lessons_lib.cli import main
from lessons_lib.engine.http.authority import loopback_authority
from lessons_lib.engine.http.authserver import CONSENT_LABEL
from lessons_lib.engine.http.oauthclient import Hops, oauth_client, oauth_session
from lessons_lib.engine.http.serve import running
from lessons_lib.examples.files.cli_serve import AUTH_SCOPES
from lessons_lib.services.files.service import build_server

FLOW = (
    "service: POST /mcp -> 401",
    "service: GET /.well-known/oauth-protected-resource/mcp -> 200",
    "authorization server: GET /.well-known/oauth-authorization-server -> 200",
    "authorization server: POST /register -> 201",
    "authorization server: GET /authorize?response_type=code",
    "authorization server: GET /consent?request=… -> 302",
    "authorization server: POST /token -> 200",
    "service: POST /mcp -> 200",
)
"""The hops the CLI prints, in this order (each line starts with one of these)."""


@pytest.fixture
def protected_files() -> Iterator[tuple[str, Any]]:
    """The file service behind a loopback authority, in this process: (its MCP URL, the authority)."""
    required, per_tool = AUTH_SCOPES["files"]
    with loopback_authority() as authority:

        def wrap(app: Any, url: str) -> Any:
            return authority.guard(app, url, required, name="file service", tool_scopes=per_tool)

        with running(build_server(), wrap=wrap) as url:
            yield url, authority


def _in_order(lines: list[str], wanted: tuple[str, ...]) -> bool:
    at = 0
    for line in lines:
        if at < len(wanted) and line.strip().startswith(wanted[at]):
            at += 1
    return at == len(wanted)


def test_run_mcp_oauth_prints_the_flow_and_the_stand_in_and_no_secret(
    protected_files: tuple[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    debug_logs: Collect,  # noqa: F811
) -> None:
    url, authority = protected_files
    secrets: set[str] = set()
    _collecting(monkeypatch, authority, secrets)
    assert main(["run", "--mcp-url", url, "--mcp-oauth"]) == 0
    out, err = capsys.readouterr()
    assert _in_order(out.splitlines(), FLOW), out
    assert f"consent: {CONSENT_LABEL}" in out and authority.consents == 1
    assert "127.0.0.1" not in out.partition("OAuth flow")[2]  # hosts by role, no port
    assert main(["run", "--mcp-url", url, "--mcp-oauth", "--json"]) == 0
    trace_json, err2 = capsys.readouterr()
    trace = json.loads(trace_json)
    assert trace["outcome"]["status"] == "answered"
    envelopes = [e["http"] for e in trace["events"] if "http" in e]
    assert envelopes and all(e["status"] == 200 or e["status"] == 202 for e in envelopes)
    assert not any(k in json.dumps(envelopes).lower() for k in ("authorization", "location", "bearer"))
    assert len(secrets) >= 6  # two runs: access + refresh token, code, PKCE verifier each
    for secret in secrets:
        for where, text in {"stdout": out, "stderr": err + err2, "trace": trace_json}.items():
            assert secret not in text, f"a credential reached the {where}"
        assert not any(secret in line for line in debug_logs.lines), "a credential reached a log"


def test_the_trace_layer_drops_authorization_and_location(protected_files: tuple[str, Any]) -> None:
    """The envelope keeps the MCP headers only, each value redacted: never a bearer or a code."""
    from lessons_lib.engine.http.client import _headers

    headers = httpx2.Headers(
        {
            "Authorization": "Bearer eyJabc.def.ghi",
            "Location": "http://127.0.0.1/oauth/callback?code=SECRETCODE&state=s",
            "MCP-Protocol-Version": "2025-11-25",
            "Mcp-Name": "Bearer eyJabc.def.ghi",
        }
    )
    kept = _headers(headers)
    assert set(kept) == {"mcp-protocol-version", "mcp-name"} and "eyJ" not in json.dumps(kept)


def test_run_mcp_oauth_needs_a_url_and_a_protected_service_without_it_is_refused(
    protected_files: tuple[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "--mcp-oauth"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    url, _ = protected_files
    assert post(url).status_code == 401  # no token: the 401 the flow starts from
    assert main(["run", "--mcp-url", url]) == 1  # without the flag: the run fails, one line says why
    err = capsys.readouterr().err
    assert "run: the service answered HTTP 401: it needs a token; add --mcp-oauth." in err.splitlines()


def _serve(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "lessons_lib", "serve", "--http", "--auth", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        env=clean_env(),
        cwd=REPO_ROOT,
    )


async def _desk(url: str, hops: Hops, secrets: set[str]) -> tuple[list[str], bool, bool]:
    from lessons_lib.examples.orders.acceptance import VALID

    with anyio.fail_after(60):
        provider = oauth_client(url, hops=hops)
        async with oauth_session(url, provider, hops) as session:
            tools = sorted(t.name for t in (await session.list_tools()).tools)
            read = await session.call_tool("get_order", VALID["get_order"])
            write = await session.call_tool("create_investigation", VALID["create_investigation"])
            tokens = provider.context.current_tokens
            assert tokens is not None and tokens.refresh_token is not None
            secrets.update((tokens.access_token, tokens.refresh_token))
            return tools, not read.is_error, not write.is_error


@pytest.mark.skipif(os.name == "nt", reason="SIGINT to a child process is a POSIX signal")
def test_serve_http_auth_the_desk_needs_desk_use_and_create_investigation_steps_up_to_desk_write() -> None:
    proc = _serve("--example", "orders")
    try:
        assert proc.stdout is not None
        authority_line, service_line = proc.stdout.readline(), proc.stdout.readline()
        assert authority_line.startswith("serve: authorization server at http://127.0.0.1:"), authority_line
        assert CONSENT_LABEL in authority_line
        url = service_line.split(" at ")[1].split()[0]
        refused = post(url)
        assert refused.status_code == 401 and "resource_metadata=" in refused.headers["www-authenticate"]
        hops = Hops()
        secrets: set[str] = set()
        tools, read, wrote = anyio.run(_desk, url, hops, secrets)
        assert "create_investigation" in tools and read and wrote
        lines = [f"{h.method} {h.path} -> {h.status}" for h in hops]
        step_up = [line for line in lines if line.startswith("POST /mcp -> 403")]
        assert len(step_up) == 1 and sum(line.startswith("GET /consent") for line in lines) == 2
        assert any("scope=desk%3Ause" in line or "scope=desk:use" in line for line in lines), lines
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 0 and out == "" and err.endswith("serve: stopped.\n")
    assert len(secrets) == 2 and not any(s in out + err for s in secrets)  # the server's console: no token


def test_serve_auth_without_http_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--auth"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--http" in err
