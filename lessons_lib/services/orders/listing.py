"""The order desk's tools as the MCP SDK's ``types.Tool`` objects: one builder for every server
that lists them (the desk's own server, lesson 30; the changing tool list of lesson 50)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import mcp_types as types

    from lessons_lib.services.orders.tools import JSONDict


def listed_tools(declarations: Iterable[JSONDict], output_schema: bool = True) -> list[types.Tool]:
    """One ``types.Tool`` per desk declaration (name, title, description, rules, hints).

    ``output_schema=False`` leaves ``outputSchema`` out, for a server whose results carry no
    ``structuredContent`` (a client checks a result against a declared output schema).
    """
    import mcp_types as types

    return [
        types.Tool(
            name=t["name"],
            title=t["title"],
            description=t["description"],
            input_schema=t["input"],
            **({"output_schema": t["output"]} if output_schema else {}),
            annotations=types.ToolAnnotations(title=t["title"], **t["hints"]),
        )
        for t in declarations
    ]
