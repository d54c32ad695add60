"""``python -m lessons_lib serve``: the file service over stdio for any MCP client.

Introduced in lesson 04. stdout carries only JSON-RPC frames; every log line goes to stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from lessons_lib.paths import LOGICAL_ROOT, WORKSPACE_DIR


def main(argv: Sequence[str] | None = None) -> int:
    """Serve ``read_text_file`` over stdio until the client closes stdin."""
    parser = argparse.ArgumentParser(prog="python -m lessons_lib serve", description=__doc__)
    parser.add_argument("--root", type=Path, default=WORKSPACE_DIR,
                        help=f"directory the client sees as {LOGICAL_ROOT} (default: the course's data/workspace)")
    args = parser.parse_args(argv)
    if not args.root.is_dir():
        print(f"serve: --root {args.root} is not a directory; give an existing folder.", file=sys.stderr)
        return 2

    import anyio
    from mcp.server.stdio import stdio_server

    from lessons_lib.fileservice import build_server

    server = build_server(args.root)
    print(f"serve: read_text_file ready on stdio, {LOGICAL_ROOT} -> the --root folder", file=sys.stderr)

    async def run() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    try:
        anyio.run(run)
    except KeyboardInterrupt:
        pass
    return 0
