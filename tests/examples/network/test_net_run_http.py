"""``run --mcp-url`` (issue 36, lesson 60): the one loop over Streamable HTTP and the HTTP layer of its trace.

The server is the file service on a free loopback port (:func:`lessons_lib.engine.http.serve.running`);
the client is the SDK's Streamable HTTP transport. The JSON-RPC frames of a run are the same as
over stdio; what HTTP adds sits in each MCP event's ``http`` envelope, and nothing in it changes
from one run to the next (no session id, port or time).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from _engine_support import clean_env

from lessons_lib.core.traces.trace import Trace
from lessons_lib.core.traces.tracetypes import TraceShapeError, check_trace
from lessons_lib.engine.host import run_chain
from lessons_lib.engine.http.client import SESSION, McpUrl, TappedTransport
from lessons_lib.engine.http.serve import running
from lessons_lib.services.files.service import build_server


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with running(build_server()) as found:
        yield found


def _frames(trace: Trace) -> list[tuple[str, str, Any]]:
    return [(e["channel"], e["label"], e["body"]) for e in trace.events]


def test_the_frames_over_http_are_the_frames_in_process(url: str) -> None:
    here, there = run_chain(), run_chain(services={"fs": McpUrl(url)})
    assert there.outcome["status"] == "answered"
    assert _frames(there) == _frames(here) and there.links == here.links and there.answer == here.answer
    assert all("http" not in e for e in here.events)  # the layer is only there over HTTP
    assert all(("http" in e) == (e["channel"] == "mcp") for e in there.events)


def _session_frames(open_transport: Any) -> list[tuple[str, dict[str, Any]]]:
    """One session through a tapped SDK transport: tools/list and one tools/call."""
    from mcp import Client

    frames: list[tuple[str, dict[str, Any]]] = []

    def record(direction: str, frame: dict[str, Any]) -> None:
        frames.append((direction, frame))

    async def main() -> None:
        with anyio.fail_after(30):
            async with Client(TappedTransport(open_transport, record), mode="legacy") as client:  # type: ignore[arg-type]
                await client.list_tools()
                await client.call_tool("read_text_file", {"path": "/workspace/notes.txt", "head": 3})

    anyio.run(main)
    return frames


def test_the_frames_over_http_are_the_frames_over_real_stdio(url: str, tmp_path: Path) -> None:
    """``python -m lessons_lib serve`` as a process on stdio, and the same server over HTTP."""
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp.client.streamable_http import streamable_http_client

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "lessons_lib", "serve"], env=clean_env()
    )
    with (tmp_path / "stderr.txt").open("w", encoding="utf-8") as errlog:  # a real file: see lesson 12
        over_stdio = _session_frames(lambda: stdio_client(params, errlog=errlog))
    over_http = _session_frames(lambda: streamable_http_client(url))
    assert over_http == over_stdio
    assert [f.get("method") for _, f in over_http] == [
        *("initialize", None, "notifications/initialized", "tools/list", None, "tools/call", None)
    ]


def test_each_frame_carries_its_envelope_in_a_session(url: str) -> None:
    trace = run_chain(services={"fs": McpUrl(url)})
    http = {(e["from"], e["label"]): e["http"] for e in trace.events if e["channel"] == "mcp"}
    opened = http[("fs", "initialize")]
    assert opened["headers"] == {"mcp-session-id": SESSION} and opened["stream"] == "sse"
    assert http[("application", "initialize")]["headers"] == {}  # no session before the server names one
    assert http[("application", "notifications/initialized")] | {"content_type": ""} == {
        "method": "POST",
        "status": 202,
        "content_type": "",
        "stream": "none",
        "headers": {"mcp-protocol-version": "2025-11-25", "mcp-session-id": SESSION},
    }
    call = http[("application", "tools/call")]
    assert (call["status"], call["stream"], call["headers"]["mcp-session-id"]) == (200, "sse", SESSION)


def test_the_2026_revision_is_stateless_and_names_the_method_in_headers(url: str) -> None:
    trace = run_chain(services={"fs": McpUrl(url, "2026-07-28")})
    assert trace.outcome["status"] == "answered"
    labels = [e["label"] for e in trace.events if e["channel"] == "mcp"]
    assert labels == ["tools/list", "tools/list", "tools/call", "tools/call"]  # no initialize
    sent = [e for e in trace.events if e["channel"] == "mcp" and e["from"] == "application"]
    assert sent[1]["http"]["headers"] == {
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "read_text_file",
    }
    assert all("mcp-session-id" not in e["http"]["headers"] for e in trace.events if "http" in e)
    assert {e["http"]["stream"] for e in trace.events if "http" in e} == {"json"}


def test_an_http_trace_is_valid_and_the_same_every_run(url: str) -> None:
    first, second = (run_chain(services={"fs": McpUrl(url)}).to_json() for _ in range(2))
    assert first == second  # no session id, port or time: a fixture of it would never change
    port = url.rsplit(":", 1)[1].split("/")[0]
    assert url not in first and f":{port}" not in first
    check_trace(json.loads(first))
    broken = json.loads(first)
    next(e for e in broken["events"] if "http" in e)["http"]["stream"] = "xml"
    with pytest.raises(
        TraceShapeError, match=r"^not a valid trace: trace\.events\[0\]\.http\.stream should be"
    ):
        check_trace(broken)


def test_run_mcp_url_on_the_command_line(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    from lessons_lib.cli import main

    assert main(["run", "--mcp-url", url, "--json"]) == 0
    events = json.loads(capsys.readouterr().out)["events"]
    assert sum("http" in e for e in events) == 7
    for args, code, message in [
        (("--mcp-url", "ftp://x"), 2, "run: --mcp-url: an MCP URL starts with http:// or https://"),
        (("--mcp-url", url, "--root", "."), 2, "give one"),
        (("--mcp-url", "http://127.0.0.1:9/mcp"), 1, "ConnectError"),  # nothing listens: the run's outcome
    ]:
        assert main(["run", *args]) == code
        out, err = capsys.readouterr()
        assert message in out + err and "Traceback" not in out + err


def test_the_account_shows_each_envelope_under_its_frame(url: str) -> None:
    from lessons_lib.core.messages import speaking
    from lessons_lib.views.narrate import narrate

    here, there = run_chain(), run_chain(services={"fs": McpUrl(url)})
    assert "HTTP" not in narrate(here)
    with speaking("en"):
        told = narrate(there).splitlines()
    envelopes = [n for n, line in enumerate(told) if line.startswith("     HTTP: ")]
    assert len(envelopes) == 7 and all(told[n - 1].startswith("[") for n in envelopes)
    assert (
        "     HTTP: POST → 202, no body · mcp-protocol-version: 2025-11-25, mcp-session-id: (session id)"
        in told
    )
