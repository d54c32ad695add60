"""Loopback servers for the OAuth tests: the authority, the file service behind it (lesson 61).

Real uvicorn servers on 127.0.0.1, free ports, stopped at the end of the module that starts them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx2
from _engine_support import INITIALIZE, MCP_HEADERS

from lessons_lib.engine.http.authority import LocalAuthority
from lessons_lib.engine.http.serve import LoopbackServer, serving

FILES_SCOPE = "files:read"


@dataclass
class World:
    """The authorization server and one protected MCP service, both listening."""

    authority: LocalAuthority
    issuer: str
    files: str
    """The file service's MCP endpoint, also its resource URL (the tokens' audience)."""
    twin: str
    """A second copy of the file service, same scope, its own URL: only the audience differs."""


def file_service_app() -> Any:
    """The course's file service (lesson 03) as an MCP Streamable HTTP app, from the SDK."""
    from lessons_lib.services.files.service import build_server

    return build_server().streamable_http_app()


def guarded_file_service(authority: LocalAuthority, url: str) -> Any:
    """The file service at ``url`` as a protected resource of ``authority``."""
    return authority.guard(file_service_app(), url, [FILES_SCOPE], name="file service")


@contextlib.contextmanager
def loopback_world(**authority_options: Any) -> Iterator[World]:
    auth_server, files_server, twin_server = LoopbackServer(), LoopbackServer(), LoopbackServer()
    authority = LocalAuthority(auth_server.url, **authority_options)
    files, twin = files_server.url + "/mcp", twin_server.url + "/mcp"
    with serving(
        (auth_server, authority.app()),
        (files_server, guarded_file_service(authority, files)),
        (twin_server, guarded_file_service(authority, twin)),
    ):
        yield World(authority, authority.issuer, files, twin)


def post(url: str, token: str | None = None) -> httpx2.Response:
    """One bare ``initialize`` POST to ``url`` with ``token`` as bearer (no SDK client, no flow)."""
    headers = dict(MCP_HEADERS)
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return httpx2.post(url, json=INITIALIZE, headers=headers, timeout=10)


def read_notes(url: str, auth: httpx2.Auth, hops: Any = None) -> Any:
    """One real ``tools/call`` of ``read_text_file`` over Streamable HTTP, authorised by ``auth``."""
    import anyio

    from lessons_lib.engine.http.oauthclient import oauth_session

    async def main() -> Any:
        async with oauth_session(url, auth, hops) as session:
            return await session.call_tool("read_text_file", {"path": "/workspace/notes.txt", "head": 2})

    return anyio.run(main)
