"""The MCP file service: the tool ``read_text_file`` on a low-level ``mcp.server.Server``.

Introduced in lesson 03. The declaration copies the reference filesystem server's
(``@modelcontextprotocol/server-filesystem``): same name, description, input schema and
read-only annotation. The reading rules are written here because no library enforces a
logical root: every refusal is decided *before* the file is opened, and every message speaks
of the logical path (``/workspace/...``), never of the directory behind it.
"""

from __future__ import annotations

import errno
import math
import os
import posixpath
import stat
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from lessons_lib.core.echo import short
from lessons_lib.core.example import SERVICE_NAME, TOOL_NAME
from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.paths import LOGICAL_ROOT, WORKSPACE_DIR
from lessons_lib.services.files.opener import NotRegularFile, open_beneath
from lessons_lib.services.files.pathrules import windows_problem

if TYPE_CHECKING:
    from mcp.server import Server
    from mcp.server.context import ServerRequestContext
    from mcp_types import CallToolRequestParams, CallToolResult, Tool

CallHandler = Callable[["ServerRequestContext", "CallToolRequestParams"], Awaitable["CallToolResult"]]
"""A server's ``tools/call`` handler (``build_server(on_call=...)`` replaces the service's own)."""

MAX_BYTES: Final = 1_048_576
"""Size cap: a larger file is refused without being read."""

DESCRIPTION: Final = (
    "Read the complete contents of a file from the file system as text. "
    "Handles various text encodings and provides detailed error messages "
    "if the file cannot be read. Use this tool when you need to examine "
    "the contents of a single file. Use the 'head' parameter to read only "
    "the first N lines of a file, or the 'tail' parameter to read only "
    "the last N lines of a file. Operates on the file as text regardless of extension. "
    "Only works within allowed directories."
)

INPUT_SCHEMA: Final[JSONObject] = {
    "type": "object",
    "properties": {
        "path": {"type": "string"},
        "head": {"type": "number", "description": "If provided, returns only the first N lines of the file"},
        "tail": {"type": "number", "description": "If provided, returns only the last N lines of the file"},
    },
    "required": ["path"],
}
"""The rule (规则) for the tool's input: types only, never this call's values."""


class ToolRefusal(Exception):
    """A tool execution error: the call was understood but refused; nothing was read."""


