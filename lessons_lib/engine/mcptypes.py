"""Check a resource or a prompt template the way the ``mcp`` SDK reads it (lesson 42's exercise).

The SDK's own pydantic types (``mcp.types.Resource``, ``mcp.types.Prompt``) are the check: no
hand-written rules. SDK imports live in ``engine/``, so the course's checker asks here.
"""

from __future__ import annotations


def mcp_type_error(kind: str, value: object) -> str | None:
    """None when ``value`` is a valid ``mcp.types.<kind>``; else its first problem, in one line."""
    from mcp import types
    from pydantic import ValidationError

    try:
        if kind == "Resource":
            types.Resource.model_validate(value)
        else:
            types.Prompt.model_validate(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        return f"{'.'.join(map(str, first['loc']))} {first['msg']}"
    return None
