"""Validate messages against the official schemas kept in ``data/specs/`` (lessons 41 and 43).

The MCP JSON schema of each revision and the OpenAI tool declarations and feedback items
are data copied unchanged (see ``data/specs/PROVENANCE.md``); ``jsonschema`` and
``referencing`` do the validating.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Final

from lessons_lib.core.paths import DATA_DIR
from lessons_lib.core.plugins.apiregistry import api_entry, apis

if TYPE_CHECKING:
    from referencing import Registry

JSON = object  # any decoded JSON value
SPECS_DIR: Final = DATA_DIR / "specs"
MCP_REVISIONS: Final = ("2025-06-18", "2025-11-25", "2026-07-28")
_DEFS: Final = {"2025-06-18": "definitions", "2025-11-25": "$defs", "2026-07-28": "$defs"}
_REQUEST_DEFS: Final = {
    "initialize": "InitializeRequest",
    "notifications/initialized": "InitializedNotification",
    "server/discover": "DiscoverRequest",
    "tools/list": "ListToolsRequest",
    "tools/call": "CallToolRequest",
    "resources/list": "ListResourcesRequest",
    "resources/read": "ReadResourceRequest",
    "prompts/list": "ListPromptsRequest",
    "prompts/get": "GetPromptRequest",
}
_RESULT_DEFS: Final = {
    "initialize": "InitializeResult",
    "server/discover": "DiscoverResult",
    "tools/list": "ListToolsResult",
    "tools/call": "CallToolResult",
    "resources/list": "ListResourcesResult",
    "resources/read": "ReadResourceResult",
    "prompts/list": "ListPromptsResult",
    "prompts/get": "GetPromptResult",
}


@cache
def _registry() -> Registry:
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT7, DRAFT202012

    resources = []
    for revision in MCP_REVISIONS:
        doc = json.loads((SPECS_DIR / "mcp" / revision / "schema.json").read_text(encoding="utf-8"))
        spec = DRAFT7 if revision == "2025-06-18" else DRAFT202012
        resources.append((f"urn:mcp:{revision}", Resource.from_contents(doc, default_specification=spec)))
    openai = json.loads((SPECS_DIR / "openai" / "tool_components.json").read_text(encoding="utf-8"))
    resources.append(("urn:openai", Resource.from_contents(openai, default_specification=DRAFT202012)))
    return Registry().with_resources(resources)


def _errors(ref: str, instance: JSON, draft7: bool) -> list[str]:
    import jsonschema

    validator = jsonschema.Draft7Validator if draft7 else jsonschema.Draft202012Validator
    found = validator({"$ref": ref}, registry=_registry()).iter_errors(instance)
    return sorted(f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {_message(e)}" for e in found)


def _message(error: object) -> str:
    """jsonschema's message, without the instance it repeats for a failed ``anyOf``/``oneOf``."""
    validator, message = getattr(error, "validator", ""), str(getattr(error, "message", ""))
    if validator in ("anyOf", "oneOf"):
        return f"matches none of the {validator} branches"
    return message[:160]


def mcp_errors(revision: str, definition: str, instance: JSON) -> list[str]:
    """Errors of ``instance`` against one definition of an MCP revision's schema ([] = valid)."""
    if revision not in _DEFS:
        raise ValueError(f"unknown MCP revision {revision!r}; known: {', '.join(MCP_REVISIONS)}")
    return _errors(f"urn:mcp:{revision}#/{_DEFS[revision]}/{definition}", instance, revision == "2025-06-18")


def frame_errors(revision: str, frame: Mapping[str, object], method: str | None = None) -> list[str]:
    """A JSON-RPC frame checked whole (``JSONRPCMessage``) and by what it carries.

    ``method`` names the request a response answers. 2025-06-18 describes requests without
    the JSON-RPC envelope (``method`` and ``params`` only), so the envelope is dropped there.
    """
    found = mcp_errors(revision, "JSONRPCMessage", frame)
    if "method" in frame:
        name = _REQUEST_DEFS.get(str(frame["method"]))
        body = (
            {k: v for k, v in frame.items() if k in ("method", "params")}
            if revision == "2025-06-18"
            else frame
        )
        if name is None or name not in _definitions(revision):
            # a method this revision does not define: the union of its client messages says so
            union = "ClientNotification" if "id" not in frame else "ClientRequest"
            found += [f"{union}: {e}" for e in mcp_errors(revision, union, body)]
            if frame["method"] not in _methods(revision):
                found.append(f"method: {frame['method']!r} is not a method of revision {revision}")
        else:
            found += mcp_errors(revision, name, body)
    elif "result" in frame and method in _RESULT_DEFS:
        name = _RESULT_DEFS[str(method)]
        if name not in _definitions(revision):
            name = "ServerResult"  # this revision has no such result: only its union can judge
        found += [f"result/{e}" for e in mcp_errors(revision, name, frame["result"])]
    return found


@cache
def _definitions(revision: str) -> frozenset[str]:
    doc = json.loads((SPECS_DIR / "mcp" / revision / "schema.json").read_text(encoding="utf-8"))
    return frozenset(doc[_DEFS[revision]])


def openai_errors(component: str, instance: JSON) -> list[str]:
    """Errors of ``instance`` against one component of the OpenAI subset in ``data/specs``."""
    return _errors(f"urn:openai#/components/schemas/{component}", instance, False)


@cache
def _methods(revision: str) -> frozenset[str]:
    """Every ``method`` constant the revision's schema defines (requests and notifications)."""
    doc = json.loads((SPECS_DIR / "mcp" / revision / "schema.json").read_text(encoding="utf-8"))
    consts = (d.get("properties", {}).get("method", {}).get("const") for d in doc[_DEFS[revision]].values())
    return frozenset(c for c in consts if isinstance(c, str))


def tool_errors(api: str, declaration: JSON) -> list[str]:
    """Errors of one tool declaration of ``api`` against the OpenAI specification's component its
    registry entry names (``tool_schema``: Responses, Chat Completions). Lesson 41."""
    component = api_entry(api).tool_schema
    if not component:
        have = ", ".join(e.name for e in apis() if e.tool_schema)
        raise ValueError(f"no tool schema for the model API '{api}' in data/specs; there is one for {have}")
    return openai_errors(component, declaration)
