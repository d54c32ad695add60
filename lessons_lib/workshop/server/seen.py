"""What lesson 12's grader saw of a ``search_notes`` server, and how an expectation reads it.

Introduced in lesson 12. :class:`Seen` holds the reply frames the grader collected, the stray
stdout lines and stderr; the readers here (:func:`result_of`, :func:`success_of`,
:func:`failure_of`, :func:`same_matches`) raise :class:`Broken` with one sentence when a reply is
not what a correct server sends. The expectations themselves are in
:mod:`lessons_lib.workshop.server.judges`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeAlias

from lessons_lib.core.messages import t
from lessons_lib.workshop.server.cases import SHAPE, TOOL, Hidden, invalid, json_equal, text_of

Frame: TypeAlias = "dict[str, Any]"
"""A reply frame as it came off the wire: any JSON, read defensively."""


@dataclass
class Seen:
    """What the grader saw: reply frames by request key, stray stdout lines, stderr."""

    hidden: Hidden
    replies: dict[str, Frame] = field(default_factory=dict)
    stray: list[str] = field(default_factory=list)
    stderr: str = ""
    failed_start: str | None = None
    stuck: str | None = None
    """Set when the server did not stop after a request went unanswered (a tool that never returns)."""
    progress: float = 0.0
    """When the grader last sent a request or got a reply (``time.monotonic``); 0 before it starts."""
    asking: str | None = None
    """The key of the request being sent."""
    machine_paths: tuple[str, ...] = ()
    """Real paths of the grading machine no reply may show (the server's own file, its folder...)."""

    def reply(self, key: str) -> Frame:
        return self.replies.get(key, {"lost": "not sent: the connection was lost before this request"})


class Broken(Exception):
    """An expectation that does not hold; the message says what the grader saw."""


def result_of(seen: Seen, key: str, what: str) -> Frame:
    """The ``result`` of a reply; Broken if it was lost or is a JSON-RPC error."""
    reply = seen.reply(key)
    if "lost" in reply:
        raise Broken(t("server_judges.result.1", what=what, lost=reply["lost"]))
    if "error" in reply:
        error = reply["error"]
        raise Broken(
            t("server_judges.result.2", what=what, value=error.get("code"), value2=error.get("message"))
        )
    result = reply.get("result")
    if not isinstance(result, dict):
        raise Broken(t("server_judges.result.3", what=what))
    return result


def success_of(seen: Seen, key: str, what: str) -> Frame:
    """The ``structuredContent`` of a successful call, checked against both schemas."""
    result = result_of(seen, key, what)
    if result.get("isError"):
        raise Broken(t("server_judges.success.1", what=what, result=text_of(result)[:160]))
    data = result.get("structuredContent")
    if not isinstance(data, dict):
        raise Broken(t("server_judges.success.2", what=what))
    for schema, whose in (
        (declared_of(seen).get("outputSchema"), t("server_judges.success.3")),
        (SHAPE, t("server_judges.success.4")),
    ):
        problem = invalid(data, schema)
        if problem:
            raise Broken(t("server_judges.success.6", what=what, whose=whose, problem=problem))
    texts = [
        b.get("text") for b in result.get("content", []) if isinstance(b, dict) and b.get("type") == "text"
    ]
    if not any(json_equal(text, data) for text in texts):
        raise Broken(t("server_judges.success.5", what=what))
    return data


def declared_of(seen: Seen) -> Frame:
    tools = result_of(seen, "list", "tools/list").get("tools")
    found = (
        [d for d in tools if isinstance(d, dict) and d.get("name") == TOOL] if isinstance(tools, list) else []
    )
    if not found:
        raise Broken(t("server_judges.declared.1", TOOL=TOOL))
    return found[0]


def match_key(match: object) -> tuple[str, int, str]:
    """A match as ``(path, line, text)``, so that two lists of matches compare as sets."""
    m = match if isinstance(match, dict) else {}
    return (str(m.get("path")), int(m.get("line", 0) or 0), str(m.get("text")))


def same_matches(data: Frame, expected: list[Frame], what: str, truncated: bool = False) -> None:
    got = sorted(map(match_key, data["matches"]))
    want = sorted(map(match_key, expected))
    if got != want:
        extra = [g for g in got if g not in want][:1]
        missing = [w for w in want if w not in got][:1]
        detail = (
            t("server_judges.same_matches.1", extra=extra[0])
            if extra
            else t("server_judges.same_matches.4", missing=missing[0])
            if missing
            else t("server_judges.same_matches.5")
        )
        raise Broken(
            t("server_judges.same_matches.2", what=what, want=len(want), got=len(got), detail=detail)
        )
    if data["truncated"] is not truncated:
        raise Broken(t("server_judges.same_matches.3", what=what, lower=str(truncated).lower()))


def failure_of(seen: Seen, key: str, what: str) -> str:
    """The message of a call that must fail as a tool execution error (``isError: true``)."""
    result = result_of(seen, key, what)
    if not result.get("isError"):
        raise Broken(t("server_judges.failure.1", what=what, result=text_of(result)[:120]))
    return text_of(result)
