"""Offline checkers for the 动手 exercises of lessons 21, 22, 40, 42, 43 and 44.

Each takes what the learner wrote (``...`` while the blank is open) and answers with a
:class:`~lessons_lib.core.verdict.Verdict` drawn as ``findings``: "还没有完成" and a hint for an open
blank, else one line per expectation, checked by running the real thing (the stand-in behind
the real SDK, the ``mcp`` SDK's own types, the official schemas). Never an exception.
"""

from __future__ import annotations

import copy
from typing import Final

from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, objects
from lessons_lib.core.messages import t
from lessons_lib.core.verdict import Verdict
from lessons_lib.examples.orders.exercises import found, invalid_schema, unfinished

TOOL: Final = "fs__read_text_file"


def _at(value: JSON, *keys: str | int) -> JSONObject:
    """The object at ``value[k1][k2]...`` (the same object, to edit in place); {} where there is none."""
    found = get_in(value, *keys)
    return found if isinstance(found, dict) else {}


def _verdict(checks: list[tuple[bool, str]]) -> Verdict:
    return found(all(ok for ok, _ in checks), tuple(("✓ " if ok else "✗ ") + what for ok, what in checks))


def check_named_choice(choice: object) -> Verdict:
    """Lesson 21: a Chat Completions ``tool_choice`` that forces the one tool ``fs__read_text_file``."""
    from lessons_lib.apis.replay import replay
    from lessons_lib.course.record import load_fixture

    blank = unfinished(choice, t("parttwo.21.hint"))
    if blank:
        return blank
    request = load_fixture("chat/request_1.json")
    backup = copy.deepcopy(_at(request, "tools", 0))
    _at(backup, "function")["name"] = "backup__read_text_file"
    request["tools"] = [*objects(request.get("tools")), backup]  # two tools: only a named choice picks one
    _at(request, "messages", 0)["content"] = (
        "请用 fs 和 backup 两个服务分别读取 /workspace/notes.txt 的前 3 行。"
    )
    reply = replay("chat", dict(request, tool_choice=choice))
    if not reply.ok:
        return found(False, (t("parttwo.21.refused", status=reply.status, message=reply.error_message),))
    calls = objects(get_in(reply.body, "choices", 0, "message", "tool_calls"))  # a Chat Completions reply
    names = [get_in(c, "function", "name") for c in calls]
    return _verdict(
        [
            (bool(names), t("parttwo.21.called", names=names or t("parttwo.21.no_calls"))),
            (names == [TOOL], t("parttwo.21.only", tool=TOOL)),
            (choice not in ("required", "auto"), t("parttwo.21.named")),
        ]
    )


def check_chained_request(second: object) -> Verdict:
    """Lesson 22: the second Responses request after ``previous_response_id``, replayed for real."""
    from lessons_lib.apis.replay import replay_all
    from lessons_lib.course.record import load_fixture

    blank = unfinished(second, t("parttwo.22.hint"))
    if blank:
        return blank
    if not isinstance(second, dict):
        return found(False, (t("parttwo.22.not_dict"),))
    first = load_fixture("request_1.json")
    resend = load_fixture("request_2.json")
    one, two = replay_all("responses", [first, second])
    expected = replay_all("responses", [first, resend])[1]
    given = second.get("input")
    kinds = [i.get("type") for i in given if isinstance(i, dict)] if isinstance(given, list) else []
    return _verdict(
        [
            (
                second.get("previous_response_id") == one.body.get("id"),
                t("parttwo.22.points", id=one.body.get("id")),
            ),
            (kinds == ["function_call_output"], t("parttwo.22.only_new")),
            (two.ok, t("parttwo.22.accepted", status=two.status)),
            (two.ok and two.body.get("output") == expected.body.get("output"), t("parttwo.22.same_answer")),
        ]
    )


SITUATIONS: Final = {"one_app": "function", "rest_docs": "openapi", "shared": "mcp"}
"""Lesson 40's three situations and the right layer for each; the situation's text is
``parttwo.40.situation.<key>`` and the reason ``parttwo.40.why.<layer>`` in the catalogue."""


