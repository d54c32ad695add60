"""One ``tools/call`` under three MCP revisions, recorded frame by frame (lesson 43).

The same read of ``/workspace/notes.txt`` through the real ``mcp`` SDK and the course's framed
transport (:mod:`lessons_lib.engine.wire`), so every frame is the JSON text a transport carries:

- ``2025-06-18`` (the source's reference): the SDK's ``ClientSession.initialize()`` always
  offers ``2025-11-25``, so the application sends the SDK's own ``InitializeRequest`` offering
  ``2025-06-18`` through the same session and adopts the server's answer
  (``ClientSession.adopt``); everything after that is the SDK's ordinary path;
- ``2025-11-25``: ``mcp.Client(..., mode="legacy")`` (initialize handshake);
- ``2026-07-28``: ``mcp.Client(..., mode="auto")``: ``server/discover``, no initialize,
  ``_meta`` on every request, ``resultType`` in every result.

The server is the course's file service with one addition the revisions disagree on: it checks
the arguments against ``inputSchema`` first (``jsonschema``), and a violation is a **protocol
error** (JSON-RPC ``-32602``) when the connection speaks 2025-06-18, a **tool execution error**
(``isError: true``) from 2025-11-25 on (SEP-1303). The low-level SDK server does not validate
input itself, so this check is written here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final

from lessons_lib.core.example import EXAMPLE_PATH, SERVICE_NAME, TOOL_NAME
from lessons_lib.core.jsonvalue import JSON, JSONObject
from lessons_lib.core.paths import WORKSPACE_DIR
from lessons_lib.engine.runsync import run_sync
from lessons_lib.engine.specs import frame_errors
from lessons_lib.services.files.service import INPUT_SCHEMA, FileService, tool_declaration, tool_result

if TYPE_CHECKING:
    from mcp import ClientSession
    from mcp.server import Server

REVISIONS: Final = ("2025-06-18", "2025-11-25", "2026-07-28")
REFERENCE_REVISION: Final = "2025-06-18"
BAD_HEAD: Final = "5"
"""The bad value of lesson 43: ``head`` as the text ``"5"``, which ``inputSchema`` forbids."""


@dataclass(frozen=True)
class Frame:
    """One JSON-RPC message as it crossed the wire, with the request method it belongs to."""

    direction: str  # "to_service" or "to_application"
    method: str
    body: JSONObject

    @property
    def label(self) -> str:
        kind = "request" if "method" in self.body and "id" in self.body else "notification"
        if "method" not in self.body:
            kind = "error" if "error" in self.body else "result"
        return f"{self.method} {kind}"


@dataclass
class RevisionRun:
    """The frames of one connection and one ``tools/call`` at one revision."""

    revision: str
    arguments: JSONObject
    frames: list[Frame] = field(default_factory=list)
    negotiated: str | None = None

    def frame(self, label: str) -> JSONObject:
        """The body of the first frame with this label, e.g. ``"tools/call request"``."""
        for f in self.frames:
            if f.label == label:
                return f.body
        raise KeyError(f"no frame {label!r} at {self.revision}; have: {', '.join(self.labels())}")

    def labels(self) -> list[str]:
        return [f.label for f in self.frames]

    @property
    def call(self) -> JSONObject:
        return self.frame("tools/call request")

    @property
    def answer(self) -> JSONObject:
        """The frame that answers ``tools/call``: a result or a JSON-RPC error."""
        for f in self.frames:
            if f.method == "tools/call" and f.direction == "to_application":
                return f.body
        raise KeyError(f"tools/call was not answered at {self.revision}")

    def schema_errors(self, revision: str | None = None) -> dict[str, list[str]]:
        """Each frame against ``revision``'s official schema (default: its own revision)."""
        target = revision or self.revision
        return {
            f"{n:02d} {f.label}": frame_errors(target, f.body, f.method) for n, f in enumerate(self.frames)
        }


