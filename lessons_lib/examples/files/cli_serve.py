"""``python -m lessons_lib serve``: one of the course's MCP services for any MCP client.

Lesson 04 serves the file service (``--root``); lesson 30's order desk is ``--example orders``,
on a fresh copy of the order database that is removed when the client closes stdin (``--db
PATH`` keeps one: an existing file is used as it is, a missing one is created from the seed).
The server itself is :func:`lessons_lib.services.files.stdio.serve`; this is its front end.
``--http`` serves the same server definition over Streamable HTTP instead (lesson 60,
:mod:`lessons_lib.engine.http.serve`), and adds lesson 12's notes server (``--example notes``).
Exit codes: 0 when the client closed stdin (or Ctrl-C stopped the HTTP server), 2 for bad input.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Final

from lessons_lib.core.bounds import folder_arg
from lessons_lib.core.paths import LOGICAL_ROOT, WORKSPACE_DIR
from lessons_lib.engine.http.serve import HttpOptions

if TYPE_CHECKING:
    from lessons_lib.engine.http.serve import HttpServable

ORDERS_READY: Final = "serve: the order desk (4 tools) ready on stdio"
"""The one line on stderr that says the order desk is reading stdin (tests wait for it)."""

HTTP_READY: Final = "serve: {what} at {{url}} (Ctrl-C stops it)"
"""The one line on stdout that says the HTTP server listens, with its URL (tests read it)."""
HTTP_STOPPED: Final = "serve: stopped."
AUTH_READY: Final = "serve: authorization server at {issuer} (consent: {consent})"
"""With ``--auth``: the loopback authority's line, printed before the service's."""

Scopes = tuple[tuple[str, ...], dict[str, str]]
AUTH_SCOPES: Final[dict[str, Scopes]] = {
    "files": (("files:read",), {}),
    "orders": (("desk:use",), {"create_investigation": "desk:write"}),
    "notes": (("notes:read",), {}),
}
"""With ``--auth`` (lesson 61): the scopes every request needs, and the tools that need one more."""


def main(argv: Sequence[str] | None = None) -> int:
    """Serve ``read_text_file`` (or the order desk, or the notes server) over stdio or HTTP."""
    parser = argparse.ArgumentParser(
        prog="python -m lessons_lib serve",
        description="Serve one MCP service for any MCP client (MCP Inspector, an IDE, your own client). "
        "Over stdio (the default) stdout carries only JSON-RPC frames and log lines go to stderr; with "
        "--http the same server answers Streamable HTTP at the URL it prints. Exit codes: 0 when the "
        "client closes stdin or Ctrl-C stops the HTTP server, 2 for bad input.",
    )
    parser.add_argument(
        "--example",
        choices=("files", "orders", "notes"),
        default="files",
        help="files: read_text_file (lesson 04); orders: the order desk over SQLite (lesson 30); "
        "notes: lesson 12's search_notes (with --http)",
    )
    parser.add_argument(
        "--root",
        type=folder_arg,
        default=WORKSPACE_DIR,
        help=f"files, notes: folder the client sees as {LOGICAL_ROOT} (default: data/workspace)",
    )
    parser.add_argument(
        "--db",
        type=Path,
        help="orders: keep the database in this file (made from the course data if missing; default: a fresh"
        " copy removed at the end)",
    )
    parser.add_argument(
        "--file",
        type=Path,
        help="--http: your own server file instead of an example (lesson 12's build_notes_server(root)),"
        " over --root",
    )
    parser.add_argument("--http", action="store_true", help="serve over Streamable HTTP (lesson 60)")
    parser.add_argument(
        "--auth",
        action="store_true",
        help="--http: a loopback OAuth authorization server too, the service its protected resource "
        "(scopes: files:read; the desk desk:use, create_investigation desk:write; lesson 61)",
    )
    parser.add_argument("--host", default="127.0.0.1", help="--http: address to bind (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="--http: port (default 0: a free one, printed)")
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        print(f"serve: --port {args.port} is not a port; give 0-65535 (0: a free one).", file=sys.stderr)
        return 2
    if (args.example == "notes" or args.file is not None) and not args.http:
        what = "--file" if args.file is not None else "--example notes"
        print(
            f"serve: {what} is served with --http (over stdio, run the file: python FILE FOLDER).",
            file=sys.stderr,
        )
        return 2
    if args.auth and not args.http:
        print("serve: --auth protects an HTTP service; add --http.", file=sys.stderr)
        return 2
    http = HttpOptions(host=args.host, port=args.port) if args.http else None
    scopes = AUTH_SCOPES["notes" if args.file is not None else args.example] if args.auth else None
    if args.example == "orders":
        return _serve_orders(args.db, http, scopes)
    if not args.root.is_dir():
        print(f"serve: --root {args.root} is not a directory; give an existing folder.", file=sys.stderr)
        return 2
    if args.file is not None:
        from lessons_lib.engine.serverfile import ServerFileError, load_server

        try:
            server = load_server(args.file, args.root)
        except ServerFileError as exc:
            print(f"serve: {exc}", file=sys.stderr)
            return 2
        return _served(server, http, f"your server ({args.file.name})", scopes=scopes)
    if args.example == "notes":
        from lessons_lib.services.notes.server import build_server as notes_server

        return _served(notes_server(args.root), http, "search_notes (lesson 12)", scopes=scopes)
    from lessons_lib.services.files.service import build_server

    return _served(build_server(args.root), http, "read_text_file", scopes=scopes)


def _served(
    server: HttpServable, http: HttpOptions | None, what: str, ready: str = "", scopes: Scopes | None = None
) -> int:
    """Serve over stdio (``http`` None) or HTTP until the end; one line for Ctrl-C or a bad address.

    With ``scopes`` the HTTP service is a protected resource of a loopback authority started here.
    """
    if http is None:
        from lessons_lib.services.files.stdio import READY, serve

        try:
            serve(WORKSPACE_DIR, server, ready or READY)  # type: ignore[arg-type]  # stdio: a low-level Server
        except KeyboardInterrupt:
            pass
        return 0
    try:
        _serve_http(server, http, what, scopes)
    except KeyboardInterrupt:
        pass  # uvicorn stopped cleanly, then re-raised the Ctrl-C it caught
    except OSError as exc:
        print(
            f"serve: cannot listen on {http.host}:{http.port}: {exc.strerror or exc}; try --port 0.",
            file=sys.stderr,
        )
        return 2
    print(HTTP_STOPPED, file=sys.stderr, flush=True)  # also when SIGINT was ignored (a background job)
    return 0


def _serve_http(server: HttpServable, http: HttpOptions, what: str, scopes: Scopes | None) -> None:
    """``serve_http``, behind a loopback authority when ``scopes`` are given (until Ctrl-C)."""
    from lessons_lib.engine.http.serve import serve_http

    ready = HTTP_READY.format(what=what)
    if scopes is None:
        serve_http(server, http, ready)
        return
    from lessons_lib.engine.http.authority import loopback_authority
    from lessons_lib.engine.http.authserver import CONSENT_LABEL

    required, per_tool = scopes
    with loopback_authority() as authority:
        print(AUTH_READY.format(issuer=authority.issuer, consent=CONSENT_LABEL), flush=True)
        serve_http(
            server,
            http,
            ready,
            wrap=lambda app, url: authority.guard(app, url, required, name=what, tool_scopes=per_tool),
        )


def _serve_orders(db: Path | None, http: HttpOptions | None, scopes: Scopes | None = None) -> int:
    from lessons_lib.services.orders.data import connect, create_database
    from lessons_lib.services.orders.service import OrderDesk, build_server

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
        desk = build_server(OrderDesk(path))
        return _served(desk, http, "the order desk (4 tools)", ORDERS_READY, scopes)
