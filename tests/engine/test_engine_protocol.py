"""Protocol errors stay protocol errors (JSON-RPC ``error``), tool errors stay results (``isError``).

In-process through real JSON-RPC text frames, and over the stdio server with raw lines: an
unknown tool, a request without ``name``, a line that is not JSON and one that is not JSON-RPC
each get a JSON-RPC error object, nothing leaks a Python exception, and the server keeps serving.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _engine_support import NOTES, RawStdio, call_tools, notes_lines, text_of
from mcp.shared.exceptions import MCPError

from lessons_lib.services.files import service as fileservice

INVALID_PARAMS = -32602


def test_unknown_tool_is_a_jsonrpc_error_and_the_session_goes_on() -> None:
    session = call_tools(
        None,
        [
            ("write_file", {"path": "/workspace/x"}),
            ("read_text_file", {"path": "/workspace/notes.txt", "head": 2}),
        ],
    )
    error, ok = session.results
    assert isinstance(error, MCPError) and error.code == INVALID_PARAMS
    assert not ok.is_error and text_of(ok) == "\n".join(notes_lines()[:2])
    call = next(f for d, f in session.frames if f.get("method") == "tools/call")
    reply = next(f for d, f in session.frames if d == "to_application" and f.get("id") == call["id"])
    assert set(reply) == {"jsonrpc", "id", "error"}
    assert reply["error"]["code"] == INVALID_PARAMS
    assert reply["error"]["message"] == "Unknown tool: write_file"
    text = session.frames_text()
    assert "Traceback" not in text and 'File "' not in text


def test_an_unexpected_exception_becomes_a_tool_error_without_its_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def explode(self: object, path: object, head: object = None, tail: object = None) -> str:
        raise RuntimeError("boom at /very/secret/machine/path")

    monkeypatch.setattr(fileservice.FileService, "read", explode)
    session = call_tools(None, [("read_text_file", {"path": "/workspace/notes.txt"})])
    (result,) = session.results
    assert result.is_error is True
    assert text_of(result) == "Internal error while reading: RuntimeError"
    assert "/very/secret" not in session.frames_text()


def test_stdio_server_answers_malformed_frames_and_keeps_serving(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "notes.txt").write_bytes(NOTES.read_bytes())
    server = RawStdio(root, cwd=tmp_path)
    try:
        init = server.initialize()
        assert init["id"] == 1 and init["result"]["serverInfo"]["name"] == "fs"

        server.send({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"arguments": {}}})
        missing_name = server.receive()
        assert missing_name["id"] == 9 and missing_name["error"]["code"] == INVALID_PARAMS
        assert "result" not in missing_name

        server.send("this line is not JSON {")
        parse_error = server.receive()
        assert parse_error == {
            "jsonrpc": "2.0",
            "id": None,
            "error": {"code": -32700, "message": "Parse error: the line is not JSON"},
        }

        server.send({"hello": "world"})
        not_jsonrpc = server.receive()
        assert not_jsonrpc["id"] is None and not_jsonrpc["error"]["code"] == -32600

        server.send(
            {"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": "nope", "arguments": {}}}
        )
        unknown = server.receive()
        assert unknown == {
            "jsonrpc": "2.0",
            "id": 10,
            "error": {"code": INVALID_PARAMS, "message": "Unknown tool: nope"},
        }

        server.send(
            {
                "jsonrpc": "2.0",
                "id": 11,
                "method": "tools/call",
                "params": {
                    "name": "read_text_file",
                    "arguments": {"path": "/workspace/notes.txt", "head": 3},
                },
            }
        )
        ok = server.receive()
        assert ok["id"] == 11 and ok["result"]["isError"] is False
        assert ok["result"]["content"][0]["text"] == "\n".join(notes_lines()[:3])

        server.send(
            {
                "jsonrpc": "2.0",
                "id": 12,
                "method": "tools/call",
                "params": {"name": "read_text_file", "arguments": {"path": "/etc/passwd"}},
            }
        )
        refused = server.receive()
        assert refused["id"] == 12 and refused["result"]["isError"] is True and "error" not in refused
    finally:
        rest, stderr = server.close()
    assert server.proc.returncode == 0
    assert rest == ""
    everything = "".join(server.stdout_lines) + stderr
    assert "Traceback" not in everything
    assert str(root) not in "".join(server.stdout_lines)
