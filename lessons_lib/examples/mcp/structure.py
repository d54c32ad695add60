"""Tools, resources and prompts on one MCP server, and where content came from (lesson 42).

The file service of part one grows the other two MCP primitives:

- **tool** ``read_text_file`` (with ``outputSchema`` and ``structuredContent``, lesson 44) and
  ``list_workspace``, whose result is a list of ``resource_link`` blocks: it points at files
  instead of pasting them;
- **resources**: every text file under ``/workspace`` as ``file:///workspace/<name>``, read
  with ``resources/read`` (the application decides to read; the model did not ask);
- **prompt** ``summarize_notes``: a reusable user message that embeds ``notes.txt`` as a
  resource, filled with the argument ``lines``.

Before any of it reaches the model the application labels its origin (the tool-design article: "在内容进入
模型时标记来源"): :func:`labelled` turns one piece of content into the text the model sees,
with a first line saying which primitive, which server and which URI it came from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from lessons_lib.core.example import SERVICE_NAME, TOOL_NAME
from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.messages import t
from lessons_lib.core.paths import LOGICAL_ROOT, WORKSPACE_DIR
from lessons_lib.engine.runsync import run_sync
from lessons_lib.services.files.service import FileService, ToolRefusal, tool_declaration, tool_result

if TYPE_CHECKING:
    from mcp.server import Server

URI_PREFIX: Final = "file://" + LOGICAL_ROOT + "/"
PROMPT_NAME: Final = "summarize_notes"
ORIGINS: Final = ("tool", "resource", "prompt")
"""Where a piece of content came from (its name in :func:`labelled`: ``structure.origin.*``)."""


def uri_of(name: str) -> str:
    """``notes.txt`` -> ``file:///workspace/notes.txt``."""
    return URI_PREFIX + name


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.iterdir() if p.is_file() and p.suffix in (".txt", ".md"))


def build_structure_server(root: Path | None = None, name: str = SERVICE_NAME) -> Server:
    """One server with two tools, the workspace files as resources and one prompt (lesson 42)."""
    import mcp_types as types
    from mcp.server import Server
    from mcp.shared.exceptions import MCPError

    base = Path(root) if root is not None else WORKSPACE_DIR
    service = FileService(base)
    listing = types.Tool(
        name="list_workspace",
        description="List the text files under /workspace as resource links (their content is not included).",
        input_schema={"type": "object", "properties": {}, "additionalProperties": False},
        annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
    )
    tools = [tool_declaration(structured=True), listing]
    prompt = types.Prompt(
        name=PROMPT_NAME,
        description="Ask for a short summary of the first N lines of /workspace/notes.txt.",
        arguments=[
            types.PromptArgument(name="lines", description="How many lines to summarise", required=True)
        ],
    )

    def resource(path: Path) -> Any:
        return types.Resource(
            name=path.name, uri=uri_of(path.name), mime_type="text/plain", size=path.stat().st_size
        )

    async def on_list_tools(ctx: object, params: object) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def on_call_tool(ctx: object, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name == TOOL_NAME:
            return tool_result(service, dict(params.arguments or {}), structured=True)
        if params.name == "list_workspace":
            links: list[types.ContentBlock] = [
                types.ResourceLink(
                    type="resource_link", name=p.name, uri=uri_of(p.name), mime_type="text/plain"
                )
                for p in _files(base)
            ]
            return types.CallToolResult(content=links, is_error=False)
        raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")

    async def on_list_resources(ctx: object, params: object) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[resource(p) for p in _files(base)])

    async def on_read_resource(
        ctx: object, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        if not uri.startswith(URI_PREFIX):
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown resource: {uri}")
        try:
            text = service.read(LOGICAL_ROOT + "/" + uri[len(URI_PREFIX) :])
        except ToolRefusal as refusal:  # a resource that cannot be read is a protocol error
            raise MCPError(code=-32002, message=f"Resource not found: {uri} ({refusal})") from None
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, mime_type="text/plain", text=text)]
        )

    async def on_list_prompts(ctx: object, params: object) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[prompt])

    async def on_get_prompt(ctx: object, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        if params.name != PROMPT_NAME:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown prompt: {params.name}")
        raw = (params.arguments or {}).get("lines", "")
        if not str(raw).isdigit() or int(raw) < 1:
            raise MCPError(
                code=types.INVALID_PARAMS, message="Argument 'lines' must be a whole number from 1"
            )
        text = service.read(LOGICAL_ROOT + "/notes.txt", head=int(raw))
        embedded = types.EmbeddedResource(
            type="resource",
            resource=types.TextResourceContents(uri=uri_of("notes.txt"), mime_type="text/plain", text=text),
        )
        ask = types.TextContent(type="text", text=f"请用三句话概括下面这份笔记的前 {raw} 行。")
        return types.GetPromptResult(
            description=f"Summarise the first {raw} lines of notes.txt",
            messages=[
                types.PromptMessage(role="user", content=ask),
                types.PromptMessage(role="user", content=embedded),
            ],
        )

    return Server(
        name,
        version="1.0.0",
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
        on_list_resources=on_list_resources,
        on_read_resource=on_read_resource,
        on_list_prompts=on_list_prompts,
        on_get_prompt=on_get_prompt,
    )


@dataclass(frozen=True)
class Piece:
    """One piece of content on its way to the model, with where it came from."""

    origin: str  # "tool", "resource" or "prompt"
    server: str
    ref: str  # tool name, resource URI or prompt name
    text: str


def labelled(piece: Piece) -> str:
    """The text the model receives: a first line naming the origin, then the content unchanged."""
    if piece.origin not in ORIGINS:
        raise KeyError(f"unknown origin {piece.origin!r}; one of: {', '.join(ORIGINS)}")
    origin = t(f"structure.origin.{piece.origin}")
    head = t("structure.label", origin=origin, server=piece.server, ref=piece.ref)
    return f"{head}\n{piece.text}"


@dataclass
class Tour:
    """The frames and pieces of one walk over the server's three primitives (lesson 42)."""

    frames: list[JSONObject] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list)
    links: list[str] = field(default_factory=list)

    def frame(self, method: str, answer: bool = False) -> JSONObject:
        """The request frame of ``method`` (or, with ``answer``, the frame that answers it)."""
        for n, f in enumerate(self.frames):
            if f.get("method") == method:
                if not answer:
                    return f
                return next(g for g in self.frames[n:] if g.get("id") == f["id"] and "method" not in g)
        raise KeyError(f"no {method} frame")


