"""``python -m lessons_lib serve``: the file service over stdio for any MCP client. Lesson 04.

The server itself is :func:`lessons_lib.engine.stdio_server.serve`; this is its front end.
Exit codes: 0 when the client closed stdin, 2 for a bad ``--root``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from lessons_lib.core.paths import LOGICAL_ROOT, WORKSPACE_DIR


def main(argv: Sequence[str] | None = None) -> int:
    """Serve ``read_text_file`` over stdio until the client closes stdin."""
    parser = argparse.ArgumentParser(
        prog="python -m lessons_lib serve",
        description="Serve the read_text_file tool over stdio for any MCP client: stdout carries only "
        "JSON-RPC frames, log lines go to stderr. Exit codes: 0 when the client closes stdin, "
        "2 for a bad --root.",
    )
    parser.add_argument(
        "--root",
        type=Path,
        default=WORKSPACE_DIR,
        help=f"folder the client sees as {LOGICAL_ROOT} (default: data/workspace)",
    )
    args = parser.parse_args(argv)
    if not args.root.is_dir():
        print(f"serve: --root {args.root} is not a directory; give an existing folder.", file=sys.stderr)
        return 2

    from lessons_lib.engine.stdio_server import serve

    try:
        serve(args.root)
    except KeyboardInterrupt:
        pass
    return 0
