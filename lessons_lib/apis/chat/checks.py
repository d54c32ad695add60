"""What only a Chat Completions round trip gets wrong, and the sabotages that show it. Lesson 22.

``arguments`` must be JSON text, each ``role: "tool"`` message answers one ``tool_call_id``, and
the assistant message holding the calls is sent again just before them. ``checks.verify_apis``
runs these through the API's registry entry (``checks``, ``trials``). Standard library only.
"""

from __future__ import annotations

import json
from typing import Final

from lessons_lib.checks.apis.parts import drop_assistant_message, messages_of, request_2
from lessons_lib.checks.jsoncheck import Fail, list_of, need, obj, show
from lessons_lib.core.jsonvalue import JSONObject, objects
from lessons_lib.core.messages import t
from lessons_lib.core.plugins.apitypes import CheckRow, TrialRow


def _chat_message(rt: JSONObject) -> JSONObject:
    choices = list_of(obj(rt.get("response_1"), "response_1").get("choices"), "response_1.choices")
    need(choices, t("chat_checks.no_choices"))
    return obj(obj(choices[0], "response_1.choices[0]").get("message"), "response_1.choices[0].message")


def _chat_calls(rt: JSONObject) -> list[JSONObject]:
    calls = objects(_chat_message(rt).get("tool_calls"))
    need(calls, t("chat_checks.no_tool_calls"))
    return calls


def chat_arguments_text(rt: JSONObject) -> str:
    """Every ``tool_calls[].function.arguments`` is JSON text that parses to an object."""
    for call in _chat_calls(rt):
        args = obj(call.get("function"), "tool_calls[].function").get("arguments")
        if not isinstance(args, str):
            raise Fail(t("chat_checks.arguments_not_text", got=show(args)))
        need(isinstance(json.loads(args), dict), t("chat_checks.arguments_not_object"))
    return t("chat_checks.arguments_ok")


def chat_tool_call_ids(rt: JSONObject) -> str:
    """Each ``role: "tool"`` message carries the ``tool_call_id`` of one call, each call answered once."""
    ids = [c.get("id") for c in _chat_calls(rt)]
    tools = [m for m in messages_of(rt, "request_2") if isinstance(m, dict) and m.get("role") == "tool"]
    need(tools, t("chat_checks.no_tool_message"))
    for m in tools:
        need("tool_call_id" in m, t("chat_checks.no_tool_call_id"))
        need(
            m["tool_call_id"] in ids,
            t("chat_checks.unknown_id", got=show(m["tool_call_id"]), ids=ids),
        )
    answered = sorted(str(m["tool_call_id"]) for m in tools)
    need(answered == sorted(map(str, ids)), t("chat_checks.once_each", ids=ids, answered=answered))
    return t("chat_checks.ids_ok", ids=", ".join(map(str, ids)))


def chat_assistant_kept(rt: JSONObject) -> str:
    """The assistant ``tool_calls`` message is re-sent, right before its tool messages."""
    messages = messages_of(rt, "request_2")
    ids = [c.get("id") for c in _chat_calls(rt)]
    at = [
        n
        for n, m in enumerate(messages)
        if isinstance(m, dict)
        and m.get("role") == "assistant"
        and [c.get("id") for c in objects(m.get("tool_calls"))] == ids
    ]
    need(
        at,
        t("chat_checks.assistant_dropped"),
    )
    after = [m.get("role") for m in messages[at[0] + 1 : at[0] + 1 + len(ids)] if isinstance(m, dict)]
    need(after == ["tool"] * len(ids), t("chat_checks.tool_after", n=len(ids), after=after))
    return t("chat_checks.assistant_ok")


CHECKS: Final[tuple[CheckRow, ...]] = (
    # (key, catalogue key of the title, link of the doctor's order, check)
    ("chat_arguments", "chat_checks.check.chat_arguments", "parse", chat_arguments_text),
    ("chat_tool_call_id", "chat_checks.check.chat_tool_call_id", "ids", chat_tool_call_ids),
    ("chat_assistant_kept", "chat_checks.check.chat_assistant_kept", "next_input", chat_assistant_kept),
)


# ----------------------------------------------------------------------------- built-in sabotages
def drop_tool_call_id(rt: JSONObject) -> JSONObject:
    """Chat: the tool messages lose their ``tool_call_id``."""
    for m in request_2(rt):
        if m.get("role") == "tool":
            m.pop("tool_call_id", None)
    return rt


def chat_arguments_object(rt: JSONObject) -> JSONObject:
    """Chat: ``function.arguments`` sent as an object instead of JSON text."""
    for m in [_chat_message(rt), *request_2(rt)]:
        for call in objects(m.get("tool_calls")):
            function = obj(call.get("function"), "tool_calls[].function")
            function["arguments"] = json.loads(str(function.get("arguments")))
    return rt


TRIALS: Final[tuple[TrialRow, ...]] = (
    # (key, catalogue key of the title, sabotage)
    ("tool_call_id_missing", "chat_checks.trial.tool_call_id_missing", drop_tool_call_id),
    ("dropped_assistant", "chat_checks.trial.dropped_assistant", drop_assistant_message),
    ("arguments_object", "chat_checks.trial.arguments_object", chat_arguments_object),
)