async def atour(root: Path | None = None, lines: int = 5) -> Tour:
    """List and use each primitive once; follow the ``resource_link`` the tool returned."""
    import mcp_types as types
    from mcp import Client

    from lessons_lib.engine.wire import FramedTransport

    tour = Tour()
    server = build_structure_server(root)
    async with Client(FramedTransport(server, lambda d, f: tour.frames.append(f)), mode="legacy") as client:
        await client.list_tools()
        await client.list_resources()
        await client.list_prompts()
        listed = await client.call_tool("list_workspace", {})
        tour.links = [str(c.uri) for c in listed.content if isinstance(c, types.ResourceLink)]
        read = await client.call_tool(TOOL_NAME, {"path": LOGICAL_ROOT + "/notes.txt", "head": lines})
        tour.pieces.append(Piece("tool", SERVICE_NAME, TOOL_NAME, _text(read.content)))
        contents = (await client.read_resource(uri_of("notes.txt"))).contents
        texts = [c.text for c in contents if isinstance(c, types.TextResourceContents)]
        tour.pieces.append(Piece("resource", SERVICE_NAME, uri_of("notes.txt"), "\n".join(texts)))
        got = await client.get_prompt(PROMPT_NAME, {"lines": str(lines)})
        tour.pieces.append(
            Piece("prompt", SERVICE_NAME, PROMPT_NAME, _text([m.content for m in got.messages]))
        )
    return tour


def _text(blocks: Sequence[object]) -> str:
    """The text of text blocks and of embedded text resources, one per line."""
    import mcp_types as types

    found = []
    for block in blocks:
        if isinstance(block, types.TextContent):
            found.append(block.text)
        elif isinstance(block, types.EmbeddedResource) and isinstance(
            block.resource, types.TextResourceContents
        ):
            found.append(block.resource.text)
    return "\n".join(found)


def tour_structure(lines: int = 5) -> Tour:
    """:func:`atour` from plain code or a notebook cell (lesson 42)."""

    async def main() -> Tour:
        return await atour(None, lines)

    return run_sync(main)
