"""Structured results: ``outputSchema`` and ``structuredContent`` beside the text (lesson 44).

``read_text_file`` declared with the reference server's ``outputSchema`` (``{"content":
string}``) answers with both a text block and ``structuredContent``. The ``mcp`` client checks
``structuredContent`` against ``outputSchema`` itself (``ClientSession.validate_tool_result``).
None of the three model APIs has a field for a JSON object in its feedback item, so the
application chooses what to pass on: :func:`feedback_per_api` (the facade's ``feedback_items``) shows
the choice per API.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from lessons_lib.core.example import EXAMPLE_PATH, TOOL_NAME
from lessons_lib.core.jsonvalue import JSONObject, objects
from lessons_lib.core.plugins.apiregistry import apis
from lessons_lib.engine.runsync import run_sync


@dataclass
class StructuredCall:
    """One ``tools/call`` of the structured ``read_text_file``: its frames and its result."""

    frames: list[JSONObject] = field(default_factory=list)
    result: JSONObject = field(default_factory=dict)
    declaration: JSONObject = field(default_factory=dict)

    @property
    def text(self) -> str:
        return _text(self.result)


def _text(result: JSONObject) -> str:
    """The ``text`` blocks of an MCP result's ``content``, joined by newlines."""
    return "\n".join(str(c["text"]) for c in objects(result.get("content", [])) if c.get("type") == "text")


async def acall_structured(head: int = 5, root: Path | None = None) -> StructuredCall:
    """List the tools and call ``read_text_file`` once on the structured server."""
    from mcp import Client

    from lessons_lib.engine.wire import FramedTransport
    from lessons_lib.examples.mcp.structure import build_structure_server

    call = StructuredCall()
    server = build_structure_server(root)
    async with Client(FramedTransport(server, lambda d, f: call.frames.append(f)), mode="legacy") as client:
        listed = await client.list_tools()
        tool = next(t for t in listed.tools if t.name == TOOL_NAME)
        call.declaration = tool.model_dump(by_alias=True, mode="json", exclude_none=True)
        await client.call_tool(TOOL_NAME, {"path": EXAMPLE_PATH, "head": head})
    result = call.frames[-1].get("result")
    call.result = result if isinstance(result, dict) else {}
    return call


def call_structured(head: int = 5) -> StructuredCall:
    """:func:`acall_structured` from plain code or a notebook cell (lesson 44)."""

    async def main() -> StructuredCall:
        return await acall_structured(head)

    return run_sync(main)


def feedback_per_api(
    result: JSONObject, call_ids: dict[str, str] | None = None, *, pass_structured: bool = False
) -> dict[str, JSONObject]:
    """What the application sends back to each model API for one MCP result (lesson 44).

    By default the text block goes on, as in part one. With ``pass_structured`` the JSON text
    of ``structuredContent`` goes on instead: the model then reads named fields. Responses and
    Anthropic also accept an array of content parts/blocks (text, images, files) where this
    sends one string, but none of the three has a field for a JSON object: ``structuredContent``
    itself has no place in any of them.
    """
    text = _text(result)
    if pass_structured and result.get("structuredContent") is not None:
        text = json.dumps(result["structuredContent"], ensure_ascii=False)
    failed = bool(result.get("isError"))
    entries = apis()  # each API's own feedback item (its entry's ``shapes.reply``), in the registry's order
    ids = call_ids if call_ids is not None else {e.name: e.first_call_id for e in entries}
    return {e.name: e.shapes.reply(ids[e.name], text, failed) for e in entries if e.name in ids}
