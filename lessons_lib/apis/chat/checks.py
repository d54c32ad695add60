"""What only a Chat Completions round trip gets wrong, and the sabotages that show it. Lesson 22.

``arguments`` must be JSON text, each ``role: "tool"`` message answers one ``tool_call_id``, and
the assistant message holding the calls is sent again just before them. ``checks.verify_apis``
runs these through the API registry's ``checks`` entry. Standard library only.
"""

from __future__ import annotations

import json
from typing import Final

from lessons_lib.checks.apicheckparts import (
    CheckRow,
    TrialRow,
    drop_assistant_message,
    messages_of,
    request_2,
)
from lessons_lib.checks.jsoncheck import Fail, list_of, need, obj, show
from lessons_lib.core.jsonvalue import JSONObject, objects


def _chat_message(rt: JSONObject) -> JSONObject:
    choices = list_of(obj(rt.get("response_1"), "response_1").get("choices"), "response_1.choices")
    need(choices, "response_1.choices 为空：模型没有回答")
    return obj(obj(choices[0], "response_1.choices[0]").get("message"), "response_1.choices[0].message")


def _chat_calls(rt: JSONObject) -> list[JSONObject]:
    calls = objects(_chat_message(rt).get("tool_calls"))
    need(calls, "response_1 的 message 里没有 tool_calls：模型没有请求调用工具")
    return calls


def chat_arguments_text(rt: JSONObject) -> str:
    """Every ``tool_calls[].function.arguments`` is JSON text that parses to an object."""
    for call in _chat_calls(rt):
        args = obj(call.get("function"), "tool_calls[].function").get("arguments")
        if not isinstance(args, str):
            raise Fail(f"tool_calls[].function.arguments 应当是 JSON 文本，实际是 {show(args)}")
        need(isinstance(json.loads(args), dict), "function.arguments 解析后应当是对象")
    return "tool_calls[].function.arguments 是 JSON 文本，应用要先 json.loads 才得到对象"


def chat_tool_call_ids(rt: JSONObject) -> str:
    """Each ``role: "tool"`` message carries the ``tool_call_id`` of one call, each call answered once."""
    ids = [c.get("id") for c in _chat_calls(rt)]
    tools = [m for m in messages_of(rt, "request_2") if isinstance(m, dict) and m.get("role") == "tool"]
    need(tools, 'request_2.messages 里没有 role: "tool" 消息：执行结果没有回到模型')
    for m in tools:
        need("tool_call_id" in m, 'role: "tool" 消息缺少 tool_call_id：模型不知道这份结果回答的是哪次调用')
        need(
            m["tool_call_id"] in ids,
            f"tool_call_id {show(m['tool_call_id'])} 不是 response_1 里的调用（{ids}）",
        )
    answered = sorted(str(m["tool_call_id"]) for m in tools)
    need(answered == sorted(map(str, ids)), f"每个调用应当恰好一条 tool 消息：调用 {ids}，回答 {answered}")
    return f"tool_call_id {', '.join(map(str, ids))} 在 tool 消息里各出现一次"


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
        "request_2 丢了带 tool_calls 的 assistant 消息：tool 消息前面没有它回答的调用（真实接口会返回 400）",
    )
    after = [m.get("role") for m in messages[at[0] + 1 : at[0] + 1 + len(ids)] if isinstance(m, dict)]
    need(after == ["tool"] * len(ids), f"assistant 消息之后应当紧跟 {len(ids)} 条 tool 消息，实际是 {after}")
    return "request_2 保留了 assistant 的 tool_calls 消息，后面紧跟 tool 消息"


CHECKS: Final[tuple[CheckRow, ...]] = (
    # (key, title, link of the doctor's order, check)
    ("chat_arguments", "Chat：arguments 是 JSON 文本", "parse", chat_arguments_text),
    ("chat_tool_call_id", "Chat：tool 消息按 tool_call_id 配对", "ids", chat_tool_call_ids),
    ("chat_assistant_kept", "Chat：assistant 调用消息原样保留", "next_input", chat_assistant_kept),
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
    ("tool_call_id_missing", "tool 消息缺少 tool_call_id", drop_tool_call_id),
    ("dropped_assistant", "丢失 assistant 的 tool_calls 消息", drop_assistant_message),
    ("arguments_object", "把 arguments 文本改成对象", chat_arguments_object),
)
