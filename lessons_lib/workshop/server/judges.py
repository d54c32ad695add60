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
from dataclasses import dataclass
from typing import Final

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
    TAIL,
    TODO,
    WIDE,
    WIDE_WORD,
    invalid,
)
from lessons_lib.workshop.server.seen import (
    Broken,
    Seen,
    declared_of,
    failure_of,
    match_key,
    same_matches,
    success_of,
)

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
    tool = declared_of(seen)
    if not str(tool.get("description") or "").strip():
        raise Broken(t("server_judges.listed.1"))


def input_schema(seen: Seen) -> None:
    schema = declared_of(seen).get("inputSchema")
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
    schema = declared_of(seen).get("outputSchema")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        raise Broken(t("server_judges.output_schema.1"))


def finds(seen: Seen) -> None:
    data = success_of(seen, "finds", t("server_judges.finds.1"))
    same_matches(data, seen.hidden.expected("deadline", (PLAN, TODO)), t("server_judges.finds.2"))


def non_ascii(seen: Seen) -> None:
    data = success_of(seen, "non_ascii", t("server_judges.non_ascii.1"))
    same_matches(data, seen.hidden.expected(GINKGO, (DIARY,)), t("server_judges.non_ascii.2"))


def folder(seen: Seen) -> None:
    data = success_of(seen, "folder", t("server_judges.folder.1"))
    same_matches(data, seen.hidden.expected("deadline", (TODO,)), t("server_judges.folder.2"))


def file_path(seen: Seen) -> None:
    data = success_of(seen, "file_path", t("graders.server.file_path.1", PLAN=PLAN))
    same_matches(data, seen.hidden.expected("deadline", (PLAN,)), t("graders.server.file_path.1", PLAN=PLAN))


def limit(seen: Seen) -> None:
    every = {match_key(m) for m in seen.hidden.expected("TODO", (TODO,))}
    for key, n, what in (
        ("limit_3", 3, t("server_judges.limit.1")),
        ("limit_default", 5, t("server_judges.limit.2")),
    ):
        data = success_of(seen, key, t("server_judges.limit.3", what=what))
        got = [match_key(m) for m in data["matches"]]
        if len(got) != n or len(set(got)) != n or not set(got) <= every:
            raise Broken(t("server_judges.limit.4", what=what, n=n, got=len(got)))
        if data["truncated"] is not True:
            raise Broken(t("server_judges.limit.5", what=what))
    kiwi = {match_key(m) for m in seen.hidden.expected(KIWI, KIWI_FILES)}
    for key, n, more in (("limit_across", 4, True), ("limit_exact", 8, False), ("limit_later", 3, True)):
        what = t(f"graders.server.{key}", n=n, all=len(kiwi))
        data = success_of(seen, key, what)
        got = [match_key(m) for m in data["matches"]]
        if len(got) != n or len(set(got)) != n or not set(got) <= kiwi:
            raise Broken(t("graders.server.limit.count", what=what, n=n, got=len(got)))
        if data["truncated"] is not more:
            raise Broken(t("graders.server.limit.truncated", what=what, flag=str(more).lower()))


def _exact(seen: Seen, key: str, query: str, rel: str) -> None:
    """The reply to ``key`` holds exactly the lines of ``rel`` that contain ``query`` as plain text."""
    what = t("graders.server.search", query=query, rel=rel)
    same_matches(success_of(seen, key, what), seen.hidden.expected(query, (rel,)), what)


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
        message = failure_of(seen, key, t("server_judges.bad_arguments.1", what=what))
        if name not in message:
            raise Broken(t("server_judges.bad_arguments.2", what=what, name=name, message=message[:120]))


def outside_root(seen: Seen) -> None:
    keys = [k for k in seen.replies if k.startswith("out_")] or ["out_dotdot"]
    for key in keys:
        reply = json.dumps(seen.reply(key), ensure_ascii=False)
        if SECRET in reply:
            raise Broken(t("server_judges.outside_root.1", the_key=key))
        if key != "out_link_walk":
            failure_of(seen, key, t("server_judges.outside_root.2", the_key=key))


def missing_path(seen: Seen) -> None:
    failure_of(seen, "missing", t("server_judges.missing_path.1"))


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
        data = success_of(seen, key, t("server_judges.big_file.1", BIG=BIG, query=query))
        if key == "big_bulk" and (len(data["matches"]) != 20 or data["truncated"] is not True):
            raise Broken(t("server_judges.big_file.3"))


def binary_file(seen: Seen) -> None:
    data = success_of(seen, "binary", t("server_judges.binary_file.1"))
    if data["matches"]:
        raise Broken(t("server_judges.binary_file.2"))


def unknown_tool(seen: Seen) -> None:
    reply = seen.reply("unknown")
    if "lost" in reply:
        raise Broken(t("server_judges.unknown_tool.2", lost=reply["lost"]))
    if "error" in reply:
        message = str(reply["error"].get("message", ""))
    else:
        message = failure_of(seen, "unknown", t("server_judges.unknown_tool.3"))
    if "delete_notes" not in message:
        raise Broken(t("server_judges.unknown_tool.4", message=message[:120]))
    success_of(seen, "after", t("server_judges.unknown_tool.1"))


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
