"""Loopback servers for the OAuth tests: the authority, the file service behind it (lesson 61).

Real uvicorn servers on 127.0.0.1, free ports, stopped at the end of the module that starts them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx2

from lessons_lib.engine.httpauth import LocalAuthority, LoopbackServer, protect, serving

FILES_SCOPE = "files:read"


@dataclass
class World:
    """The authorization server and one protected MCP service, both listening."""

    authority: LocalAuthority
    issuer: str
    files: str
    """The file service's MCP endpoint, also its resource URL (the tokens' audience)."""


def file_service_app() -> Any:
    """The course's file service (lesson 03) as an MCP Streamable HTTP app, from the SDK."""
    from lessons_lib.engine.fileservice import build_server

    return build_server().streamable_http_app()


@contextlib.contextmanager
def loopback_world(**authority_options: Any) -> Iterator[World]:
    auth_server, files_server = LoopbackServer(), LoopbackServer()
    authority = LocalAuthority(auth_server.url, **authority_options)
    files = files_server.url + "/mcp"
    authority.add_resource(files, [FILES_SCOPE])
    guarded = protect(
        file_service_app(),
        resource_url=files,
        issuer=authority.issuer,
        verifier=authority.verifier(files),
        scopes=[FILES_SCOPE],
        name="file service",
    )
    with serving((auth_server, authority.app()), (files_server, guarded)):
        yield World(authority, authority.issuer, files)


MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
PING = {"jsonrpc": "2.0", "id": 1, "method": "ping"}


def post(url: str, token: str | None = None) -> httpx2.Response:
    """One bare JSON-RPC POST to ``url`` with ``token`` as bearer (no SDK client, no flow)."""
    headers = dict(MCP_HEADERS)
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return httpx2.post(url, json=PING, headers=headers, timeout=10)
