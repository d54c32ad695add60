"""Anthropic Messages' own round-trip checks: ``input`` is an object, ``is_error`` tells the truth,
and the ``tool_result`` blocks follow in the next user message. Lesson 22.

Each row names the link of the doctor's order it belongs to; the sabotages break a copy the
way a learner might. Found by ``checks.verify_apis`` through the API registry. Standard library only.
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
from lessons_lib.checks.evidence import result_text
from lessons_lib.checks.jsoncheck import list_of, need, obj, show
from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, objects


def _anthropic_uses(rt: JSONObject) -> list[JSONObject]:
    content = list_of(obj(rt.get("response_1"), "response_1").get("content"), "response_1.content")
    uses = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_use"]
    need(uses, "response_1.content 里没有 tool_use 块：模型没有请求调用工具")
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
            f"tool_use.input 应当是对象，实际是 {type(value).__name__} {show(value, 40)}："
            "Anthropic 的 input 不是 JSON 文本",
        )
    return "tool_use.input 是对象，无需 json.loads；它就是 MCP params.arguments 的值"


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
    need(
        at, "request_2 丢了含 tool_use 的 assistant 消息：tool_result 没有可回答的调用（真实接口会返回 400）"
    )
    need(
        at[0] + 1 < len(messages),
        "tool_use 之后没有下一条消息：每个 tool_use 都要在下一条消息里有 tool_result（真实接口会返回 400）",
    )
    nxt = obj(messages[at[0] + 1], f"request_2.messages[{at[0] + 1}]")
    content: list[JSON] = nxt["content"] if isinstance(nxt.get("content"), list) else []
    results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
    need(results, "tool_use 的下一条消息里没有 tool_result 块（真实接口会返回 400）")
    need(
        nxt.get("role") == "user",
        f'tool_result 必须放在 role: "user" 的消息里，这里是 {show(nxt.get("role"))}',
    )
    got = sorted(str(b.get("tool_use_id")) for b in results)
    need(got == sorted(map(str, ids)), f"tool_result 的 tool_use_id {got} 与 tool_use 的 id {ids} 不一一对应")
    answered = ", ".join(map(str, ids))
    return f'request_2 保留 tool_use，下一条 role: "user" 消息里的 tool_result 逐一回答 {answered}'


def anthropic_is_error(rt: JSONObject) -> str:
    """``tool_result.is_error`` says what the MCP result's ``isError`` says."""
    _, failed = result_text(rt.get("mcp_response"), "mcp_response")
    for m in messages_of(rt, "request_2"):
        for b in objects(get_in(m, "content")):
            if b.get("type") == "tool_result":
                need(
                    b.get("is_error", False) is failed,
                    f"tool_result.is_error 是 {show(b.get('is_error'))}，MCP isError 是 {show(failed)}",
                )
    return f"tool_result.is_error 与 MCP isError 相同（{json.dumps(failed)}）"


CHECKS: Final[tuple[CheckRow, ...]] = (
    # (key, title, link of the doctor's order, check)
    ("anthropic_input", "Anthropic：input 是对象", "parse", anthropic_input_object),
    ("anthropic_is_error", "Anthropic：is_error 如实反映失败", "feedback", anthropic_is_error),
    (
        "anthropic_results",
        "Anthropic：tool_result 紧跟在 user 消息里",
        "next_input",
        anthropic_results_follow,
    ),
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
    ("input_stringified", "把 tool_use.input 写成 JSON 文本", stringify_input),
    ("tool_result_as_assistant", "tool_result 用 role: assistant 发送", tool_result_as_assistant),
    ("dropped_tool_use", "丢失含 tool_use 的 assistant 消息", drop_assistant_message),
)
