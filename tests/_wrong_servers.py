"""A catalogue of search_notes servers for lesson 12's grader: one correct low-level server and
variants that each break one expectation (written for the tests, from the lesson's contract).

Each variant is ``build(root) -> mcp.server.Server``; ``WRONG`` maps a name to (build, the key
of the expectation the grader must name first).
"""

from __future__ import annotations

import json
import os
import posixpath
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp.server import Server
from mcp.shared.exceptions import MCPError

INPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1, "maxLength": 100},
        "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5},
        "path": {"type": "string", "default": "/workspace"},
    },
    "required": ["query"],
}
OUTPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "matches": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "path": {"type": "string"},
                    "line": {"type": "integer"},
                    "text": {"type": "string"},
                },
                "required": ["path", "line", "text"],
            },
        },
        "truncated": {"type": "boolean"},
    },
    "required": ["matches", "truncated"],
}


class Refused(Exception):
    """A tool execution error (answered isError: true)."""


@dataclass(frozen=True)
class Flaws:
    """Which rule a variant breaks (all False: the correct low-level server)."""

    no_root_check: bool = False
    follows_links: bool = False
    raises: bool = False
    input_schema: dict[str, Any] | None = None
    output_schema: dict[str, Any] | None = None
    renamed_field: bool = False
    no_text_block: bool = False
    any_tool: bool = False
    no_limit: bool = False
    encoding: str = "utf-8"
    errors: str = "strict"
    no_cut: bool = False
    leaks_path: bool = False
    blank_ok: bool = False
    missing_ok: bool = False


def _start(root: Path, path: str, f: Flaws) -> Path:
    norm = posixpath.normpath(path if path.startswith("/") else posixpath.join("/workspace", path))
    if f.no_root_check:
        return (root / path.removeprefix("/workspace").lstrip("/")).absolute()
    if norm != "/workspace" and not norm.startswith("/workspace/"):
        raise Refused(f"Access denied: {path} is outside /workspace")
    target = root / norm.removeprefix("/workspace").lstrip("/")
    if not f.follows_links:
        target = target.resolve()
        if target != root.resolve() and root.resolve() not in target.parents:
            raise Refused(f"Access denied: {path} leads outside /workspace")
    if not target.exists():
        where = str(target) if f.leaks_path else path
        if f.missing_ok:
            return target
        raise Refused(f"Not found: {where}")
    return target


def _search(root: Path, args: dict[str, Any], f: Flaws) -> dict[str, Any]:
    query, limit, path = args.get("query"), args.get("limit", 5), args.get("path", "/workspace")
    if not isinstance(query, str) or (not f.blank_ok and not query.strip()):
        raise Refused("Invalid arguments: 'query' must be a non-blank string")
    if not f.no_limit and (isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 20):
        raise Refused("Invalid arguments: 'limit' must be a whole number from 1 to 20")
    start = _start(root, str(path), f)
    files = [start] if start.is_file() else sorted(Path(d) / n for d, _, ns in os.walk(start) for n in ns)
    base = root.resolve()
    matches: list[dict[str, Any]] = []
    truncated = False
    for file in files:
        if not f.follows_links and base not in file.resolve().parents:
            continue
        try:
            lines = file.read_text(encoding=f.encoding, errors=f.errors).split("\n")
        except (UnicodeDecodeError, OSError):
            continue
        for n, line in enumerate(lines, start=1):
            if query in line:
                if not f.no_limit and len(matches) == limit:
                    truncated = True
                    break
                rel = Path(os.path.relpath(file, root)).as_posix()
                matches.append(
                    {"path": f"/workspace/{rel}", "line": n, "text": line if f.no_cut else line[:200]}
                )
    key = "snippets" if f.renamed_field else "matches"
    return {key: matches, "truncated": truncated}


def build(f: Flaws) -> Callable[[Path], Server]:
    """A low-level server with these flaws (Flaws() is correct)."""

    def make(root: Path) -> Server:
        tool = types.Tool(
            name="search_notes",
            description="Find the lines of the text files under /workspace that contain the query.",
            input_schema=f.input_schema or INPUT,
            output_schema=f.output_schema or OUTPUT,
        )

        async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
            return types.ListToolsResult(tools=[tool])

        async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
            if params.name != "search_notes" and not f.any_tool:
                raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")
            try:
                data = _search(root, dict(params.arguments or {}), f)
            except Refused as refusal:
                if f.raises:
                    raise ValueError(str(refusal)) from None
                text = types.TextContent(type="text", text=str(refusal))
                return types.CallToolResult(content=[text], is_error=True)
            blocks = [] if f.no_text_block else [types.TextContent(type="text", text=json.dumps(data))]
            return types.CallToolResult(content=blocks, structured_content=data, is_error=False)

        return Server("notes", on_list_tools=on_list_tools, on_call_tool=on_call_tool)

    return make


def _without(schema: dict[str, Any], *path: str) -> dict[str, Any]:
    copy = json.loads(json.dumps(schema))
    node = copy
    for key in path[:-1]:
        node = node[key]
    del node[path[-1]]
    return copy


OK = Flaws()
WRONG: dict[str, tuple[Callable[[Path], Server], str]] = {
    "reads_outside_root": (build(replace(OK, no_root_check=True)), "outside_root"),
    "follows_links_out": (build(replace(OK, follows_links=True)), "outside_root"),
    "raises_instead_of_iserror": (build(replace(OK, raises=True)), "bad_arguments"),
    "schema_without_required": (build(replace(OK, input_schema=_without(INPUT, "required"))), "input_schema"),
    "schema_without_bounds": (
        build(
            replace(
                OK,
                input_schema=_without(
                    _without(INPUT, "properties", "limit", "minimum"), "properties", "limit", "maximum"
                ),
            )
        ),
        "input_schema",
    ),
    "no_output_schema_field_match": (build(replace(OK, renamed_field=True)), "finds"),
    "no_json_text_block": (build(replace(OK, no_text_block=True)), "finds"),
    "unknown_tool_runs_search": (build(replace(OK, any_tool=True)), "unknown_tool"),
    "no_limit_check": (build(replace(OK, no_limit=True)), "limit"),
    "reads_latin1": (build(replace(OK, encoding="latin-1")), "non_ascii"),
    "big_lines_uncut": (build(replace(OK, no_cut=True)), "big_file"),
    "binary_as_text": (build(replace(OK, errors="replace")), "binary"),
    "blank_query_accepted": (build(replace(OK, blank_ok=True)), "bad_arguments"),
    "missing_path_is_empty": (build(replace(OK, missing_ok=True)), "missing"),
    "error_names_machine_path": (build(replace(OK, leaks_path=True)), "no_machine_path"),
}
"""name -> (build, the expectation the grader must name first)."""

PRINTS_TO_STDOUT = """\
import sys
from pathlib import Path

from lessons_lib.engine.notes_server import build_server

print("starting the notes server on", sys.argv[1:])  # the mistake: stdout belongs to the protocol
build_server(Path(sys.argv[1])).run("stdio")
"""
"""A server file whose only flaw is one print to stdout (graded over stdio)."""