def build_revision_server(root: Path | None = None, name: str = SERVICE_NAME) -> Server:
    """The file service whose input-validation error depends on the negotiated revision."""
    import jsonschema
    import mcp_types as types
    from mcp.server import Server
    from mcp.shared.exceptions import MCPError

    service = FileService(Path(root) if root is not None else WORKSPACE_DIR)
    tool = tool_declaration(structured=False)
    validator = jsonschema.Draft202012Validator(INPUT_SCHEMA)

    async def on_list_tools(ctx: object, params: object) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool])

    async def on_call_tool(ctx: object, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name != TOOL_NAME:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")
        arguments = dict(params.arguments or {})
        problem = jsonschema.exceptions.best_match(validator.iter_errors(arguments))
        if problem is not None:
            where = "/".join(map(str, problem.absolute_path)) or "arguments"
            message = f"Invalid arguments: {where}: {problem.message}"
            if getattr(ctx, "protocol_version", None) == REFERENCE_REVISION:
                raise MCPError(code=types.INVALID_PARAMS, message=message)
            return types.CallToolResult(content=[types.TextContent(type="text", text=message)], is_error=True)
        return tool_result(service, arguments)

    return Server(name, version="1.0.0", on_list_tools=on_list_tools, on_call_tool=on_call_tool)


class _Recorder:
    """A frame sink for :class:`FramedTransport` that names each response by its request."""

    def __init__(self, run: RevisionRun) -> None:
        self.run, self.pending = run, dict[object, str]()

    def __call__(self, direction: str, body: JSONObject) -> None:
        if "method" in body:
            method = str(body["method"])
            if "id" in body:
                self.pending[body["id"]] = method
        else:
            method = self.pending.pop(body.get("id"), "response")
        self.run.frames.append(Frame(direction, method, body))


async def _handshake_2025_06_18(session: ClientSession) -> None:
    """``initialize`` offering 2025-06-18, built from the SDK's own types and methods."""
    import mcp_types as types

    request = types.InitializeRequest(
        params=types.InitializeRequestParams(
            protocol_version=REFERENCE_REVISION,
            capabilities=types.ClientCapabilities(),
            client_info=types.Implementation(name="mcp", version="0.1.0"),
        )
    )
    result = await session.send_request(request, types.InitializeResult)
    session.adopt(result)
    await session.send_notification(types.InitializedNotification())


async def arecord(revision: str, arguments: JSONObject, root: Path | None = None) -> RevisionRun:
    """Connect at ``revision``, list the tools, call ``read_text_file`` once; keep every frame."""
    from mcp import Client, ClientSession
    from mcp.shared.exceptions import MCPError

    from lessons_lib.engine.wire import FramedTransport

    if revision not in REVISIONS:
        raise ValueError(f"unknown revision {revision!r}; choose one of {', '.join(REVISIONS)}")
    run = RevisionRun(revision, dict(arguments))
    transport = FramedTransport(build_revision_server(root), _Recorder(run))
    try:
        if revision == REFERENCE_REVISION:
            async with transport as (read, write), ClientSession(read, write) as session:
                await _handshake_2025_06_18(session)
                run.negotiated = session.protocol_version
                await session.list_tools()
                await session.call_tool(TOOL_NAME, arguments)
        else:
            mode = "legacy" if revision == "2025-11-25" else "auto"
            async with Client(transport, mode=mode) as client:
                run.negotiated = client.protocol_version
                await client.list_tools()
                await client.call_tool(TOOL_NAME, arguments)
    except* MCPError:
        pass  # a protocol error is one of the outcomes the lesson records; its frame is kept
    if run.negotiated != revision:
        raise RuntimeError(f"asked for {revision}, the SDK negotiated {run.negotiated}")
    return run


def record_revision(revision: str, *, head: JSON = 5, path: str = EXAMPLE_PATH) -> RevisionRun:
    """:func:`arecord` from plain code or a notebook cell, for ``path`` and ``head``."""

    async def main() -> RevisionRun:
        return await arecord(revision, {"path": path, "head": head})

    return run_sync(main)


def record_revisions(*, head: JSON = 5, path: str = EXAMPLE_PATH) -> dict[str, RevisionRun]:
    """The same call under all three revisions, oldest first (lesson 43)."""

    async def main() -> dict[str, RevisionRun]:
        return {r: await arecord(r, {"path": path, "head": head}) for r in REVISIONS}

    return run_sync(main)
