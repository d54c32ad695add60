"""Offline checkers for the 动手 exercises of lessons 21, 22, 40, 42, 43 and 44 (issue 25).

Each takes what the learner wrote (``...`` while the blank is open) and answers with an
:class:`~lessons_lib.examples.orders.exercises.ExerciseResult`: "还没有完成" and a hint for an open
blank, else one line per expectation, checked by running the real thing (the stand-in behind
the real SDK, the ``mcp`` SDK's own types, the official schemas). Never an exception.
"""

from __future__ import annotations

import copy
from typing import Any, Final

from lessons_lib.examples.orders.exercises import ExerciseResult, invalid_schema, unfinished

TOOL: Final = "fs__read_text_file"


def _verdict(checks: list[tuple[bool, str]]) -> ExerciseResult:
    return ExerciseResult(
        all(ok for ok, _ in checks), tuple(("✓ " if ok else "✗ ") + what for ok, what in checks)
    )


def check_named_choice(choice: Any) -> ExerciseResult:
    """Lesson 21: a Chat Completions ``tool_choice`` that forces the one tool ``fs__read_text_file``."""
    from lessons_lib.apis.replay import replay
    from lessons_lib.course.record import load_fixture

    blank = unfinished(choice, '写成 {"type": "function", "function": {"name": ...}}，名字用声明里的别名。')
    if blank:
        return blank
    request = copy.deepcopy(load_fixture("chat/request_1.json"))
    backup = copy.deepcopy(request["tools"][0])
    backup["function"]["name"] = "backup__read_text_file"
    request["tools"].append(backup)  # two tools: only a named choice picks exactly one
    request["messages"][0]["content"] = "请用 fs 和 backup 两个服务分别读取 /workspace/notes.txt 的前 3 行。"
    reply = replay("chat", dict(request, tool_choice=choice))
    if not reply.ok:
        return ExerciseResult(
            False, (f"接口拒绝了这个 tool_choice：HTTP {reply.status} {reply.error_message}",)
        )
    body: Any = reply.body  # a Chat Completions response, as the stand-in answered it
    calls = body["choices"][0]["message"].get("tool_calls") or []
    names = [c["function"]["name"] for c in calls]
    return _verdict(
        [
            (bool(names), f"模型发出了调用（{names or '没有调用'}）"),
            (names == [TOOL], f"只调用了 {TOOL}（两个服务都提供 read_text_file）"),
            (choice not in ("required", "auto"), "这是指定函数，不是 required 或 auto"),
        ]
    )


def check_chained_request(second: Any) -> ExerciseResult:
    """Lesson 22: the second Responses request after ``previous_response_id``, replayed for real."""
    from lessons_lib.apis.replay import replay_all
    from lessons_lib.course.record import load_fixture

    blank = unfinished(second, "model、previous_response_id（第一次响应的 id）、input 里只放反馈、tools。")
    if blank:
        return blank
    if not isinstance(second, dict):
        return ExerciseResult(False, ("第二次请求应当是一个字典（请求体）。",))
    first = load_fixture("request_1.json")
    resend = load_fixture("request_2.json")
    one, two = replay_all("responses", [first, second])
    expected = replay_all("responses", [first, resend])[1]
    given = second.get("input")
    items: list[Any] = given if isinstance(given, list) else []
    kinds = [i.get("type") for i in items if isinstance(i, dict)]
    return _verdict(
        [
            (
                second.get("previous_response_id") == one.body.get("id"),
                f"指向第一次响应 {one.body.get('id')}",
            ),
            (kinds == ["function_call_output"], "input 里只有新的内容：一条 function_call_output"),
            (two.ok, f"替身接口接受了它（HTTP {two.status}）"),
            (two.ok and two.body.get("output") == expected.body.get("output"), "答复与重发全部时相同"),
        ]
    )


SITUATIONS: Final = {
    "one_app": ("只有一个应用、三个内部函数，想尽快把闭环跑通", "function"),
    "rest_docs": ("已有一个带 OpenAPI 文档的 REST 服务，二十多个接口，手写声明维护不过来", "openapi"),
    "shared": ("同一套工具要给 IDE、聊天机器人和工单系统三个应用共用，并在运行时发现", "mcp"),
}
WHY: Final = {
    "function": "直接函数：没有网络、没有协议，声明手写，最快跑通",
    "openapi": "OpenAPI：从现成文档生成声明，接口一改，声明跟着重新生成",
    "mcp": "MCP：服务在运行时公布工具，别的应用用 tools/list 就能发现同一套",
}


