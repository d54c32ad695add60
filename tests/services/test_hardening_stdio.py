"""Every malformed JSON-RPC request gets an answer that names the field (issue 11, point 9).

One ``python -m lessons_lib serve`` subprocess, waited for by its own ready line; each frame
below must get exactly one reply, and a good request afterwards still works.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _engine_support import NOTES, RawStdio, notes_lines

CALL = {"name": "read_text_file", "arguments": {"path": "/workspace/notes.txt", "head": 1}}

# frame -> (reply id, code, field named in error.data)
MALFORMED: list[tuple[dict[str, Any], Any, int, str]] = [
    ({"jsonrpc": "2.0", "id": None, "method": "tools/call", "params": CALL}, None, -32600, "id"),
    ({"jsonrpc": "2.0", "id": {"n": 1}, "method": "tools/call", "params": CALL}, None, -32600, "id"),
    ({"jsonrpc": "2.0", "id": [1], "method": "tools/list"}, None, -32600, "id"),
    ({"jsonrpc": "2.0", "id": 1.5, "method": "tools/list"}, None, -32600, "id"),
    ({"jsonrpc": "2.0", "id": True, "method": "tools/list"}, None, -32600, "id"),
    (
        {"jsonrpc": "2.0", "id": 20, "method": "tools/call", "params": {**CALL, "name": 7}},
        20,
        -32602,
        "params.name",
    ),
    (
        {"jsonrpc": "2.0", "id": 21, "method": "tools/call", "params": {**CALL, "arguments": "x"}},
        21,
        -32602,
        "params.arguments",
    ),
    ({"jsonrpc": "2.0", "id": 22, "method": "tools/call", "params": [1]}, 22, -32602, "params"),
    (
        {"jsonrpc": "2.0", "id": "s", "method": "tools/call", "params": {"arguments": {}}},
        "s",
        -32602,
        "params.name",
    ),
]


@pytest.fixture(scope="module")
def replies(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    root: Path = tmp_path_factory.mktemp("root")
    (root / "notes.txt").write_bytes(NOTES.read_bytes())
    server = RawStdio(root, cwd=root)
    try:
        server.initialize()
        got = []
        for frame, *_ in MALFORMED:
            server.send(frame)
            got.append(server.receive())
        server.send({"jsonrpc": "2.0", "id": 99, "method": "tools/call", "params": CALL})
        last = server.receive()
    finally:
        server.close()
    return got, last


@pytest.mark.parametrize("n", range(len(MALFORMED)), ids=[f"{m[3]}-{m[1]}" for m in MALFORMED])
def test_each_malformed_request_is_answered_and_names_the_field(
    replies: tuple[list[dict[str, Any]], dict[str, Any]], n: int
) -> None:
    _, rid, code, field = MALFORMED[n]
    reply = replies[0][n]
    assert reply["jsonrpc"] == "2.0" and reply["id"] == rid and "result" not in reply
    assert reply["error"]["code"] == code
    assert reply["error"]["data"] == {"field": field}
    assert f"'{field}'" in reply["error"]["message"]


def test_the_server_keeps_serving_after_them(replies: tuple[list[dict[str, Any]], dict[str, Any]]) -> None:
    last = replies[1]
    assert last["id"] == 99 and last["result"]["content"][0]["text"] == notes_lines()[0]
