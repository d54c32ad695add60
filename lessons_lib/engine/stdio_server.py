"""``python -m lessons_lib serve``: the file service over stdio for any MCP client.

Introduced in lesson 04. stdout carries only JSON-RPC frames; every log line goes to stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lessons_lib.core.paths import LOGICAL_ROOT, WORKSPACE_DIR


def main(argv: Sequence[str] | None = None) -> int:
    """Serve ``read_text_file`` over stdio until the client closes stdin."""
    parser = argparse.ArgumentParser(prog="python -m lessons_lib serve", description=__doc__)
    parser.add_argument(
        "--root",
        type=Path,
        default=WORKSPACE_DIR,
        help=f"directory the client sees as {LOGICAL_ROOT} (default: data/workspace)",
    )
    args = parser.parse_args(argv)
    if not args.root.is_dir():
        print(f"serve: --root {args.root} is not a directory; give an existing folder.", file=sys.stderr)
        return 2

    import anyio
    from mcp.server.stdio import stdio_server

    from lessons_lib.engine.fileservice import build_server

    server = build_server(args.root)
    print(f"serve: read_text_file ready on stdio, {LOGICAL_ROOT} -> the --root folder", file=sys.stderr)

    async def run() -> None:
        async with stdio_server() as (read, write):
            checked_send, checked_read = anyio.create_memory_object_stream[Any](0)
            async with anyio.create_task_group() as tg:
                tg.start_soon(_answer_bad_lines, read, checked_send, write)
                await server.run(checked_read, write, server.create_initialization_options())
                tg.cancel_scope.cancel()

    try:
        anyio.run(run)
    except KeyboardInterrupt:
        pass
    return 0


async def _answer_bad_lines(read: Any, good: Any, write: Any) -> None:
    """Pass frames on; answer a line that is not a JSON-RPC message with a JSON-RPC error.

    The SDK's stdio transport only logs such a line at debug level, so the client would wait
    forever; JSON-RPC 2.0 asks for ``-32700 Parse error`` (or ``-32600``) with ``"id": null``.
    """
    from mcp.shared.message import SessionMessage
    from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError

    async with good:
        async for item in read:
            if not isinstance(item, Exception):
                await good.send(item)
                continue
            errors: list[Any] = getattr(item, "errors", list)()
            if errors and errors[0].get("type") == "json_invalid":
                error = ErrorData(code=PARSE_ERROR, message="Parse error: the line is not JSON")
            else:
                error = ErrorData(code=INVALID_REQUEST, message="Invalid Request: not a JSON-RPC 2.0 message")
            await write.send(SessionMessage(JSONRPCError(jsonrpc="2.0", id=None, error=error)))
