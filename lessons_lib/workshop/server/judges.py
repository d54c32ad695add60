"""What lesson 12's grader expects of a ``search_notes`` server, one expectation at a time.

Introduced in lesson 12. Each expectation reads the reply frames the grader collected
(:class:`Seen`) and returns None when it holds, or one sentence that says what broke. They run in
the order of :data:`EXPECTATIONS`, so the verdict names the *first* broken one. Verdicts come from
behaviour on the wire: any correct style passes (high-level ``MCPServer`` or low-level
``Server``, any wording of an error message that names the field).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, TypeAlias

from lessons_lib.core.messages import t
from lessons_lib.workshop.server.cases import (
    BAD_FIELDS,
    BIG,
    DIARY,
    EDGE,
    GINKGO,
    KIWI,
    KIWI_FILES,
    MAX_REPLY_BYTES,
    PLAN,
    SCHEMA_ACCEPTS,
    SCHEMA_REJECTS,
    SECRET,
    SHAPE,
    TAIL,
    TODO,
    TOOL,
    WIDE,
    WIDE_WORD,
    Hidden,
    invalid,
    json_equal,
    text_of,
)

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


def _result(seen: Seen, key: str, what: str) -> Frame:
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


def _success(seen: Seen, key: str, what: str) -> Frame:
    """The ``structuredContent`` of a successful call, checked against both schemas."""
    result = _result(seen, key, what)
    if result.get("isError"):
        raise Broken(t("server_judges.success.1", what=what, result=text_of(result)[:160]))
    data = result.get("structuredContent")
    if not isinstance(data, dict):
        raise Broken(t("server_judges.success.2", what=what))
    for schema, whose in (
        (_declared(seen).get("outputSchema"), t("server_judges.success.3")),
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


def _declared(seen: Seen) -> Frame:
    tools = _result(seen, "list", "tools/list").get("tools")
    found = (
        [d for d in tools if isinstance(d, dict) and d.get("name") == TOOL] if isinstance(tools, list) else []
    )
    if not found:
        raise Broken(t("server_judges.declared.1", TOOL=TOOL))
    return found[0]


def _key(match: object) -> tuple[str, int, str]:
    m = match if isinstance(match, dict) else {}
    return (str(m.get("path")), int(m.get("line", 0) or 0), str(m.get("text")))


def _same_matches(data: Frame, expected: list[Frame], what: str, truncated: bool = False) -> None:
    got = sorted(map(_key, data["matches"]))
    want = sorted(map(_key, expected))
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


def _failure(seen: Seen, key: str, what: str) -> str:
    """The message of a call that must fail as a tool execution error (``isError: true``)."""
    result = _result(seen, key, what)
    if not result.get("isError"):
        raise Broken(t("server_judges.failure.1", what=what, result=text_of(result)[:120]))
    return text_of(result)


# --- the expectations, in order ---------------------------------------------------------------


def stdout_clean(seen: Seen) -> None:
    if seen.stray:
        raise Broken(t("server_judges.stdout_clean.1", stray=len(seen.stray), stray2=seen.stray[0]))


def starts(seen: Seen) -> None:
    if seen.failed_start:
        raise Broken(t("server_judges.starts.1", failed_start=seen.failed_start))
    if "lost" in seen.reply("list"):
        raise Broken(t("server_judges.starts.2", lost=seen.reply("list")["lost"]))


def listed(seen: Seen) -> None:
    tool = _declared(seen)
    if not str(tool.get("description") or "").strip():
        raise Broken(t("server_judges.listed.1"))


def input_schema(seen: Seen) -> None:
    schema = _declared(seen).get("inputSchema")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        raise Broken(t("server_judges.input_schema.1"))
    for ok in SCHEMA_ACCEPTS:
        problem = invalid(ok, schema)
        if problem:
            raise Broken(
                t("server_judges.input_schema.2", ok=json.dumps(ok, ensure_ascii=False), problem=problem)
            )
    for bad, why in SCHEMA_REJECTS:
        if invalid(bad, schema) is None:
            raise Broken(
                t("server_judges.input_schema.3", bad=json.dumps(bad, ensure_ascii=False), why=t(why))
            )


def output_schema(seen: Seen) -> None:
    schema = _declared(seen).get("outputSchema")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        raise Broken(t("server_judges.output_schema.1"))


def finds(seen: Seen) -> None:
    data = _success(seen, "finds", t("server_judges.finds.1"))
    _same_matches(data, seen.hidden.expected("deadline", (PLAN, TODO)), t("server_judges.finds.2"))


def non_ascii(seen: Seen) -> None:
    data = _success(seen, "non_ascii", t("server_judges.non_ascii.1"))
    _same_matches(data, seen.hidden.expected(GINKGO, (DIARY,)), t("server_judges.non_ascii.2"))


def folder(seen: Seen) -> None:
    data = _success(seen, "folder", t("server_judges.folder.1"))
    _same_matches(data, seen.hidden.expected("deadline", (TODO,)), t("server_judges.folder.2"))


def file_path(seen: Seen) -> None:
    data = _success(seen, "file_path", t("graders.server.file_path.1", PLAN=PLAN))
    _same_matches(data, seen.hidden.expected("deadline", (PLAN,)), t("graders.server.file_path.1", PLAN=PLAN))


def limit(seen: Seen) -> None:
    every = {_key(m) for m in seen.hidden.expected("TODO", (TODO,))}
    for key, n, what in (
        ("limit_3", 3, t("server_judges.limit.1")),
        ("limit_default", 5, t("server_judges.limit.2")),
    ):
        data = _success(seen, key, t("server_judges.limit.3", what=what))
        got = [_key(m) for m in data["matches"]]
        if len(got) != n or len(set(got)) != n or not set(got) <= every:
            raise Broken(t("server_judges.limit.4", what=what, n=n, got=len(got)))
        if data["truncated"] is not True:
            raise Broken(t("server_judges.limit.5", what=what))
    kiwi = {_key(m) for m in seen.hidden.expected(KIWI, KIWI_FILES)}
    for key, n, more in (("limit_across", 4, True), ("limit_exact", 8, False), ("limit_later", 3, True)):
        what = t(f"graders.server.{key}", n=n, all=len(kiwi))
        data = _success(seen, key, what)
        got = [_key(m) for m in data["matches"]]
        if len(got) != n or len(set(got)) != n or not set(got) <= kiwi:
            raise Broken(t("graders.server.limit.count", what=what, n=n, got=len(got)))
        if data["truncated"] is not more:
            raise Broken(t("graders.server.limit.truncated", what=what, flag=str(more).lower()))


def _exact(seen: Seen, key: str, query: str, rel: str) -> None:
    """The reply to ``key`` holds exactly the lines of ``rel`` that contain ``query`` as plain text."""
    what = t("graders.server.search", query=query, rel=rel)
    _same_matches(_success(seen, key, what), seen.hidden.expected(query, (rel,)), what)


def literal(seen: Seen) -> None:
    _exact(seen, "literal_dot", "Q.Z", EDGE)
    _exact(seen, "literal_bracket", "f(K", EDGE)


def per_line(seen: Seen) -> None:
    _exact(seen, "per_line", "DUO", EDGE)


def last_line(seen: Seen) -> None:
    _exact(seen, "last_line", "TAILWORD", TAIL)


def characters(seen: Seen) -> None:
    _exact(seen, "characters", WIDE_WORD, WIDE)


def bad_arguments(seen: Seen) -> None:
    for key, (name, what_key) in BAD_FIELDS.items():
        what = t(what_key)
        message = _failure(seen, key, t("server_judges.bad_arguments.1", what=what))
        if name not in message:
            raise Broken(t("server_judges.bad_arguments.2", what=what, name=name, message=message[:120]))


def outside_root(seen: Seen) -> None:
    keys = [k for k in seen.replies if k.startswith("out_")] or ["out_dotdot"]
    for key in keys:
        reply = json.dumps(seen.reply(key), ensure_ascii=False)
        if SECRET in reply:
            raise Broken(t("server_judges.outside_root.1", the_key=key))
        if key != "out_link_walk":
            _failure(seen, key, t("server_judges.outside_root.2", the_key=key))


def missing_path(seen: Seen) -> None:
    _failure(seen, "missing", t("server_judges.missing_path.1"))


def big_file(seen: Seen) -> None:
    for key, query in (("big_bulk", "BULK"), ("big_line", "HUGE")):
        size = len(json.dumps(seen.reply(key), ensure_ascii=False).encode("utf-8"))
        if size > MAX_REPLY_BYTES:
            raise Broken(
                t(
                    "server_judges.big_file.2",
                    BIG=BIG,
                    query=query,
                    size=size,
                    MAX_REPLY_BYTES=MAX_REPLY_BYTES,
                )
            )
        data = _success(seen, key, t("server_judges.big_file.1", BIG=BIG, query=query))
        if key == "big_bulk" and (len(data["matches"]) != 20 or data["truncated"] is not True):
            raise Broken(t("server_judges.big_file.3"))


def binary_file(seen: Seen) -> None:
    data = _success(seen, "binary", t("server_judges.binary_file.1"))
    if data["matches"]:
        raise Broken(t("server_judges.binary_file.2"))


def unknown_tool(seen: Seen) -> None:
    reply = seen.reply("unknown")
    if "lost" in reply:
        raise Broken(t("server_judges.unknown_tool.2", lost=reply["lost"]))
    if "error" in reply:
        message = str(reply["error"].get("message", ""))
    else:
        message = _failure(seen, "unknown", t("server_judges.unknown_tool.3"))
    if "delete_notes" not in message:
        raise Broken(t("server_judges.unknown_tool.4", message=message[:120]))
    _success(seen, "after", t("server_judges.unknown_tool.1"))


TRACEBACK: Final = re.compile(r'Traceback \(most recent call last\)|File "[^"]+", line \d+')
"""A Python traceback: it names the server's own files on the machine, whoever wrote the message."""