def check_layer_choice(picks: object) -> Verdict:
    """Lesson 40: one of "function" / "openapi" / "mcp" for each of three situations."""
    blank = unfinished(
        picks,
        t("parttwo.40.hint"),
    )
    if blank:
        return blank
    if not isinstance(picks, dict) or set(picks) != set(SITUATIONS):
        return found(False, (t("parttwo.40.keys", keys=sorted(SITUATIONS)),))
    checks = []
    for key, right in SITUATIONS.items():
        got, why = picks[key], t(f"parttwo.40.why.{right}")
        reason = why if got == right else t("parttwo.40.wrong", got=repr(got), why=why)
        checks.append(
            (got == right, t("parttwo.40.line", situation=t(f"parttwo.40.situation.{key}"), reason=reason))
        )
    return _verdict(checks)


def check_resource_and_prompt(resource: object, prompt: object) -> Verdict:
    """Lesson 42: a resource and a prompt template as MCP lists them, checked by the ``mcp`` types."""
    from lessons_lib.engine.mcptypes import mcp_type_error

    blank = unfinished(resource, t("parttwo.42.hint_resource")) or unfinished(
        prompt, t("parttwo.42.hint_prompt")
    )
    if blank:
        return blank
    checks: list[tuple[bool, str]] = []
    for label, kind, value in (
        (t("parttwo.42.resource"), "Resource", resource),
        (t("parttwo.42.prompt"), "Prompt", prompt),
    ):
        problem = mcp_type_error(kind, value)
        ok = problem is None
        said = (
            t("parttwo.42.fits", label=label, kind=kind)
            if ok
            else t("parttwo.42.misfits", label=label, kind=kind, problem=problem)
        )
        checks.append((ok, said))
    if isinstance(resource, dict):
        uri = str(resource.get("uri", ""))
        checks.append(
            (uri.startswith("file:///workspace/"), t("parttwo.42.uri", uri=uri or t("parttwo.42.no_uri")))
        )
    if isinstance(prompt, dict):
        args = prompt.get("arguments") if isinstance(prompt.get("arguments"), list) else []
        checks.append((bool(args), t("parttwo.42.args")))
    return _verdict(checks)


def check_new_revision_call(frame: object) -> Verdict:
    """Lesson 43: the same ``tools/call`` written for 2026-07-28, checked by that revision's schema."""
    from lessons_lib.engine.specs import frame_errors

    blank = unfinished(frame, t("parttwo.43.hint"))
    if blank:
        return blank
    if not isinstance(frame, dict):
        return found(False, (t("parttwo.43.not_dict"),))
    given = frame.get("params")
    params: dict[str, object] = given if isinstance(given, dict) else {}
    errors = frame_errors("2026-07-28", frame)
    return _verdict(
        [
            (frame.get("method") == "tools/call", t("parttwo.43.method")),
            (
                params.get("name") == "read_text_file",
                t("parttwo.43.name"),
            ),
            (
                params.get("arguments") == {"path": "/workspace/notes.txt", "head": 5},
                t("parttwo.43.arguments"),
            ),
            (
                not errors,
                t("parttwo.43.schema") + ("" if not errors else t("parttwo.43.error", error=errors[0])),
            ),
        ]
    )


def check_output_schema(schema: object, structured: object) -> Verdict:
    """Lesson 44: an ``outputSchema`` for a line count and a ``structuredContent`` that matches it."""
    from jsonschema import Draft202012Validator

    blank = unfinished(schema, t("parttwo.44.hint_schema")) or unfinished(
        structured, t("parttwo.44.hint_structured")
    )
    if blank:
        return blank
    invalid = invalid_schema(schema)
    if invalid:
        return invalid
    v = Draft202012Validator(schema)
    return _verdict(
        [
            (
                isinstance(schema, dict) and schema.get("type") == "object",
                t("parttwo.44.object"),
            ),
            (v.is_valid(structured), t("parttwo.44.valid")),
            (
                structured == {"path": "/workspace/notes.txt", "lines": 5},
                t("parttwo.44.content"),
            ),
            (not v.is_valid({"path": "/workspace/notes.txt"}), t("parttwo.44.no_lines")),
            (not v.is_valid({"path": "/workspace/notes.txt", "lines": "5"}), t("parttwo.44.text_lines")),
            (not v.is_valid({"path": "/workspace/notes.txt", "lines": 5.5}), t("parttwo.44.float_lines")),
        ]
    )