def check_layer_choice(picks: Any) -> ExerciseResult:
    """Lesson 40: one of "function" / "openapi" / "mcp" for each of three situations."""
    blank = unfinished(
        picks,
        '写字典 {"one_app": ..., "rest_docs": ..., "shared": ...}，值取 "function"、"openapi" 或 "mcp"。',
    )
    if blank:
        return blank
    if not isinstance(picks, dict) or set(picks) != set(SITUATIONS):
        return ExerciseResult(False, (f"字典的键应当正好是 {sorted(SITUATIONS)}。",))
    checks = []
    for key, (situation, right) in SITUATIONS.items():
        got = picks[key]
        reason = WHY[right] if got == right else f"选了 {got!r}；表里说：{WHY[right]}"
        checks.append((got == right, f"{situation} → {reason}"))
    return _verdict(checks)


def check_resource_and_prompt(resource: Any, prompt: Any) -> ExerciseResult:
    """Lesson 42: a resource and a prompt template as MCP lists them, checked by the ``mcp`` types."""
    from lessons_lib.engine.mcptypes import mcp_type_error

    blank = unfinished(resource, '资源写成 {"uri": ..., "name": ..., "mimeType": ...}。') or unfinished(
        prompt, '提示模板写成 {"name": ..., "arguments": [{"name": ..., "required": ...}]}。'
    )
    if blank:
        return blank
    checks: list[tuple[bool, str]] = []
    for label, kind, value in (("资源", "Resource", resource), ("提示模板", "Prompt", prompt)):
        problem = mcp_type_error(kind, value)
        ok = problem is None
        checks.append((ok, f"{label}符合 mcp 的 {kind} 类型" if ok else f"{label}不符合 {kind}：{problem}"))
    if isinstance(resource, dict):
        uri = str(resource.get("uri", ""))
        checks.append(
            (uri.startswith("file:///workspace/"), f"资源指向 /workspace 下的文件（{uri or '没有 uri'}）")
        )
    if isinstance(prompt, dict):
        args = prompt.get("arguments") if isinstance(prompt.get("arguments"), list) else []
        checks.append((bool(args), "提示模板至少有一个参数（用户填的部分）"))
    return _verdict(checks)


def check_new_revision_call(frame: Any) -> ExerciseResult:
    """Lesson 43: the same ``tools/call`` written for 2026-07-28, checked by that revision's schema."""
    from lessons_lib.engine.specs import frame_errors

    blank = unfinished(
        frame, "在 2025-11-25 的帧上加 params._meta（协议版本和客户端能力的 io.modelcontextprotocol/* 键）。"
    )
    if blank:
        return blank
    if not isinstance(frame, dict):
        return ExerciseResult(False, ("帧应当是一个字典（JSON-RPC 请求）。",))
    given = frame.get("params")
    params: dict[str, Any] = given if isinstance(given, dict) else {}
    errors = frame_errors("2026-07-28", frame)
    return _verdict(
        [
            (frame.get("method") == "tools/call", "method 是 tools/call"),
            (
                params.get("name") == "read_text_file",
                "工具名是 read_text_file（服务自己的名字，没有别名前缀）",
            ),
            (
                params.get("arguments") == {"path": "/workspace/notes.txt", "head": 5},
                "arguments 与另外两个修订版相同",
            ),
            (not errors, "符合 2026-07-28 的官方 schema" + ("" if not errors else f"：{errors[0]}")),
        ]
    )


def check_output_schema(schema: Any, structured: Any) -> ExerciseResult:
    """Lesson 44: an ``outputSchema`` for a line count and a ``structuredContent`` that matches it."""
    from jsonschema import Draft202012Validator

    blank = unfinished(
        schema, "写一个 type 为 object 的 schema：path 是字符串，lines 是整数，两者必填。"
    ) or unfinished(structured, '写出 notes.txt 前 5 行的结果：{"path": ..., "lines": ...}。')
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
                "outputSchema 的 type 是 object（MCP 的要求）",
            ),
            (v.is_valid(structured), "你的 structuredContent 符合你的 outputSchema"),
            (
                structured == {"path": "/workspace/notes.txt", "lines": 5},
                "structuredContent 说的是 notes.txt 的 5 行",
            ),
            (not v.is_valid({"path": "/workspace/notes.txt"}), "拒绝缺少 lines 的结果"),
            (not v.is_valid({"path": "/workspace/notes.txt", "lines": "5"}), "拒绝把 lines 写成文本"),
            (not v.is_valid({"path": "/workspace/notes.txt", "lines": 5.5}), "拒绝不是整数的 lines"),
        ]
    )
