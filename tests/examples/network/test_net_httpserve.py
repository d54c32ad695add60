"""``serve --http`` (issue 36, lesson 60): the stdio servers over the SDK's Streamable HTTP, on loopback.

Every test starts a real server on a free 127.0.0.1 port (in a thread, or ``python -m lessons_lib
serve --http`` as a process) and talks to it over a real socket: the SDK's own client for both
revisions, raw ``httpx`` for the hostile requests the SDK client never sends.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest
from _engine_support import INITIALIZE, MCP_HEADERS, clean_env, text_of
from conftest import REPO_ROOT

from lessons_lib.engine.http.serve import HttpOptions, running
from lessons_lib.engine.http.sockets import bind, socket_options

LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}


def _servers() -> dict[str, Any]:
    from lessons_lib.core.paths import WORKSPACE_DIR
    from lessons_lib.services.files.service import build_server
    from lessons_lib.services.notes.server import build_server as notes_server
    from lessons_lib.services.orders.service import fresh_server

    return {
        "files": lambda: build_server(WORKSPACE_DIR),
        "orders": lambda: fresh_server("orders"),
        "notes": lambda: notes_server(WORKSPACE_DIR),
    }


def _tools(url: str, mode: str) -> list[str]:
    """The tool names the SDK's client lists at ``url`` under ``mode`` (legacy or 2026-07-28)."""
    from mcp import Client

    names: list[str] = []

    async def main() -> None:
        with anyio.fail_after(20):
            async with Client(url, mode=mode) as client:  # type: ignore[arg-type]
                names.extend(t.name for t in (await client.list_tools()).tools)

    anyio.run(main)
    return names


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
@pytest.mark.parametrize("example", ["files", "orders", "notes"])
def test_each_stdio_server_answers_both_revisions_over_http(example: str, mode: str) -> None:
    with running(_servers()[example]()) as url:
        assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp")
        names = _tools(url, mode)
    expected = {"files": ["read_text_file"], "notes": ["search_notes"]}.get(example)
    assert names == expected if expected else len(names) == 4


def test_a_tool_call_over_http_gives_the_stdio_answer() -> None:
    from mcp import Client

    from lessons_lib.services.files.service import build_server

    texts: list[str] = []

    async def main(url: str) -> None:
        with anyio.fail_after(20):
            async with Client(url, mode="legacy") as client:
                result = await client.call_tool("read_text_file", {"path": "/workspace/notes.txt", "head": 2})
                texts.append(text_of(result))

    with running(build_server()) as url:
        anyio.run(main, url)
    assert texts[0].count("\n") == 1 and texts[0].startswith("01")


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    """One file service over HTTP with a small body limit, for the hostile requests."""
    from lessons_lib.services.files.service import build_server

    with running(build_server(), HttpOptions(max_body=4096)) as found:
        yield found


def _session(client: httpx.Client, url: str) -> dict[str, str]:
    reply = client.post(url, json=INITIALIZE, headers=MCP_HEADERS)
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/event-stream")
    headers = {
        **MCP_HEADERS,
        "Mcp-Session-Id": reply.headers["mcp-session-id"],
        "MCP-Protocol-Version": "2025-11-25",
    }
    client.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
    return headers


def _still_serves(client: httpx.Client, url: str, headers: dict[str, str]) -> None:
    reply = client.post(url, json=LIST, headers=headers)
    assert reply.status_code == 200 and "read_text_file" in reply.text


@pytest.mark.parametrize(
    ("header", "value", "status", "message"),
    [
        ("Host", "evil.example", 421, "Invalid Host header"),
        ("Origin", "http://evil.example", 403, "Invalid Origin header"),
    ],
)
def test_a_foreign_host_or_origin_is_refused(
    url: str, header: str, value: str, status: int, message: str
) -> None:
    with httpx.Client() as client:
        reply = client.post(url, json=INITIALIZE, headers={**MCP_HEADERS, header: value})
        assert (reply.status_code, reply.text) == (status, message)
        assert "mcp-session-id" not in reply.headers  # refused before any session opened
        # the loopback origin of a page served by the course itself passes
        ok = client.post(url, json=INITIALIZE, headers={**MCP_HEADERS, "Origin": "http://localhost:8888"})
        assert ok.status_code == 200


@pytest.mark.parametrize("revision", ["2025-11-25", "2026-07-28"])
def test_a_body_over_the_limit_is_413_and_the_server_still_serves(url: str, revision: str) -> None:
    with httpx.Client() as client:
        headers = _session(client, url)
        sent = headers if revision == "2025-11-25" else {**MCP_HEADERS, "MCP-Protocol-Version": revision}
        reply = client.post(url, content=b" " * 5000, headers=sent)
        assert (reply.status_code, reply.text) == (413, "Request body too large")
        _still_serves(client, url, headers)


def test_an_unknown_or_ended_session_is_404(url: str) -> None:
    with httpx.Client() as client:
        headers = _session(client, url)
        unknown = client.post(url, json=LIST, headers={**headers, "Mcp-Session-Id": "no-such-session"})
        assert unknown.status_code == 404 and unknown.json()["error"]["message"] == "Session not found"
        assert client.delete(url, headers=headers).status_code == 200
        ended = client.post(url, json=LIST, headers=headers)
        assert ended.status_code == 404


