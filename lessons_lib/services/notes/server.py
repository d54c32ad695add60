"""The reference MCP server of lesson 12: ``search_notes`` over one folder seen as ``/workspace``.

Written with the official SDK's high-level server API (``mcp.server.MCPServer``): the
function's signature becomes the ``inputSchema`` (types, the required ``query``, the bounds of
``limit``), its return type the ``outputSchema``; a return value becomes ``structuredContent``
plus the same JSON in a text block; a ``ToolError`` becomes a result with ``isError: true``.
The checks the schema cannot state (a blank query, a path out of the root, a link that leads
out) are written in :func:`search`.

Run it as a stdio server (what an MCP host starts): ``python notes_server.py FOLDER``. Its log
goes to stderr: stdout carries the JSON-RPC frames and nothing else.
"""

import logging
import os
import posixpath
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Final

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import Field
from typing_extensions import TypedDict  # pydantic needs this one before Python 3.12

LOGICAL_ROOT: Final = "/workspace"
MAX_LIMIT: Final = 20
MAX_TEXT: Final = 200
"""A line longer than this comes back cut, so one huge line cannot flood the answer."""

log = logging.getLogger("notes_server")


class Match(TypedDict):
    """One line that contains the query: where it is and what it says."""

    path: str
    line: int
    text: str


class SearchResult(TypedDict):
    """The structured result: the matches, and whether more were left out by ``limit``."""

    matches: list[Match]
    truncated: bool


def resolve(root: Path, path: str) -> Path:
    """The folder or file a logical path names, or ToolError when it lies outside the root."""
    norm = posixpath.normpath(path) if path.startswith("/") else posixpath.join(LOGICAL_ROOT, path)
    norm = posixpath.normpath(norm)
    if norm != LOGICAL_ROOT and not norm.startswith(LOGICAL_ROOT + "/"):
        raise ToolError(f"Access denied: {path} is outside {LOGICAL_ROOT}")
    base = root.resolve()
    target = (base / norm[len(LOGICAL_ROOT) :].lstrip("/")).resolve()
    if target != base and base not in target.parents:
        raise ToolError(f"Access denied: {path} leads outside {LOGICAL_ROOT}")
    if not target.exists():
        raise ToolError(f"Not found: {path}")
    return target


def files_under(base: Path, start: Path) -> list[Path]:
    """Every regular file at or below ``start``, in path order; links that lead out are left out."""
    found = [start] if start.is_file() else [Path(d) / f for d, _, fs in os.walk(start) for f in fs]
    inside = [p for p in found if p.resolve() == base or base in p.resolve().parents]
    return sorted(p for p in inside if p.is_file())


def search(root: Path, query: str, limit: int = 5, path: str = LOGICAL_ROOT) -> SearchResult:
    """The lines under ``path`` that contain ``query``: at most ``limit``, each cut to MAX_TEXT."""
    if not query.strip():
        raise ToolError("Invalid arguments: 'query' must not be blank")
    base = root.resolve()
    matches: list[Match] = []
    truncated = False
    for file in files_under(base, resolve(root, path)):
        try:
            text = file.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            log.info("skipped %s (not a UTF-8 text file)", file.name)
            continue
        logical = f"{LOGICAL_ROOT}/{file.resolve().relative_to(base).as_posix()}"
        for number, line in enumerate(text.split("\n"), start=1):
            if query not in line:
                continue
            if len(matches) == limit:
                truncated = True
                break
            matches.append({"path": logical, "line": number, "text": line[:MAX_TEXT]})
        if truncated:
            break
    log.info("search_notes: %d match(es), truncated=%s", len(matches), truncated)
    return {"matches": matches, "truncated": truncated}


def build_server(root: Path) -> MCPServer:
    """The ``notes`` server with one tool, ``search_notes``, over ``root`` as ``/workspace``."""
    server = MCPServer("notes")

    @server.tool(title="Search Notes", annotations=ToolAnnotations(read_only_hint=True))
    def search_notes(
        query: Annotated[str, Field(min_length=1, max_length=100, description="Text to look for")],
        limit: Annotated[int, Field(ge=1, le=MAX_LIMIT, description="At most this many matches")] = 5,
        path: Annotated[str, Field(description="A folder or file under /workspace")] = LOGICAL_ROOT,
    ) -> SearchResult:
        """Find the lines of the text files under /workspace that contain the query."""
        return search(root, query, limit, path)

    return server


def main(argv: Sequence[str] | None = None) -> None:
    """``python notes_server.py FOLDER``: serve ``search_notes`` over stdio, log to stderr."""
    args = list(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(name)s: %(message)s", force=True)
    build_server(Path(args[0] if args else ".")).run("stdio")


if __name__ == "__main__":
    main()