@dataclass(frozen=True)
class FileService:
    """Reads text files under one directory that the caller sees as ``/workspace``."""

    root: Path = WORKSPACE_DIR
    max_bytes: int = MAX_BYTES
    logical_root: str = LOGICAL_ROOT

    def logical(self, path: object) -> str:
        """Normalise a requested path to its logical form; refuse one outside the root."""
        if not isinstance(path, str) or not path.strip():
            raise ToolRefusal("Invalid arguments: 'path' must be a non-empty string")
        if "\x00" in path:
            raise ToolRefusal("Invalid arguments: 'path' contains a null byte")
        problem = windows_problem(path)  # refused on every OS, so lessons behave the same
        if problem:
            raise ToolRefusal(problem)
        joined = path if path.startswith("/") else posixpath.join(self.logical_root, path)
        norm = posixpath.normpath(joined)
        if norm != self.logical_root and not norm.startswith(self.logical_root + "/"):
            raise ToolRefusal(
                f"Access denied - path outside allowed directories: {short(path)} not in {self.logical_root}"
            )
        return norm

    def locate(self, logical: str) -> Path:
        """Map a logical path to the disk; refuse a link that leads out of the root.

        This is only the first check: :meth:`read` then opens the file without following links
        (:func:`~lessons_lib.services.files.opener.open_beneath`, on every OS), so a path swapped
        after this check is refused instead of followed.
        """
        relative = logical[len(self.logical_root) :].lstrip("/")
        root = Path(os.path.realpath(self.root))
        target = Path(os.path.realpath(root / relative))
        if target != root and root not in target.parents:
            raise ToolRefusal(f"Access denied - {logical} is a link that leads outside allowed directories")
        return target

    def read(self, path: object, head: object = None, tail: object = None) -> str:
        """Check everything, then read: the text (whole, first or last N lines) or ToolRefusal."""
        n_head = _line_count("head", head)
        n_tail = _line_count("tail", tail)
        if n_head is not None and n_tail is not None:
            raise ToolRefusal("Cannot specify both head and tail parameters simultaneously")
        logical = self.logical(path)
        try:
            root = Path(os.path.realpath(self.root))
            parts = self.locate(logical).relative_to(root).parts
            fd = open_beneath(root, parts)
        except OSError as exc:  # every file-system error is a refusal that names the logical path only
            raise ToolRefusal(_os_refusal(exc, short(logical))) from None
        try:
            info = os.fstat(fd)  # the opened file itself, not the name that was checked
            if stat.S_ISDIR(info.st_mode):
                raise ToolRefusal(f"Is a directory, not a file: {logical}")
            if not stat.S_ISREG(info.st_mode):
                raise ToolRefusal(f"Not a regular file: {logical}")
            if info.st_size > self.max_bytes:
                raise ToolRefusal(
                    f"File too large: {logical} is {info.st_size} bytes; the limit is {self.max_bytes} bytes"
                )
            data = _read_bytes(Opened(fd, parts[-1] if parts else "", self.max_bytes))
        except OSError as exc:
            raise ToolRefusal(_os_refusal(exc, short(logical))) from None
        finally:
            os.close(fd)
        if len(data) > self.max_bytes:  # it grew after fstat
            raise ToolRefusal(f"File too large: {logical} is over {self.max_bytes} bytes")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ToolRefusal(f"Not a UTF-8 text file: {logical}") from None
        return select_lines(text, n_head, n_tail)


@dataclass(frozen=True)
class Opened:
    """A file opened beneath the root: its descriptor, its name, how much may be read."""

    fd: int
    name: str
    limit: int


def _os_refusal(exc: OSError, logical: str) -> str:
    """One refusal per kind of file-system error, with the logical path only."""
    code = exc.errno
    if isinstance(exc, NotRegularFile):
        return f"Not a regular file: {logical}"
    if code == errno.EISDIR:
        return f"Is a directory, not a file: {logical}"
    if code in (errno.ENOENT, errno.ENOTDIR):
        return f"File not found: {logical}"
    if code == errno.ELOOP:  # a part became a link after the check: refused, never followed
        return f"Access denied - {logical} changed into a link while being opened"
    if code == errno.ENAMETOOLONG:
        return f"Invalid path: a name in {logical} is too long for the file system"
    if code in (errno.EACCES, errno.EPERM):
        return f"Permission denied: {logical}"
    return f"Cannot read {logical}: {os.strerror(code) if code else 'file-system error'}"


_READS = [0]  # files whose content this process's file service read (guarded by _READS_LOCK)
_READS_LOCK = threading.Lock()


def service_reads() -> int:
    """How many files the file service of this process has read so far (lesson 02).

    Counted in :func:`_read_bytes`, the one place content is read; a refusal, a parsed
    ``arguments`` text or a declaration never counts. Compare two values, before and after.
    """
    with _READS_LOCK:
        return _READS[0]


def _read_bytes(opened: Opened) -> bytes:
    """The only place a file's content is read (tests watch it to prove refusals read nothing)."""
    with _READS_LOCK:
        _READS[0] += 1
    chunks: list[bytes] = []
    left = opened.limit + 1
    while left > 0:
        chunk = os.read(opened.fd, min(left, 1 << 16))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _line_count(field: str, value: object) -> int | None:
    """Accept None or a positive whole number (5 or 5.0); refuse 0, negatives, fractions, text."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ToolRefusal(f"Invalid arguments: '{field}' must be a number, got {type(value).__name__}")
    if isinstance(value, float) and (not math.isfinite(value) or not value.is_integer()):
        raise ToolRefusal(f"Invalid arguments: '{field}' must be a whole number of lines, got {value}")
    if value < 1:
        raise ToolRefusal(f"Invalid arguments: '{field}' must be at least 1, got {_number(value)}")
    return int(value)


def _number(value: int | float) -> str:
    """A number as a message may quote it: short, and never Python's own overflow or digit-limit text."""
    if isinstance(value, float) or abs(value) < 10**15:
        return f"{value:g}"
    return f"a negative number of about {int(value.bit_length() * 0.30103)} digits"


