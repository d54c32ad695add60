"""``serve --http --auth`` and ``run --mcp-url --mcp-oauth`` under the simulated Windows profile (issue 36).

Two processes in the profile (``tests/winsim``: no ``fork``, ``O_NOFOLLOW``, ``SIGALRM`` ...,
a GBK console), over real loopback sockets: the authority and the protected file service in one,
the course's client running the OAuth flow in the other. A system check (two interpreters start).
"""

from __future__ import annotations

from test_net_winsim import serve_in_profile
from test_platform_winsim import in_profile, pytestmark

from lessons_lib.engine.http.authserver import CONSENT_LABEL

__all__ = ["pytestmark"]  # skipped where there is nothing to simulate


def test_serve_http_auth_and_run_mcp_oauth_under_the_profile() -> None:
    server = serve_in_profile("--auth")
    try:
        assert server.stdout is not None
        authority, service = server.stdout.readline(), server.stdout.readline()
        assert "authorization server at http://127.0.0.1:" in authority, authority + service
        url = service.split(" at ")[1].split()[0]
        done = in_profile("-m", "lessons_lib", "run", "--mcp-url", url, "--mcp-oauth", timeout=120)
    finally:
        server.terminate()
        server.communicate(timeout=20)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "authorization server: POST /token -> 200" in done.stdout
    assert f"consent: {CONSENT_LABEL}" in done.stdout
