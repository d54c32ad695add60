"""Lesson 61 in one call: the OAuth flow to the file service, then the service offered wrong tokens.

Everything listens on loopback, on free ports, only while :func:`who_may_call` runs: the
authority (:class:`~lessons_lib.engine.http.authority.LocalAuthority`, consent by the course's
auto-approving stand-in for the user), the file service of lesson 03 and a second copy of it
(same tool, same scope, another URL: only the audience differs). The result holds no token, code,
port or time: lines for the sequence diagram, one row per refused token, the tool's answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from lessons_lib.engine.http.authority import LocalAuthority
from lessons_lib.engine.http.oauthclient import Hops, oauth_client, oauth_session, sequence
from lessons_lib.engine.http.serve import LoopbackServer, serving
from lessons_lib.engine.runsync import run_sync

FILES_SCOPE: Final = "files:read"
ROLES: Final = ("authorization server", "file service", "other service")


@dataclass(frozen=True)
class Refusal:
    """One wrong token offered to the file service: what it was, the HTTP status, the service's reason."""

    case: str
    status: int
    reason: str


@dataclass(frozen=True)
class WhoMayCall:
    """What lesson 61 shows: the flow's hops as lines, the tool's first line, each refusal."""

    sequence: list[str]
    answer: str
    refusals: list[Refusal]
    consents: int


WRONG_TOKENS: Final[dict[str, Callable[[LocalAuthority, str, str], str]]] = {
    "for the other service": lambda a, files, other: a.mint(other, [FILES_SCOPE]),
    "expired": lambda a, files, other: a.mint(files, [FILES_SCOPE], lifetime=-60),
    "another issuer": lambda a, files, other: a.mint(files, [FILES_SCOPE], issuer="http://127.0.0.1:9"),
    "forged signature": lambda a, files, other: LocalAuthority(a.issuer).mint(files, [FILES_SCOPE]),
    "scope missing": lambda a, files, other: a.mint(files, ["files:write"]),
}
"""Tokens the flow never hands out, made by the authority's :meth:`~LocalAuthority.mint` (or a stranger's)."""


def who_may_call(path: str = "/workspace/notes.txt") -> WhoMayCall:
    """Run lesson 61 on loopback and stop every server before returning."""
    import httpx2

    from lessons_lib.services.files.service import build_server

    auth_server, files_server, other_server = LoopbackServer(), LoopbackServer(), LoopbackServer()
    authority = LocalAuthority(auth_server.url)
    files, other = files_server.url + "/mcp", other_server.url + "/mcp"
    hops = Hops()

    async def call() -> str:
        async with oauth_session(files, oauth_client(files, hops=hops), hops) as session:
            result = await session.call_tool("read_text_file", {"path": path, "head": 1})
            return str(result.content[0].text)

    def offer(token: str) -> tuple[int, str]:
        answer = httpx2.post(files, json={}, headers={"Authorization": f"Bearer {token}"}, timeout=10)
        challenge = answer.headers.get("www-authenticate", "")
        return answer.status_code, challenge.partition('error_description="')[2].partition('"')[0]

    with serving(
        (auth_server, authority.app()),
        (files_server, authority.guard(build_server().streamable_http_app(), files, [FILES_SCOPE])),
        (other_server, authority.guard(build_server().streamable_http_app(), other, [FILES_SCOPE])),
    ):
        answer = run_sync(call)
        refusals = [
            Refusal(case, *offer(make(authority, files, other))) for case, make in WRONG_TOKENS.items()
        ]
    roles = dict(zip((_host(s.url) for s in (auth_server, files_server, other_server)), ROLES, strict=True))
    return WhoMayCall(sequence(hops, roles), answer, refusals, authority.consents)


def _host(url: str) -> str:
    return url.removeprefix("http://")
