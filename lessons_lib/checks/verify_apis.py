"""The round-trip checks for Chat Completions and Anthropic Messages exchanges. Lesson 22.

``verify_roundtrip`` and ``diagnose`` accept a trace or round trip of any of the three APIs.
For Chat and Anthropic they first run the checks below, which judge what only that API can
get wrong, in that API's own words; then the six Responses checks on the same exchange moved
to the Responses places (``lessons_lib.checks.apiview.responses_view``). Each check names
the link of the doctor's troubleshooting order it belongs to. ``API_TRIALS`` are the built-in
sabotages of each API: a copy broken that way must be rejected. Standard library only.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Final

from lessons_lib.checks.evidence import result_text
from lessons_lib.checks.jsoncheck import Fail, list_of, need, obj, show
from lessons_lib.checks.verify_report import Check, run_check
from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, objects

CheckFn = Callable[[JSONObject], str]


def _messages(rt: JSONObject, key: str) -> list[JSON]:
    return list_of(obj(rt.get(key), key).get("messages"), f"{key}.messages")


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
    tools = [m for m in _messages(rt, "request_2") if isinstance(m, dict) and m.get("role") == "tool"]
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
    messages = _messages(rt, "request_2")
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


def _anthropic_uses(rt: JSONObject) -> list[JSONObject]:
    content = list_of(obj(rt.get("response_1"), "response_1").get("content"), "response_1.content")
    uses = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_use"]
    need(uses, "response_1.content 里没有 tool_use 块：模型没有请求调用工具")
    return uses


def anthropic_input_object(rt: JSONObject) -> str:
    """``tool_use.input`` is an object, in the response and in the copy re-sent in request_2."""
    blocks = list(_anthropic_uses(rt))
    for m in _messages(rt, "request_2"):
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
    messages = _messages(rt, "request_2")
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
    for m in _messages(rt, "request_2"):
        for b in objects(get_in(m, "content")):
            if b.get("type") == "tool_result":
                need(
                    b.get("is_error", False) is failed,
                    f"tool_result.is_error 是 {show(b.get('is_error'))}，MCP isError 是 {show(failed)}",
                )
    return f"tool_result.is_error 与 MCP isError 相同（{json.dumps(failed)}）"


API_CHECKS: Final[dict[str, tuple[tuple[str, str, str, CheckFn], ...]]] = {
    # (key, title, link of the doctor's order, check)
    "chat": (
        ("chat_arguments", "Chat：arguments 是 JSON 文本", "parse", chat_arguments_text),
        ("chat_tool_call_id", "Chat：tool 消息按 tool_call_id 配对", "ids", chat_tool_call_ids),
        ("chat_assistant_kept", "Chat：assistant 调用消息原样保留", "next_input", chat_assistant_kept),
    ),
    "anthropic": (
        ("anthropic_input", "Anthropic：input 是对象", "parse", anthropic_input_object),
        ("anthropic_is_error", "Anthropic：is_error 如实反映失败", "feedback", anthropic_is_error),
        (
            "anthropic_results",
            "Anthropic：tool_result 紧跟在 user 消息里",
            "next_input",
            anthropic_results_follow,
        ),
    ),
}


def api_checks(rt: JSONObject, api: str) -> list[Check]:
    """The API's own checks on one round trip, in order (none for Responses)."""
    return [run_check(key, title, fn, rt) for key, title, _, fn in API_CHECKS.get(api, ())]


def api_problems(rt: JSONObject, api: str) -> list[tuple[str, str]]:
    """(link, reason) of every API check that fails, for the doctor."""
    links = {key: link for key, _, link, _ in API_CHECKS.get(api, ())}
    return [(links[c.key], c.reason) for c in api_checks(rt, api) if not c.passed]


# ----------------------------------------------------------------------------- built-in sabotages
def _request_2(rt: JSONObject) -> list[JSONObject]:
    return objects(get_in(rt, "request_2", "messages"))


def drop_tool_call_id(rt: JSONObject) -> JSONObject:
    """Chat: the tool messages lose their ``tool_call_id``."""
    for m in _request_2(rt):
        if m.get("role") == "tool":
            m.pop("tool_call_id", None)
    return rt


def drop_assistant_message(rt: JSONObject) -> JSONObject:
    """Chat and Anthropic: the assistant message holding the calls is not re-sent."""
    kept: list[JSON] = [m for m in _request_2(rt) if m.get("role") != "assistant"]
    obj(rt.get("request_2"), "request_2")["messages"] = kept
    return rt


def chat_arguments_object(rt: JSONObject) -> JSONObject:
    """Chat: ``function.arguments`` sent as an object instead of JSON text."""
    for m in [_chat_message(rt), *_request_2(rt)]:
        for call in objects(m.get("tool_calls")):
            function = obj(call.get("function"), "tool_calls[].function")
            function["arguments"] = json.loads(str(function.get("arguments")))
    return rt


def stringify_input(rt: JSONObject) -> JSONObject:
    """Anthropic: ``tool_use.input`` written as JSON text, the way Chat writes ``arguments``."""
    for content in [get_in(rt, "response_1", "content"), *(m.get("content") for m in _request_2(rt))]:
        for b in objects(content):
            if b.get("type") == "tool_use":
                b["input"] = json.dumps(b.get("input"), ensure_ascii=False)
    return rt


def tool_result_as_assistant(rt: JSONObject) -> JSONObject:
    """Anthropic: the ``tool_result`` message sent with role ``assistant`` instead of ``user``."""
    for m in _request_2(rt):
        if any(b.get("type") == "tool_result" for b in objects(m.get("content"))):
            m["role"] = "assistant"
    return rt


API_TRIALS: Final[dict[str, tuple[tuple[str, str, Callable[[JSONObject], JSONObject]], ...]]] = {
    "chat": (
        ("tool_call_id_missing", "tool 消息缺少 tool_call_id", drop_tool_call_id),
        ("dropped_assistant", "丢失 assistant 的 tool_calls 消息", drop_assistant_message),
        ("arguments_object", "把 arguments 文本改成对象", chat_arguments_object),
    ),
    "anthropic": (
        ("input_stringified", "把 tool_use.input 写成 JSON 文本", stringify_input),
        ("tool_result_as_assistant", "tool_result 用 role: assistant 发送", tool_result_as_assistant),
        ("dropped_tool_use", "丢失含 tool_use 的 assistant 消息", drop_assistant_message),
    ),
}


def api_trials(rt: JSONObject, api: str, judge: Callable[[JSONObject], list[Check]]) -> list[Check]:
    """Each of the API's sabotages on a copy: PASS when ``judge`` (all checks) rejects it."""
    out = []
    for key, title, sabotage in API_TRIALS.get(api, ()):
        try:
            broken = sabotage(copy.deepcopy(rt))
        except Exception as exc:  # a round trip too malformed to sabotage
            out.append(Check(key, title, False, f"无法施加这个破坏（{type(exc).__name__}），原往返形状不对"))
            continue
        failed = [c for c in judge(broken) if not c.passed]
        reason = (
            "已拒绝 —— " + "；".join(f"{c.name}：{c.reason}" for c in failed[:2])
            if failed
            else "没有被拒绝：破坏后的往返仍然全部通过"
        )
        out.append(Check(key, title, bool(failed), reason))
    return out
