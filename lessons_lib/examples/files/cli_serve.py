"""``python -m lessons_lib serve``: one of the course's MCP services over stdio for any MCP client.

Lesson 04 serves the file service (``--root``); lesson 30's order desk is ``--example orders``,
on a fresh copy of the order database that is removed when the client closes stdin (``--db
PATH`` keeps one: an existing file is used as it is, a missing one is created from the seed).
The server itself is :func:`lessons_lib.engine.stdio_server.serve`; this is its front end.
Exit codes: 0 when the client closed stdin, 2 for a bad ``--root`` or ``--db``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import Final

from lessons_lib.core.bounds import folder_arg
from lessons_lib.core.paths import LOGICAL_ROOT, WORKSPACE_DIR

ORDERS_READY: Final = "serve: the order desk (4 tools) ready on stdio"
"""The one line on stderr that says the order desk is reading stdin (tests wait for it)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Serve ``read_text_file`` (or the order desk) over stdio until the client closes stdin."""
    parser = argparse.ArgumentParser(
        prog="python -m lessons_lib serve",
        description="Serve one MCP service over stdio for any MCP client (MCP Inspector, an IDE, your "
        "own client): stdout carries only JSON-RPC frames, log lines go to stderr. Exit codes: 0 when "
        "the client closes stdin, 2 for a bad --root or --db.",
    )
    parser.add_argument(
        "--example",
        choices=("files", "orders"),
        default="files",
        help="files: read_text_file (lesson 04); orders: the order desk over SQLite (lesson 30)",
    )
    parser.add_argument(
        "--root",
        type=folder_arg,
        default=WORKSPACE_DIR,
        help=f"files: folder the client sees as {LOGICAL_ROOT} (default: data/workspace)",
    )
    parser.add_argument(
        "--db",
        type=Path,
        help="orders: keep the database in this file (made from the course data if missing; default: a fresh"
        " copy removed at the end)",
    )
    args = parser.parse_args(argv)
    if args.example == "orders":
        return _serve_orders(args.db)
    if not args.root.is_dir():
        print(f"serve: --root {args.root} is not a directory; give an existing folder.", file=sys.stderr)
        return 2

    from lessons_lib.engine.stdio_server import serve

    try:
        serve(args.root)
    except KeyboardInterrupt:
        pass
    return 0


def _serve_orders(db: Path | None) -> int:
    from lessons_lib.engine.stdio_server import serve
    from lessons_lib.examples.orders.data import connect, create_database
    from lessons_lib.examples.orders.service import OrderDesk, build_server

    if db is not None and db.exists() and not db.is_file():
        print(f"serve: --db {db} is not a file; give a file name.", file=sys.stderr)
        return 2
    if db is not None and not db.parent.is_dir():
        print(f"serve: --db {db}: the folder {db.parent} does not exist.", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="orders-") as scratch:  # the fresh copy goes with it
        path = db if db is not None else Path(scratch) / "orders.sqlite3"
        if not path.exists():
            create_database(path)
        try:
            with closing(connect(path)) as conn:
                conn.execute("SELECT count(*) FROM orders").fetchone()
        except Exception:  # noqa: BLE001  (any reason the file is no order database: one line, exit 2)
            print(f"serve: --db {db} is not an order database; omit --db for a fresh one.", file=sys.stderr)
            return 2
        try:
            serve(WORKSPACE_DIR, build_server(OrderDesk(path)), ORDERS_READY)
        except KeyboardInterrupt:
            pass
    return 0