@pytest.mark.parametrize(
    "body", [b'{"jsonrpc":"2.0","id":3,"meth', b"[" * 1000 + b"]" * 1000], ids=["truncated", "nested"]
)
@pytest.mark.parametrize("revision", ["2025-11-25", "2026-07-28"])
def test_broken_json_is_a_parse_error_and_the_server_still_serves(
    url: str, body: bytes, revision: str
) -> None:
    with httpx.Client() as client:
        headers = _session(client, url)
        if revision != "2025-11-25":
            headers = {**MCP_HEADERS, "MCP-Protocol-Version": revision}
        reply = client.post(url, content=body, headers=headers)
        assert reply.status_code == 400
        error = reply.json()
        assert error["id"] is None and error["error"]["code"] == -32700
        _still_serves(client, url, _session(client, url))


def test_the_2026_revision_has_no_session_and_discovers() -> None:
    from lessons_lib.services.files.service import build_server

    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    frame = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}}
    headers = {**MCP_HEADERS, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"}
    with running(build_server()) as url, httpx.Client() as client:
        reply = client.post(url, json=frame, headers=headers)
        wrong = client.post(url, json=frame, headers={**headers, "Mcp-Method": "tools/list"})
    assert reply.status_code == 200 and "mcp-session-id" not in reply.headers
    assert reply.json()["result"]["supportedVersions"] == ["2026-07-28"]
    assert wrong.status_code == 400 and "mcp-method header" in wrong.json()["error"]["message"]


def test_windows_binds_exclusively_and_other_systems_reuse() -> None:
    assert socket_options("nt") == [(socket.SOL_SOCKET, getattr(socket, "SO_EXCLUSIVEADDRUSE", -5))]
    assert socket_options("posix") == [(socket.SOL_SOCKET, socket.SO_REUSEADDR)]
    with bind("127.0.0.1", 0) as sock:
        port = sock.getsockname()[1]
        with pytest.raises(OSError):
            bind("127.0.0.1", port)  # a second listener on the same port is refused here too


def _serve(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "lessons_lib", "serve", "--http", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        env=clean_env(),
        cwd=REPO_ROOT,
    )


@pytest.mark.skipif(os.name == "nt", reason="SIGINT to a child process is a POSIX signal")
def test_the_cli_prints_its_url_serves_and_stops_on_ctrl_c_with_one_line() -> None:
    proc = _serve("--port", "0", "--example", "notes")
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("serve: search_notes (lesson 12) at http://127.0.0.1:"), line
        url = line.split(" at ")[1].split()[0]
        assert _tools(url, "legacy") == ["search_notes"]
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 0 and out == "" and err == "serve: stopped.\n"


def test_a_port_in_use_or_notes_over_stdio_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    from lessons_lib.cli import main

    with bind("127.0.0.1", 0) as sock:
        assert main(["serve", "--http", "--port", str(sock.getsockname()[1])]) == 2
    busy = capsys.readouterr().err
    assert busy.count("\n") == 1 and "cannot listen" in busy
    assert main(["serve", "--example", "notes"]) == 2
    stdio = capsys.readouterr().err
    assert stdio.count("\n") == 1 and "--http" in stdio


LEARNER = """
from lessons_lib.services.notes.server import build_server as build_notes_server

if __name__ == "__main__":
    raise SystemExit("the stdio block must not run when the file is served over HTTP")
"""
ONE_OBJECT = """
from mcp.server import MCPServer

app = MCPServer("mine")


@app.tool()
def echo(text: str) -> str:
    return text
"""


@pytest.mark.parametrize(("source", "tools"), [(LEARNER, ["search_notes"]), (ONE_OBJECT, ["echo"])])
def test_a_learners_server_file_is_served_over_http(tmp_path: Any, source: str, tools: list[str]) -> None:
    from lessons_lib.core.paths import WORKSPACE_DIR
    from lessons_lib.engine.serverfile import load_server

    file = tmp_path / "my_server.py"
    file.write_text(source, encoding="utf-8")
    with running(load_server(file, WORKSPACE_DIR)) as url:
        assert _tools(url, "legacy") == tools


@pytest.mark.parametrize(
    ("name", "source", "message"),
    [
        ("missing.py", None, "no such file"),
        ("notes.txt", "x", "is not a .py file"),
        ("broken.py", "def f(:\n", "broken.py line 1: syntax error"),
        ("raises.py", "raise RuntimeError('boom')\n", "raises.py failed while loading: RuntimeError: boom"),
        ("empty.py", "x = 1\n", "defines no build_notes_server(root) or build_server(root)"),
    ],
)
def test_a_bad_server_file_is_one_line_and_exit_2(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], name: str, source: str | None, message: str
) -> None:
    from lessons_lib.cli import main

    file = tmp_path / name
    if source is not None:
        file.write_text(source, encoding="utf-8")
    assert main(["serve", "--http", "--file", str(file)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and message in err, err
    assert main(["serve", "--file", str(file)]) == 2  # a file is served over HTTP only
    assert "--file is served with --http" in capsys.readouterr().err


def test_a_wrapper_sits_in_front_of_the_mcp_app() -> None:
    """The hook the authorization layer uses (lesson 61): here a stand-in that wants one header."""
    from starlette.responses import PlainTextResponse

    from lessons_lib.services.files.service import build_server

    def wrap(app: Any, url: str) -> Any:
        async def guarded(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] == "http" and (b"x-let-in", b"yes") not in scope["headers"]:
                return await PlainTextResponse("no", status_code=401)(scope, receive, send)
            return await app(scope, receive, send)

        return guarded

    with running(build_server(), wrap=wrap) as url, httpx.Client() as client:
        assert client.post(url, json=INITIALIZE, headers=MCP_HEADERS).status_code == 401
        let_in = {**MCP_HEADERS, "X-Let-In": "yes"}
        assert client.post(url, json=INITIALIZE, headers=let_in).status_code == 200
