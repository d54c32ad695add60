"""One place for bounds (issue 40, points 1 and 3): no single line ends a server, no file hangs a reader.

``lessons_lib.core.bounds`` bounds depth, size and file kind; the stdio servers (files and the
order desk) answer a deeply nested line with a JSON-RPC error and keep serving; ``tree``,
``diagnose``, ``verify-calls`` and the verify commands refuse a deep file, a FIFO, a folder and
``/dev/zero`` with one line, exit 2, without a traceback or a hang.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from _engine_support import NOTES, RawStdio

from lessons_lib.core.bounds import MAX_JSON_DEPTH, BoundsError, json_depth, load_json_file, parse_json

NESTED = "[" * 3000 + "]" * 3000
"""Deeper than Python's parser goes (issue 40 point 1: 3,000 nested arrays)."""

JUST_TOO_DEEP = "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)


def _deep_frame(depth: int, rid: int) -> str:
    arguments = '{"a": ' + "[" * depth + "]" * depth + "}"
    params = f'{{"name": "x", "arguments": {arguments}}}'
    return f'{{"jsonrpc": "2.0", "id": {rid}, "method": "tools/call", "params": {params}}}'


@pytest.mark.parametrize("example", ["files", "orders"])
def test_a_deeply_nested_line_is_answered_and_the_server_keeps_serving(example: str, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_bytes(NOTES.read_bytes())
    server = RawStdio(tmp_path, cwd=tmp_path, example=example)
    try:
        server.initialize()
        for n, line in enumerate([_deep_frame(3000, 5), NESTED, _deep_frame(MAX_JSON_DEPTH + 1, 6)]):
            server.send(line)
            reply = server.receive(timeout=30)
            assert reply["id"] is None and reply["error"]["code"] in (-32700, -32600), (n, reply)
            assert "nested" in reply["error"]["message"]
        server.send({"jsonrpc": "2.0", "id": 7, "method": "tools/list"})
        reply = server.receive(timeout=30)
        assert reply["id"] == 7 and reply["result"]["tools"]
    finally:
        _, stderr = server.close()
    assert "Traceback" not in stderr and "RecursionError" not in stderr
    assert server.proc.returncode == 0


def test_depth_is_counted_without_recursion_and_parse_json_refuses_past_the_bound() -> None:
    assert json_depth(1) == 0 and json_depth([]) == 1 and json_depth({"a": [{"b": 1}]}) == 3
    deep: Any = []
    for _ in range(5000):
        deep = [deep]
    assert json_depth(deep) == 5001
    assert parse_json("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH) is not None
    for text in (NESTED, JUST_TOO_DEEP):
        with pytest.raises(BoundsError, match="nested more than"):
            parse_json(text)


def test_a_file_past_the_size_bound_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_text('{"a": "' + "x" * 100 + '"}', encoding="utf-8")
    with pytest.raises(BoundsError, match="larger than 50 bytes"):
        load_json_file(big, max_bytes=50)
    assert load_json_file(big) == {"a": "x" * 100}


def _bad_files(tmp_path: Path) -> list[tuple[str, Path]]:
    """A deep file, a folder, and where the platform has them, a FIFO and /dev/zero."""
    deep = tmp_path / "deep.json"
    deep.write_text('{"format": "x", "events": ' + NESTED + "}", encoding="utf-8")
    moderate = tmp_path / "moderate.json"  # parses in Python, but recursive code would fail on it
    moderate.write_text('{"events": ' + "[" * 900 + "]" * 900 + "}", encoding="utf-8")
    files = [("deep", deep), ("moderate", moderate), ("folder", tmp_path)]
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "fifo.json"
        os.mkfifo(fifo)
        files.append(("fifo", fifo))
    if Path("/dev/zero").exists():
        files.append(("zero", Path("/dev/zero")))
    return files


def _commands() -> dict[str, Callable[[list[str]], int]]:
    from lessons_lib.cli.checks import main_diagnose, main_fields, main_roundtrip
    from lessons_lib.cli.tree import main as main_tree
    from lessons_lib.examples.orders.cli import main_verify_calls

    return {
        "verify-calls": main_verify_calls,
        "tree": main_tree,
        "diagnose": main_diagnose,
        "verify-fields": main_fields,
        "verify-roundtrip": main_roundtrip,
    }


@pytest.mark.parametrize("command", sorted(_commands()))
def test_every_trace_reader_refuses_deep_files_pipes_and_devices_in_one_line(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main = _commands()[command]
    for kind, path in _bad_files(tmp_path):
        codes: list[int] = []
        worker = threading.Thread(target=lambda p=path, c=codes: c.append(main([str(p)])), daemon=True)
        worker.start()
        worker.join(20)
        assert not worker.is_alive(), f"{command} hangs on a {kind}"
        out, err = capsys.readouterr()
        assert codes == [2], (kind, codes, out, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in err, (kind, err)
        assert ("nested" in err) if kind in ("deep", "moderate") else ("not a regular file" in err), (
            kind,
            err,
        )


@pytest.mark.skipif(sys.platform == "win32", reason="the subprocess check below uses /dev/zero")
def test_dev_zero_is_refused_without_reading_it(tmp_path: Path) -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    with pytest.raises(BoundsError, match="not a regular file"):
        load_json_file("/dev/zero")


def test_the_http_order_api_refuses_a_deep_or_huge_body_and_keeps_serving(tmp_path: Path) -> None:
    import anyio
    import httpx2

    from lessons_lib.core.bounds import MAX_BODY_BYTES
    from lessons_lib.examples.openapi.app import BASE_URL, build_app
    from lessons_lib.services.orders import data as od

    token = "test-token-0123456789"
    app = build_app(od.create_database(tmp_path / "orders.sqlite3"), token)
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": "key-000001"}
    post = "/orders/O-1042/investigations"

    async def main() -> list[httpx2.Response]:
        async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url=BASE_URL) as client:
            return [
                await client.post(post, content=NESTED, headers=headers),
                await client.post(post, content=JUST_TOO_DEEP, headers=headers),
                await client.post(post, content=b"[" + b" " * MAX_BODY_BYTES + b"]", headers=headers),
                await client.post(post, json={"reason": "delayed", "note": "ok"}, headers=headers),
            ]

    deep, too_deep, huge, good = anyio.run(main)
    for answer in (deep, too_deep):
        assert answer.status_code == 400 and "nested more than" in answer.json()["error"]["message"]
    assert huge.status_code == 400 and "larger than" in huge.json()["error"]["message"]
    assert good.status_code == 201