def no_machine_path(seen: Seen) -> None:
    real = {str(seen.hidden.base), str(seen.hidden.base.resolve()), *seen.machine_paths}
    for key, reply in seen.replies.items():
        text = json.dumps(reply, ensure_ascii=False).replace("\\\\", "\\")
        if any(r in text for r in real if r):
            raise Broken(t("server_judges.no_machine_path.1", the_key=key))
        if TRACEBACK.search(text):
            raise Broken(t("graders.server.traceback", the_key=key))


def responds(seen: Seen) -> None:
    if seen.stuck:
        raise Broken(seen.stuck)


@dataclass(frozen=True)
class Expectation:
    """One thing a correct server does, what it is called, and where to look when it fails."""

    key: str
    judge: Callable[[Seen], None]
    prefix: str = "server_judges"
    """Where its title and hint live in the catalogue (later expectations: ``graders.server``)."""

    @property
    def title(self) -> str:
        """What the expectation is called, in the current language."""
        return t(f"{self.prefix}.{self.key}.title")

    @property
    def hint(self) -> str:
        """Where to look when it fails, in the current language."""
        return t(f"{self.prefix}.{self.key}.hint")

    def check(self, seen: Seen) -> str | None:
        try:
            self.judge(seen)
        except Broken as broken:
            return str(broken)
        return None


EXPECTATIONS: Final = (
    Expectation("stdout", stdout_clean),
    Expectation("responds", responds, "graders.server"),
    Expectation("start", starts),
    Expectation("listed", listed),
    Expectation("input_schema", input_schema),
    Expectation("output_schema", output_schema),
    Expectation("finds", finds),
    Expectation("non_ascii", non_ascii),
    Expectation("folder", folder),
    Expectation("file_path", file_path, "graders.server"),
    Expectation("limit", limit),
    Expectation("literal", literal, "graders.server"),
    Expectation("per_line", per_line, "graders.server"),
    Expectation("last_line", last_line, "graders.server"),
    Expectation("characters", characters, "graders.server"),
    Expectation("bad_arguments", bad_arguments),
    Expectation("outside_root", outside_root),
    Expectation("missing", missing_path),
    Expectation("big_file", big_file),
    Expectation("binary", binary_file),
    Expectation("unknown_tool", unknown_tool),
    Expectation("no_machine_path", no_machine_path),
)
