"""The order API as an MCP server, generated from the same OpenAPI document (lesson 40).

Each operation becomes an MCP tool (``inputSchema`` = the converter's ``parameters``,
``outputSchema`` = the success response's schema); ``tools/call`` goes through the same
:class:`~lessons_lib.examples.openapi.router.OpenAPIRouter` to the HTTP API. The bearer token
lives in the server's call layer: an MCP client (and the model behind it) never sees it.
A success carries ``structuredContent`` beside its text block; a failure is ``isError``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lessons_lib.core.echo import short
from lessons_lib.examples.openapi.router import OpenAPIRouter

if TYPE_CHECKING:
    from mcp.server import Server


def build_openapi_server(router: OpenAPIRouter, name: str = "orders") -> Server:
    """A low-level MCP server whose tools are the router's operations (lesson 40)."""
    import mcp_types as types
    from mcp.server import Server
    from mcp.shared.exceptions import MCPError

    tools = [
        types.Tool(
            name=op.name,
            description=op.description,
            input_schema=op.parameters,
            output_schema=op.output_schema if (op.output_schema or {}).get("type") == "object" else None,
            annotations=types.ToolAnnotations(read_only_hint=op.method == "GET", open_world_hint=False),
        )
        for op in router.operations.values()
    ]

    async def on_list_tools(ctx: object, params: object) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def on_call_tool(ctx: object, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in router.operations:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {short(params.name)}")
        try:
            routed = await router.call(params.name, dict(params.arguments or {}))
        except Exception as exc:  # an HTTP failure must not leak as a JSON-RPC error message
            import httpx2

            reached = not isinstance(exc, httpx2.TransportError)
            text = (
                f"the call to the order API failed ({type(exc).__name__}); nothing more is known"
                if reached
                else f"the order API could not be reached ({type(exc).__name__})"
            )
            is_error, structured = True, None
        else:
            text, is_error, structured = routed.text, routed.is_error, routed.structured
        result = types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=is_error)
        if structured is not None and not is_error and isinstance(structured, dict):
            result.structured_content = structured
        return result

    return Server(name, version="1.0.0", on_list_tools=on_list_tools, on_call_tool=on_call_tool)
