"""The course's MCP client as the conformance suite's client under test. Lesson 62.

``python -m lessons_lib.engine.http.conformance_client URL``: the suite (``conformance client --command
CMD``) starts a scenario's server and runs CMD with that server's URL as the last argument, the
scenario in ``MCP_CONFORMANCE_SCENARIO``, the revision in ``MCP_CONFORMANCE_PROTOCOL_VERSION`` and,
for some scenarios, data in ``MCP_CONFORMANCE_CONTEXT`` (a JSON object: pre-registered client
credentials). The client is the course's own: the SDK's ``Client`` over
:class:`~lessons_lib.engine.http.client.HttpFramedTransport` (the transport of ``run --mcp-url``),
authorised by :func:`~lessons_lib.engine.http.oauthclient.oauth_client` (the flow of ``--mcp-oauth``, the
consent played by the course's stand-in). It does what an application does: connect, list the
tools, call each with arguments made from its input schema. No scenario is special-cased: what it
cannot pass is in ``data/conformance/client-expected-failures.yaml`` with the reason.
Exit 0 when the session ran, 1 with one line on stderr when it failed.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

import anyio

from lessons_lib.core.jsonvalue import JSON, JSONObject

if TYPE_CHECKING:
    from mcp.client.auth import OAuthClientProvider

REVISIONS = {"2026-07-28": "2026-07-28"}
"""The suite's revision -> the SDK client's mode; any other revision is the session one (``legacy``)."""


def example_value(schema: JSON) -> JSON:
    """A value that fits a JSON Schema's declared type (the first enum member when it lists some)."""
    if not isinstance(schema, dict):
        return None
    members = schema.get("enum")
    if isinstance(members, list) and members:
        return members[0]
    if "default" in schema:
        return schema["default"]
    kind = schema.get("type")
    kind = kind[0] if isinstance(kind, list) and kind else kind
    values: dict[str, JSON] = {"number": 1, "integer": 1, "boolean": True, "array": [], "null": None}
    if kind == "object":
        return arguments_for(schema)
    return values.get(str(kind), "x")


def arguments_for(schema: JSONObject) -> JSONObject:
    """Arguments for a tool: a value for each required property."""
    properties = schema.get("properties")
    required = schema.get("required")
    if not isinstance(properties, dict) or not isinstance(required, list):
        return {}
    return {str(name): example_value(properties.get(str(name))) for name in required}


async def _auth(url: str, context: JSONObject) -> OAuthClientProvider:
    """The course's OAuth client; with pre-registered credentials in the context, as that client
    (stored before the flow starts, so it registers nothing; a secret goes in HTTP Basic)."""
    from mcp.shared.auth import OAuthClientInformationFull
    from pydantic import AnyUrl

    from lessons_lib.engine.http.oauthclient import REDIRECT_URI, oauth_client

    provider = oauth_client(url)
    if isinstance(context.get("client_id"), str):
        secret = context.get("client_secret")
        await provider.context.storage.set_client_info(
            OAuthClientInformationFull(
                client_id=str(context["client_id"]),
                client_secret=secret if isinstance(secret, str) else None,
                redirect_uris=[AnyUrl(REDIRECT_URI)],
                token_endpoint_auth_method="client_secret_basic" if secret else "none",
            )
        )
    return provider


async def session(url: str, revision: str, context: JSONObject) -> list[str]:
    """Connect to ``url`` as the course's client, list and call every tool; the tool names called."""
    from mcp import Client

    from lessons_lib.engine.http.client import HttpFramedTransport

    transport = HttpFramedTransport(url, lambda direction, frame: None, auth=await _auth(url, context))
    called: list[str] = []
    with anyio.fail_after(25):
        async with Client(transport, mode=REVISIONS.get(revision, "legacy")) as client:
            for tool in (await client.list_tools()).tools:
                await client.call_tool(tool.name, arguments_for(dict(tool.input_schema or {})))
                called.append(tool.name)
    return called


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("conformance client: give the server's URL", file=sys.stderr)
        return 2
    revision = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION", "2025-11-25")
    try:
        context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT", "{}"))
        called = anyio.run(session, args[-1], revision, context if isinstance(context, dict) else {})
    except Exception as exc:  # noqa: BLE001  (the suite reads the exit code; one line says why)
        from lessons_lib.engine.http.secretfilter import redact_secrets

        print(f"conformance client: {type(exc).__name__}: {redact_secrets(str(exc))}"[:300], file=sys.stderr)
        return 1
    print(f"conformance client: called {', '.join(called) or 'no tool'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
