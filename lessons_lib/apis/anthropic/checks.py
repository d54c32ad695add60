"""Anthropic Messages' own round-trip checks: ``input`` is an object, ``is_error`` tells the truth,
and the ``tool_result`` blocks follow in the next user message. Lesson 22.

Each row names the link of the doctor's order it belongs to; the sabotages break a copy the
way a learner might. Found by ``checks.verify_apis`` through the API registry. Standard library only.
"""

from __future__ import annotations

import json
from typing import Final

from lessons_lib.checks.apis.parts import drop_assistant_message, messages_of, request_2
from lessons_lib.checks.evidence import result_text
from lessons_lib.checks.jsoncheck import list_of, need, obj, show
from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, objects
from lessons_lib.core.messages import t
from lessons_lib.core.plugins.apitypes import CheckRow, TrialRow


def _anthropic_uses(rt: JSONObject) -> list[JSONObject]:
    content = list_of(obj(rt.get("response_1"), "response_1").get("content"), "response_1.content")
    uses = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_use"]
    need(uses, t("anthropic_checks.no_tool_use"))
    return uses


def anthropic_input_object(rt: JSONObject) -> str:
    """``tool_use.input`` is an object, in the response and in the copy re-sent in request_2."""
    blocks = list(_anthropic_uses(rt))
    for m in messages_of(rt, "request_2"):
        content = m.get("content") if isinstance(m, dict) else None
        blocks += (
            [b for b in content or [] if isinstance(b, dict) and b.get("type") == "tool_use"]
            if isinstance(content, list)
            else []
        )
    for block in blocks:
        value = block.get("input")
        need(
            isinstance(value, dict),
            t("anthropic_checks.input_not_object", type=type(value).__name__, got=show(value, 40)),
        )
    return t("anthropic_checks.input_ok")


def anthropic_results_follow(rt: JSONObject) -> str:
    """The ``tool_use`` message is re-sent; the next is ``role: "user"`` with a ``tool_result`` per id."""
    messages = messages_of(rt, "request_2")
    ids = [b.get("id") for b in _anthropic_uses(rt)]

    def uses_of(m: JSON) -> list[JSON]:
        content = m.get("content") if isinstance(m, dict) else None
        return (
            [b.get("id") for b in content if isinstance(b, dict) and b.get("type") == "tool_use"]
            if isinstance(content, list)
            else []
        )

    at = [n for n, m in enumerate(messages) if uses_of(m) == ids]
    need(at, t("anthropic_checks.tool_use_dropped"))
    need(
        at[0] + 1 < len(messages),
        t("anthropic_checks.nothing_after"),
    )
    nxt = obj(messages[at[0] + 1], f"request_2.messages[{at[0] + 1}]")
    content: list[JSON] = nxt["content"] if isinstance(nxt.get("content"), list) else []
    results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
    need(results, t("anthropic_checks.no_tool_result"))
    need(
        nxt.get("role") == "user",
        t("anthropic_checks.not_user", got=show(nxt.get("role"))),
    )
    got = sorted(str(b.get("tool_use_id")) for b in results)
    need(got == sorted(map(str, ids)), t("anthropic_checks.ids_differ", got=got, ids=ids))
    answered = ", ".join(map(str, ids))
    return t("anthropic_checks.results_ok", answered=answered)


def anthropic_is_error(rt: JSONObject) -> str:
    """``tool_result.is_error`` says what the MCP result's ``isError`` says."""
    _, failed = result_text(rt.get("mcp_response"), "mcp_response")
    for m in messages_of(rt, "request_2"):
        for b in objects(get_in(m, "content")):
            if b.get("type") == "tool_result":
                need(
                    b.get("is_error", False) is failed,
                    t("anthropic_checks.is_error_differs", got=show(b.get("is_error")), failed=show(failed)),
                )
    return t("anthropic_checks.is_error_ok", failed=json.dumps(failed))


CHECKS: Final[tuple[CheckRow, ...]] = (
    # (key, catalogue key of the title, link of the doctor's order, check)
    ("anthropic_input", "anthropic_checks.check.anthropic_input", "parse", anthropic_input_object),
    ("anthropic_is_error", "anthropic_checks.check.anthropic_is_error", "feedback", anthropic_is_error),
    ("anthropic_results", "anthropic_checks.check.anthropic_results", "next_input", anthropic_results_follow),
)


# ----------------------------------------------------------------------------- built-in sabotages
def stringify_input(rt: JSONObject) -> JSONObject:
    """Anthropic: ``tool_use.input`` written as JSON text, the way Chat writes ``arguments``."""
    for content in [get_in(rt, "response_1", "content"), *(m.get("content") for m in request_2(rt))]:
        for b in objects(content):
            if b.get("type") == "tool_use":
                b["input"] = json.dumps(b.get("input"), ensure_ascii=False)
    return rt


def tool_result_as_assistant(rt: JSONObject) -> JSONObject:
    """Anthropic: the ``tool_result`` message sent with role ``assistant`` instead of ``user``."""
    for m in request_2(rt):
        if any(b.get("type") == "tool_result" for b in objects(m.get("content"))):
            m["role"] = "assistant"
    return rt


TRIALS: Final[tuple[TrialRow, ...]] = (
    # (key, catalogue key of the title, sabotage)
    ("input_stringified", "anthropic_checks.trial.input_stringified", stringify_input),
    ("tool_result_as_assistant", "anthropic_checks.trial.tool_result_as_assistant", tool_result_as_assistant),
    ("dropped_tool_use", "anthropic_checks.trial.dropped_tool_use", drop_assistant_message),
)
