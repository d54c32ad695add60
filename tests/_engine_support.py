"""Helpers shared by the engine, API, example and command tests in ``tests/*/`` (not collected by pytest).

Paths of the repository, a clean subprocess runner for ``python -m lessons_lib``, a spy on the
one function that opens files, and an MCP client that talks to ``build_server`` through real
JSON-RPC text frames (``FramedTransport`` + ``mcp.Client`` in legacy mode).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parent
DATA_DIR = REPO_ROOT / "data"
NOTES = DATA_DIR / "workspace" / "notes.txt"
SPECS_DIR = TESTS_DIR / "specs"

LIVE_ENV = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "LESSONS_MODEL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID")


def notes_lines() -> list[str]:
    """The lines of data/workspace/notes.txt, without the empty string after the final newline."""
    text = NOTES.read_text(encoding="utf-8")
    lines = text.split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def clean_env(**extra: str) -> dict[str, str]:
    """The current environment without any live-model setting, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in LIVE_ENV}
    env.update(PYTHONIOENCODING="utf-8", NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost")
    env.update(extra)
    return env


def cli(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m lessons_lib ARGS`` in a fresh interpreter (offline unless ``env`` says so)."""
    return subprocess.run(
        [sys.executable, "-m", "lessons_lib", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env if env is not None else clean_env(),
        cwd=cwd or REPO_ROOT,
        timeout=timeout,
        check=False,
    )


def package_digest() -> str:
    """A sha256 of every file of ``lessons_lib`` (``__pycache__`` aside): a plug-in test compares it
    before and after, so adding a plug-in changes no file of the package."""
    package = REPO_ROOT / "lessons_lib"
    digest = hashlib.sha256()
    for path in sorted(p for p in package.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


@dataclass
class ReadSpy:
    """Records every file that ``lessons_lib.services.files.service._read_bytes`` read."""

    calls: list[Any] = field(default_factory=list)  # fileservice.Opened: fd, name, limit


def spy_reads(monkeypatch: pytest.MonkeyPatch) -> ReadSpy:
    """Wrap the single place the file service opens a file, so a test can prove nothing was read."""
    from lessons_lib.services.files import service as fileservice

    spy = ReadSpy()
    real = fileservice._read_bytes

    def spying(opened: Any) -> bytes:
        spy.calls.append(opened)
        return real(opened)

    monkeypatch.setattr(fileservice, "_read_bytes", spying)
    return spy


@dataclass
class Session:
    """What one MCP session produced: a result (or the MCPError) per call, and every frame."""

    results: list[Any]
    frames: list[tuple[str, dict[str, Any]]]
    tools: list[Any]

    def frames_text(self) -> str:
        return "\n".join(json.dumps(f, ensure_ascii=False) for _, f in self.frames)


def call_tools(root: Path | None, calls: list[tuple[str, dict[str, Any]]]) -> Session:
    """Connect to ``build_server(root)`` over JSON-RPC frames and make each ``tools/call`` in turn."""
    import anyio
    from mcp import Client
    from mcp.shared.exceptions import MCPError

    from lessons_lib.engine.wire import FramedTransport
    from lessons_lib.services.files.service import build_server

    frames: list[tuple[str, dict[str, Any]]] = []
    results: list[Any] = []
    tools: list[Any] = []

    async def main() -> None:
        server = build_server(root)
        transport = FramedTransport(server, lambda direction, frame: frames.append((direction, frame)))
        with anyio.fail_after(20):
            async with Client(transport, mode="legacy") as client:
                tools.extend((await client.list_tools()).tools)
                for name, args in calls:
                    try:
                        results.append(await client.call_tool(name, args))
                    except MCPError as exc:
                        results.append(exc)

    anyio.run(main)
    return Session(results, frames, tools)


def text_of(result: Any) -> str:
    """The text content of a CallToolResult."""
    return "\n".join(c.text for c in result.content if getattr(c, "type", None) == "text")


class RawStdio:
    """``python -m lessons_lib serve`` as a bare subprocess: write JSON-RPC lines, read stdout lines."""

    def __init__(self, root: Path, cwd: Path, example: str = "files") -> None:
        import queue
        import threading

        from lessons_lib.examples.files.cli_serve import ORDERS_READY
        from lessons_lib.services.files.stdio import READY

        ready = ORDERS_READY if example == "orders" else READY
        where = ["--example", "orders"] if example == "orders" else ["--root", str(root)]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "lessons_lib", "serve", *where],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=clean_env(),
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.stdout_lines: list[str] = []
        self.stderr_lines: list[str] = []
        self._ready = threading.Event()

        def pump() -> None:
            assert self.proc.stdout is not None
            for line in self.proc.stdout:
                self._lines.put(line)
            self._lines.put(None)

        def pump_stderr() -> None:
            assert self.proc.stderr is not None
            for line in self.proc.stderr:
                self.stderr_lines.append(line)
                if line.rstrip("\n") == ready:
                    self._ready.set()
            self._ready.set()  # the server ended: wait_ready returns, receive() then fails clearly

        threading.Thread(target=pump, daemon=True).start()
        self._stderr_pump = threading.Thread(target=pump_stderr, daemon=True)
        self._stderr_pump.start()

    def wait_ready(self, limit: float = 300) -> None:
        """Wait for the server's own signal (its ready line on stderr), not a guessed delay.

        ``limit`` only keeps a broken server from hanging the test session.
        """
        assert self._ready.wait(limit), "the server never said it was ready"
        assert self.proc.poll() is None, f"the server exited: {''.join(self.stderr_lines)}"

    def send(self, frame: dict[str, Any] | str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((frame if isinstance(frame, str) else json.dumps(frame)) + "\n")
        self.proc.stdin.flush()

    def receive(self, timeout: float = 60) -> dict[str, Any]:
        """The next stdout line, which must be one whole JSON object.

        Call after :meth:`wait_ready`; ``timeout`` only keeps a server that never answers from
        hanging the session (an answer takes milliseconds once the server is ready).
        """
        line = self._lines.get(timeout=timeout)
        assert line is not None, "the server closed stdout"
        self.stdout_lines.append(line)
        value = json.loads(line)
        assert isinstance(value, dict)
        return value

    def initialize(self, version: str = "2025-06-18") -> dict[str, Any]:
        self.wait_ready()
        self.send(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": version,
                    "capabilities": {},
                    "clientInfo": {"name": "raw-test", "version": "0"},
                },
            }
        )
        reply = self.receive()
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return reply

    def close(self) -> tuple[str, str]:
        """Close stdin, wait for exit; returns (rest of stdout, stderr)."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        rest = []
        while True:
            line = self._lines.get(timeout=30)
            if line is None:
                break
            rest.append(line)
        self._stderr_pump.join(30)
        return "".join(rest), "".join(self.stderr_lines)


def stable(outcome: Any) -> dict[str, Any]:
    """An outcome's stable part (status, English reason), after checking its Chinese text is there."""
    text = outcome.get("text")
    assert isinstance(text, str) and any("\u4e00" <= ch <= "\u9fff" for ch in text), outcome
    return {"status": outcome["status"], "reason": outcome["reason"]}


MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
"""What a Streamable HTTP client sends with each POST (JSON or an SSE stream back)."""
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}
"""A 2025-11-25 ``initialize`` request, as the tests of the HTTP services send it raw."""
