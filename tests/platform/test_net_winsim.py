"""``serve --http`` and ``run --mcp-url`` under the simulated Windows profile (issue 36, README "Platforms").

The profile (``tests/winsim``) removes what Windows' CPython lacks (``O_NOFOLLOW``, ``fork``,
``SIGALRM``, ``resource`` ...) in each process started with its environment. The server and the
application run there as two processes and talk over a real loopback socket.
"""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import REPO_ROOT
from test_platform_winsim import in_profile, profile_env, pytestmark

__all__ = ["pytestmark"]  # skipped where there is nothing to simulate


def serve_in_profile(*options: str) -> subprocess.Popen[str]:
    """``python -m lessons_lib serve --http OPTIONS`` in the profile, its console in code page 936."""
    return subprocess.Popen(
        [sys.executable, "-m", "lessons_lib", "serve", "--http", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="gbk",
        errors="replace",
        env=profile_env(),
        cwd=REPO_ROOT,
    )


def test_serve_http_and_run_mcp_url_under_the_profile() -> None:
    server = serve_in_profile("--port", "0")
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert " at http://127.0.0.1:" in line, line + (
            server.stderr.read() if server.poll() is not None else ""
        )
        url = line.split(" at ")[1].split()[0]
        done = in_profile("-m", "lessons_lib", "run", "--mcp-url", url, "--json", timeout=120)
    finally:
        server.terminate()
        server.communicate(timeout=20)
    assert done.returncode == 0, done.stderr[-2000:]
    trace = json.loads(done.stdout)
    assert trace["outcome"]["status"] == "answered"
    assert {e["http"]["stream"] for e in trace["events"] if "http" in e} == {"sse", "none"}
