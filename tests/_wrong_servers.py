"""A catalogue of search_notes servers for lesson 12's grader: one correct low-level server and
variants that each break one expectation (written for the tests, from the lesson's contract).

Each variant is ``build(root) -> mcp.server.Server``; ``WRONG`` maps a name to (build, the key
of the expectation the grader must name first).
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import traceback
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
    prefix_root_check: bool = False
    walks_linked_dirs: bool = False
    truncated_at_limit: bool = False
    limit_per_file: bool = False
    stops_quietly: bool = False
    no_length_check: bool = False
    spaces_only: bool = False
    regex: bool = False
    escaped_regex: bool = False
    each_occurrence: bool = False
    drops_last_line: bool = False
    byte_cut: bool = False
    folders_only: bool = False
    traceback_text: bool = False


def _start(root: Path, path: str, f: Flaws) -> Path:
    norm = posixpath.normpath(path if path.startswith("/") else posixpath.join("/workspace", path))
    if f.no_root_check:
        return (root / path.removeprefix("/workspace").lstrip("/")).absolute()
    if f.prefix_root_check:  # the mistake: a string prefix, so root-private/ counts as inside root/
        if path != "/workspace" and not path.startswith("/workspace/"):
            raise Refused(f"Access denied: {path} is outside /workspace")
        start = (root / path.removeprefix("/workspace").lstrip("/")).resolve()
        if not str(start).startswith(str(root.resolve())):
            raise Refused(f"Access denied: {path} is outside /workspace")
        if not start.exists():
            raise Refused(f"Not found: {path}")
        return start
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
        if f.traceback_text:  # the mistake: the whole traceback as the error message
            try:
                raise LookupError(f"Not found: {path}")
            except LookupError:
                raise Refused(traceback.format_exc()) from None
        raise Refused(f"Not found: {where}")
    return target


def _matches(query: str, line: str, f: Flaws) -> int:
    """How many matches this line gives (a correct server: 1 or 0)."""
    if f.regex:
        try:
            return len(re.findall(query, line)) if f.each_occurrence else int(bool(re.search(query, line)))
        except re.error:
            return 0
    if f.escaped_regex:
        return int(re.search(re.escape(query), line) is not None)
    return line.count(query) if f.each_occurrence else int(query in line)


def _cut(line: str, f: Flaws) -> str:
    if f.no_cut:
        return line
    if f.byte_cut:
        return line.encode("utf-8")[:200].decode("utf-8", errors="ignore")
    return line[:200]


def _files(start: Path, f: Flaws) -> list[Path]:
    if start.is_file() and not f.folders_only:
        return [start]
    walked = os.walk(start, followlinks=f.walks_linked_dirs)
    return sorted(Path(d) / n for d, _, ns in walked for n in ns)


def _search(root: Path, args: dict[str, Any], f: Flaws) -> dict[str, Any]:
    query, limit, path = args.get("query"), args.get("limit", 5), args.get("path", "/workspace")
    if not isinstance(query, str) or (not f.blank_ok and not query.strip(" " if f.spaces_only else None)):
        raise Refused("Invalid arguments: 'query' must be a non-blank string")
    if len(query) > 100 and not f.no_length_check:
        raise Refused("Invalid arguments: 'query' must be at most 100 characters")
    if not f.no_limit and (isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 20):
        raise Refused("Invalid arguments: 'limit' must be a whole number from 1 to 20")
    start = _start(root, str(path), f)
    base = root.resolve()
    matches: list[dict[str, Any]] = []
    truncated = False
    for file in _files(start, f):
        if len(matches) == limit and f.stops_quietly:
            break  # the mistake: the limit is reached, later files are never looked at
        if f.walks_linked_dirs:  # the mistake: skips file links, yet walks into linked folders
            if file.is_symlink():
                continue
        elif not f.follows_links and base not in file.resolve().parents:
            continue
        try:
            lines = file.read_text(encoding=f.encoding, errors=f.errors).split("\n")
        except (UnicodeDecodeError, OSError):
            continue
        if f.drops_last_line:
            lines = lines[:-1]
        in_file = 0
        for n, line in enumerate(lines, start=1):
            for _ in range(_matches(query, line, f)):
                full = in_file == limit if f.limit_per_file else len(matches) == limit
                if not f.no_limit and full:
                    truncated = True
                    break
                rel = Path(os.path.relpath(file, root)).as_posix()
                matches.append({"path": f"/workspace/{rel}", "line": n, "text": _cut(line, f)})
                in_file += 1
            if truncated and not f.limit_per_file:
                break
        if truncated and not f.limit_per_file:
            break
    if f.truncated_at_limit:
        truncated = len(matches) >= limit
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
RIGHT_STYLES: dict[str, Callable[[Path], Server]] = {
    "lowlevel_os_walk": build(OK),
    "lowlevel_escaped_regex": build(replace(OK, escaped_regex=True)),
}
"""Correct low-level servers in other styles (the MCPServer styles are in the test file)."""
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
    "root_check_by_string_prefix": (build(replace(OK, prefix_root_check=True)), "outside_root"),
    "walks_into_linked_folder": (build(replace(OK, walks_linked_dirs=True)), "outside_root"),
    "truncated_when_exactly_limit": (build(replace(OK, truncated_at_limit=True)), "limit"),
    "limit_per_file": (build(replace(OK, limit_per_file=True)), "limit"),
    "stops_without_truncated": (build(replace(OK, stops_quietly=True)), "limit"),
    "over_long_query_searched": (build(replace(OK, no_length_check=True)), "bad_arguments"),
    "schema_without_max_length": (
        build(replace(OK, input_schema=_without(INPUT, "properties", "query", "maxLength"))),
        "input_schema",
    ),
    "tabs_are_not_blank": (build(replace(OK, spaces_only=True)), "bad_arguments"),
    "query_as_regex": (build(replace(OK, regex=True)), "literal"),
    "each_occurrence_a_match": (build(replace(OK, each_occurrence=True)), "per_line"),
    "last_line_dropped": (build(replace(OK, drops_last_line=True)), "last_line"),
    "cut_by_bytes": (build(replace(OK, byte_cut=True)), "characters"),
    "file_path_finds_nothing": (build(replace(OK, folders_only=True)), "file_path"),
    "traceback_in_error": (build(replace(OK, traceback_text=True)), "no_machine_path"),
}
"""name -> (build, the expectation the grader must name first)."""

PRINTS_TO_STDOUT = """\
import sys
from pathlib import Path

from lessons_lib.services.notes.server import build_server

print("starting the notes server on", sys.argv[1:])  # the mistake: stdout belongs to the protocol
build_server(Path(sys.argv[1])).run("stdio")
"""
"""A server file whose only flaw is one print to stdout (graded over stdio)."""
