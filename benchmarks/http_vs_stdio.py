"""``tools/call`` over Streamable HTTP beside the same over stdio: ``python benchmarks/http_vs_stdio.py``.

Issue 36 ("Hostile and load"), lesson 60. The file service runs as its own process both times
(``python -m lessons_lib serve`` on stdio, ``serve --http`` on a free loopback port); one SDK
``ClientSession`` sends ``--calls`` ``tools/call`` of ``read_text_file``, ``--concurrency`` at a time,
and the script prints calls/s and the p50/p99 latency of each transport (``--auth``: the HTTP
service behind the loopback authority too, the client authorised by the course's OAuth client).
Each answer is checked against the first; a wrong one is counted. Not a test: figures vary by machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

REPO = Path(__file__).resolve().parent.parent
ARGS = {"path": "/workspace/notes.txt", "head": 3}


@dataclass(frozen=True)
class Figures:
    """One transport's run: calls, seconds, latencies (ms), wrong answers."""

    transport: str
    calls: int
    seconds: float
    latencies: list[float]
    wrong: int

    def line(self) -> str:
        ordered = sorted(self.latencies)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        return (
            f"{self.transport:<12} {self.calls:>6} calls  {self.calls / self.seconds:>8.1f} calls/s  "
            f"p50 {statistics.median(ordered):>7.1f} ms  p99 {p99:>7.1f} ms  wrong {self.wrong}"
        )


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "PYTHONIOENCODING": "utf-8"}


async def _measure(
    name: str, open_session: Callable[[], AbstractAsyncContextManager[Any]], calls: int, concurrency: int
) -> Figures:
    async with open_session() as session:
        first = await session.call_tool("read_text_file", ARGS)
        expected = first.content[0].text
        latencies: list[float] = []
        wrong = 0
        limit = anyio.Semaphore(concurrency)

        async def one() -> None:
            nonlocal wrong
            async with limit:
                started = time.perf_counter()
                result = await session.call_tool("read_text_file", ARGS)
                latencies.append((time.perf_counter() - started) * 1000)
                wrong += result.is_error or result.content[0].text != expected

        started = time.perf_counter()
        async with anyio.create_task_group() as tg:
            for _ in range(calls):
                tg.start_soon(one)
        return Figures(name, calls, time.perf_counter() - started, latencies, wrong)


@asynccontextmanager
async def _stdio() -> AsyncIterator[Any]:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "lessons_lib", "serve"], env=_env())
    with tempfile.TemporaryFile("w+", encoding="utf-8") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


def _http(url: str, auth: bool) -> Callable[[], AbstractAsyncContextManager[Any]]:
    @asynccontextmanager
    async def open_session() -> AsyncIterator[Any]:
        from lessons_lib.engine.http.oauthclient import oauth_client, oauth_session

        async with oauth_session(url, oauth_client(url) if auth else None) as session:  # type: ignore[arg-type]
            yield session

    return open_session


def _served(auth: bool) -> tuple[subprocess.Popen[str], str]:
    """``serve --http`` as its own process; its MCP URL from the line it prints."""
    command = [sys.executable, "-m", "lessons_lib", "serve", "--http", *(["--auth"] if auth else [])]
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, text=True, encoding="utf-8", env=_env(), cwd=REPO
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        if "/mcp" in line and " at " in line:
            return proc, line.split(" at ")[1].split()[0]
    raise SystemExit("serve --http did not print its URL")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=100)
    parser.add_argument("--auth", action="store_true", help="HTTP behind the loopback authority (OAuth)")
    args = parser.parse_args(argv)
    if args.calls < 1 or args.concurrency < 1:
        print("http_vs_stdio: --calls and --concurrency are at least 1.", file=sys.stderr)
        return 2
    print(f"{args.calls} tools/call (read_text_file), {args.concurrency} at a time, one session each")
    figures = [anyio.run(_measure, "stdio", _stdio, args.calls, args.concurrency)]
    proc, url = _served(args.auth)
    try:
        name = "http+oauth" if args.auth else "http"
        figures.append(anyio.run(_measure, name, _http(url, args.auth), args.calls, args.concurrency))
    finally:
        proc.terminate()
        proc.wait(10)
    for result in figures:
        print(result.line())
    return 0 if all(f.wrong == 0 for f in figures) else 1


if __name__ == "__main__":
    raise SystemExit(main())
