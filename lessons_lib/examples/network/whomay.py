"""Lesson 61's pictures: the OAuth flow as a sequence diagram, and a scope step-up run on loopback.

The runs themselves are :func:`lessons_lib.examples.network.whomaycall.who_may_call` and
:func:`lessons_lib.examples.openapi.protected.no_passthrough`; :func:`step_up` adds the third:
the file service needs ``files:list`` for everything and ``files:read`` for ``read_text_file``,
the course's client starts with ``files:list`` only and the SDK's client steps up on the 403.
Nothing returned holds a token, code, port or time.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from lessons_lib.core.messages import t
from lessons_lib.views.dot import Diagram, box, chain, digraph, same_rank

LIST_SCOPE: Final = "files:list"
READ_SCOPE: Final = "files:read"
CLIENT: Final = "client"
LINE: Final = re.compile(r"^(?P<role>[^:]+): (?P<method>[A-Z]+) (?P<path>.+) -> (?P<status>\d+)$")


def _path(path: str) -> tuple[str, str]:
    """A hop's path for a diagram and the query's named values (the elided ones dropped)."""
    base, _, query = path.partition("?")
    kept = [p.replace("%20", " ") for p in query.split("&") if p and not p.endswith("=…")]
    return base, "&".join(kept)


def until_first_answer(lines: Sequence[str], service: str = "file service") -> list[str]:
    """The flow up to the service's first 200 after the token: what follows is the MCP session."""
    token_seen = False
    for n, line in enumerate(lines):
        token_seen = token_seen or "POST /token -> 200" in line
        if token_seen and line.startswith(f"{service}: POST /mcp -> 200"):
            return list(lines[: n + 1])
    return list(lines)


def flow_diagram(lines: Sequence[str], roles: Sequence[str]) -> Diagram:
    """A sequence diagram of hops (``role: METHOD path -> status``): the client's lane, then ``roles``.

    Each hop is one arrow from the client to its server, labelled with the method, the path and
    the answer's status.
    """
    lanes = [CLIENT, *roles]
    names = {CLIENT: t("l60.flow.client")} | {r: t(f"l60.role.{r}") for r in roles}
    g = digraph("oauth", rankdir="TB", nodesep="0.1", ranksep="0.2", splines="line")
    heads = [f"h{j}" for j in range(len(lanes))]
    for j, lane in enumerate(lanes):
        box(g, heads[j], names[lane], fillcolor="#F2F2F2")
    same_rank(g, heads)
    chain(g, heads, style="invis")
    rows = []
    for i, line in enumerate(lines):
        found = LINE.match(line)
        if not found:
            continue
        target = lanes.index(found["role"]) if found["role"] in lanes else len(lanes) - 1
        points = [f"p{i}_{j}" for j in range(len(lanes))]
        for p in points:
            g.node(p, "", shape="point", width="0.03", color="#999999")
        base, query = _path(found["path"])
        label = f"{i + 1}. {found['method']} {base} → {found['status']}" + (f"\n{query}" if query else "")
        colour = "#882255" if found["status"].startswith("4") else "#44AA99"
        g.edge(points[0], points[target], label=label, fontsize="9", color=colour, fontcolor=colour)
        same_rank(g, points)
        chain(g, points, style="invis")
        rows.append(points)
    for j in range(len(lanes)):
        chain(
            g,
            [heads[j], *(r[j] for r in rows)],
            arrowhead="none",
            style="dashed",
            color="#BBBBBB",
            weight="100",
        )
    text = "\n".join(f"{i + 1}. {line}" for i, line in enumerate(lines))
    return Diagram("oauth", g.source, t("l60.flow.caption") + text)


def step_up(path: str = "/workspace/notes.txt") -> tuple[list[str], str]:
    """The client asks for ``files:list`` only; ``read_text_file`` needs ``files:read``: 403, then step-up.

    Returns the hops as lines (no port, token or code) and the tool's first line.
    """
    from lessons_lib.engine.http.authority import LocalAuthority
    from lessons_lib.engine.http.oauthclient import Hops, oauth_client, oauth_session, sequence
    from lessons_lib.engine.http.serve import LoopbackServer, serving
    from lessons_lib.engine.runsync import run_sync
    from lessons_lib.services.files.service import build_server

    auth_server, files_server = LoopbackServer(), LoopbackServer()
    authority = LocalAuthority(auth_server.url)
    files = files_server.url + "/mcp"
    hops = Hops()
    app = authority.guard(
        build_server().streamable_http_app(), files, [LIST_SCOPE], tool_scopes={"read_text_file": READ_SCOPE}
    )

    async def call() -> str:
        client = oauth_client(files, hops=hops, scope=LIST_SCOPE)
        async with oauth_session(files, client, hops) as session:
            await session.list_tools()
            result = await session.call_tool("read_text_file", {"path": path, "head": 1})
            return str(result.content[0].text)

    with serving((auth_server, authority.app()), (files_server, app)):
        answer = run_sync(call)
    roles = {
        s.url.removeprefix("http://"): r
        for s, r in ((auth_server, "authorization server"), (files_server, "file service"))
    }
    lines = [line for line in sequence(hops, roles) if " /mcp -> 20" not in line or "POST" in line]
    return lines, answer
