"""Which fields an official schema gives an object, read from the copies in ``data/specs/``.

Introduced in lesson 05: where the fact of a failure lives. MCP's ``CallToolResult`` has an
``isError`` field; the OpenAI Responses ``function_call_output`` item has none, so the
application must carry a failure inside the ``output`` text (this course's ``ERROR: ``
prefix is its own convention, not the API's). Standard library only: the schemas are data.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Final

from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.paths import DATA_DIR

MCP_REVISION: Final = "2025-06-18"
"""The revision the course's frames follow (the source lesson's reference)."""


@cache
def _document(source: str, revision: str) -> JSONObject:
    if source == "openai":
        path = DATA_DIR / "specs" / "openai" / "tool_components.json"
    elif source == "mcp":
        path = DATA_DIR / "specs" / "mcp" / revision / "schema.json"
    else:
        raise ValueError(f"source must be 'mcp' or 'openai', got {source!r}")
    if not path.is_file():
        raise ValueError(f"no schema for MCP revision {revision!r} in data/specs/mcp")
    data = json.loads(path.read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


def spec_definition(source: str, definition: str, revision: str = MCP_REVISION) -> JSONObject:
    """The whole ``definition`` of the official ``source`` schema, as JSON data (lesson 06).

    ``spec_definition("openai", "FunctionTool")["required"]`` lists what a top-level function
    tool must carry; ``spec_definition("mcp", "Tool", "2025-06-18")`` is one MCP revision's tool
    declaration. An unknown definition is a one-line ValueError.
    """
    doc = _document(source, revision)
    components = doc.get("components")
    defs = components.get("schemas") if isinstance(components, dict) else None
    if defs is None:
        defs = doc.get("definitions", doc.get("$defs"))
    schema = defs.get(definition) if isinstance(defs, dict) else None
    if not isinstance(schema, dict):
        raise ValueError(f"the {source} schema has no definition {definition!r}")
    return schema


def spec_fields(source: str, definition: str, revision: str = MCP_REVISION) -> list[str]:
    """The property names of ``definition`` in the official ``source`` schema, in its order (lesson 05).

    ``spec_fields("openai", "FunctionCallOutputItemParam")`` and
    ``spec_fields("mcp", "CallToolResult")``; an unknown definition is a one-line ValueError.
    """
    properties = spec_definition(source, definition, revision).get("properties")
    return list(properties) if isinstance(properties, dict) else []