def select_lines(text: str, head: int | None = None, tail: int | None = None) -> str:
    """First or last N lines joined by '\\n' (no trailing newline), or the whole text.

    A final newline ends the last line; it does not start an empty one (the reference
    server's tail returns an empty last line here, which we do not copy).
    """
    if head is None and tail is None:
        return text
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    chosen = lines[:head] if head is not None else lines[-tail:] if tail else []
    return "\n".join(chosen)


def read_text_file(
    path: str, head: int | None = None, tail: int | None = None, root: Path | None = None
) -> str:
    """Call the service's reading logic directly (no protocol), as lesson 02 contrasts."""
    return FileService(root or WORKSPACE_DIR).read(path, head, tail)


OUTPUT_SCHEMA: Final[JSONObject] = {
    "type": "object",
    "properties": {"content": {"type": "string"}},
    "required": ["content"],
}
"""The rule for a structured result (lesson 44): the reference server's ``outputSchema``."""


def tool_declaration(*, structured: bool = False) -> Tool:
    """The ``Tool`` that ``tools/list`` returns; with ``structured`` it adds ``outputSchema``."""
    import mcp_types as types

    return types.Tool(
        name=TOOL_NAME,
        title="Read Text File",
        description=DESCRIPTION,
        input_schema=INPUT_SCHEMA,
        output_schema=OUTPUT_SCHEMA if structured else None,
        annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
    )


def tool_result(service: FileService, arguments: JSONObject, *, structured: bool = False) -> CallToolResult:
    """One ``read_text_file`` call as a ``CallToolResult``: a refusal is ``is_error=True``.

    With ``structured`` a success also carries ``structuredContent`` ``{"content": text}`` beside
    the text block (lesson 44), as the reference server does.
    """
    # Other fields are ignored, as the schema allows (no additionalProperties: false) and as
    # the reference server does.
    try:
        text = service.read(arguments.get("path"), arguments.get("head"), arguments.get("tail"))
    except ToolRefusal as refusal:
        return _result(str(refusal), is_error=True)
    except Exception as exc:  # never leak a Python exception or a machine path to the client
        return _result(f"Internal error while reading: {type(exc).__name__}", is_error=True)
    result = _result(text, is_error=False)
    if structured:
        result.structured_content = {"content": text}
    return result


def build_server(
    root: Path | None = None,
    name: str = SERVICE_NAME,
    *,
    structured: bool = False,
    on_call: CallHandler | None = None,
) -> Server:
    """A low-level MCP server exposing ``read_text_file`` over ``root`` (default data/workspace).

    ``on_call`` replaces the ``tools/call`` handler and keeps the declaration (lesson 11's
    grader injects a fault this way).
    """
    import mcp_types as types
    from mcp.server import Server
    from mcp.shared.exceptions import MCPError

    service = FileService(Path(root) if root is not None else WORKSPACE_DIR)
    tool = tool_declaration(structured=structured)

    async def on_list_tools(
        ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool])

    async def on_call_tool(
        ctx: ServerRequestContext, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        if params.name != TOOL_NAME:
            # An unknown tool is a protocol error (JSON-RPC -32602), as the 2025-06-18 revision shows.
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {short(params.name)}")
        return tool_result(service, dict(params.arguments or {}), structured=structured)

    return Server(name, version="1.0.0", on_list_tools=on_list_tools, on_call_tool=on_call or on_call_tool)


def _result(text: str, *, is_error: bool) -> CallToolResult:
    from mcp_types import CallToolResult, TextContent

    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=is_error)
