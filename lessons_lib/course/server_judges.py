"""What lesson 12's grader expects of a ``search_notes`` server, one expectation at a time.

Introduced in lesson 12. Each expectation reads the reply frames the grader collected
(:class:`Seen`) and returns None when it holds, or one sentence that says what broke. They run in
the order of :data:`EXPECTATIONS`, so the verdict names the *first* broken one. Verdicts come from
behaviour on the wire: any correct style passes (high-level ``MCPServer`` or low-level
``Server``, any wording of an error message that names the field).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, TypeAlias

from lessons_lib.course.server_cases import (
    BAD_FIELDS,
    BIG,
    DIARY,
    MAX_REPLY_BYTES,
    PLAN,
    SCHEMA_ACCEPTS,
    SCHEMA_REJECTS,
    SECRET,
    SHAPE,
    TODO,
    TOOL,
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

    def reply(self, key: str) -> Frame:
        return self.replies.get(key, {"lost": "not sent: the connection was lost before this request"})


class Broken(Exception):
    """An expectation that does not hold; the message says what the grader saw."""


def _result(seen: Seen, key: str, what: str) -> Frame:
    """The ``result`` of a reply; Broken if it was lost or is a JSON-RPC error."""
    reply = seen.reply(key)
    if "lost" in reply:
        raise Broken(f"{what}：没有收到回答（{reply['lost']}）")
    if "error" in reply:
        error = reply["error"]
        raise Broken(
            f"{what}：服务答了 JSON-RPC 错误 {error.get('code')}「{error.get('message')}」，而不是工具结果"
        )
    result = reply.get("result")
    if not isinstance(result, dict):
        raise Broken(f"{what}：回答里没有 result 对象")
    return result


def _success(seen: Seen, key: str, what: str) -> Frame:
    """The ``structuredContent`` of a successful call, checked against both schemas."""
    result = _result(seen, key, what)
    if result.get("isError"):
        raise Broken(f"{what}：得到 isError: true（{text_of(result)[:160]}），这次调用本应成功")
    data = result.get("structuredContent")
    if not isinstance(data, dict):
        raise Broken(f"{what}：结果里没有 structuredContent 对象")
    for schema, whose in (
        (_declared(seen).get("outputSchema"), "你声明的 outputSchema"),
        (SHAPE, "课程约定的结果形状"),
    ):
        problem = invalid(data, schema)
        if problem:
            raise Broken(f"{what}：structuredContent 不符合{whose}（{problem}）")
    texts = [
        b.get("text") for b in result.get("content", []) if isinstance(b, dict) and b.get("type") == "text"
    ]
    if not any(json_equal(t, data) for t in texts):
        raise Broken(f"{what}：没有一个 text 块是同一份 JSON（规范要求结构化结果也以文本形式给出）")
    return data


def _declared(seen: Seen) -> Frame:
    tools = _result(seen, "list", "tools/list").get("tools")
    found = (
        [t for t in tools if isinstance(t, dict) and t.get("name") == TOOL] if isinstance(tools, list) else []
    )
    if not found:
        raise Broken(f"tools/list 里没有名为 {TOOL} 的工具")
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
        detail = f"多出了 {extra[0]}" if extra else f"少了 {missing[0]}" if missing else "顺序或重复不对"
        raise Broken(f"{what}：matches 应当是 {len(want)} 条，得到 {len(got)} 条；{detail}")
    if data["truncated"] is not truncated:
        raise Broken(f"{what}：truncated 应当是 {str(truncated).lower()}")


def _failure(seen: Seen, key: str, what: str) -> str:
    """The message of a call that must fail as a tool execution error (``isError: true``)."""
    result = _result(seen, key, what)
    if not result.get("isError"):
        raise Broken(f"{what}：服务没有拒绝，答了 isError: false（{text_of(result)[:120]}）")
    return text_of(result)


# --- the expectations, in order ---------------------------------------------------------------


def stdout_clean(seen: Seen) -> None:
    if seen.stray:
        raise Broken(
            f"服务的 stdout 里混进了 {len(seen.stray)} 行不是 JSON-RPC 消息的文字，"
            f"第一行是 {seen.stray[0]!r}；stdio 服务的 stdout 只能写协议帧，日志要写到 stderr"
        )


def starts(seen: Seen) -> None:
    if seen.failed_start:
        raise Broken(f"连接和 initialize 没有完成（{seen.failed_start}）")
    if "lost" in seen.reply("list"):
        raise Broken(f"tools/list 没有得到回答（{seen.reply('list')['lost']}）")


def listed(seen: Seen) -> None:
    tool = _declared(seen)
    if not str(tool.get("description") or "").strip():
        raise Broken("search_notes 没有 description：模型要靠它决定什么时候用这个工具")


def input_schema(seen: Seen) -> None:
    schema = _declared(seen).get("inputSchema")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        raise Broken('inputSchema 应当是 type 为 "object" 的 JSON Schema')
    for ok in SCHEMA_ACCEPTS:
        problem = invalid(ok, schema)
        if problem:
            raise Broken(f"规则拒绝了合法的参数 {json.dumps(ok, ensure_ascii=False)}（{problem}）")
    for bad, why in SCHEMA_REJECTS:
        if invalid(bad, schema) is None:
            raise Broken(f"规则接受了不合法的参数 {json.dumps(bad, ensure_ascii=False)}（{why}）")


def output_schema(seen: Seen) -> None:
    schema = _declared(seen).get("outputSchema")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        raise Broken('没有声明 outputSchema，或它不是 type 为 "object" 的 schema')


def finds(seen: Seen) -> None:
    data = _success(seen, "finds", "查找 deadline")
    _same_matches(data, seen.hidden.expected("deadline", (PLAN, TODO)), "查找 deadline")


def non_ascii(seen: Seen) -> None:
    data = _success(seen, "non_ascii", "查找中文“银杏”")
    _same_matches(data, seen.hidden.expected("银杏", (DIARY,)), "查找中文“银杏”（文件名也是中文）")


def folder(seen: Seen) -> None:
    data = _success(seen, "folder", "只在 /workspace/sub 里查找")
    _same_matches(data, seen.hidden.expected("deadline", (TODO,)), "只在 /workspace/sub 里查找")


def limit(seen: Seen) -> None:
    every = {_key(m) for m in seen.hidden.expected("TODO", (TODO,))}
    for key, n, what in (("limit_3", 3, "limit 为 3"), ("limit_default", 5, "不给 limit（默认 5）")):
        data = _success(seen, key, f"查找 TODO，{what}")
        got = [_key(m) for m in data["matches"]]
        if len(got) != n or len(set(got)) != n or not set(got) <= every:
            raise Broken(f"查找 TODO，{what}：应当正好返回 {n} 条不同的真实匹配，得到 {len(got)} 条")
        if data["truncated"] is not True:
            raise Broken(f"查找 TODO，{what}：还有更多匹配没有返回，truncated 应当是 true")


def bad_arguments(seen: Seen) -> None:
    for key, (name, what) in BAD_FIELDS.items():
        message = _failure(seen, key, f"参数不合规（{what}）")
        if name not in message:
            raise Broken(f"参数不合规（{what}）：错误信息要点名字段 {name}，收到的是「{message[:120]}」")


def outside_root(seen: Seen) -> None:
    keys = [k for k in seen.replies if k.startswith("out_")] or ["out_dotdot"]
    for key in keys:
        reply = json.dumps(seen.reply(key), ensure_ascii=False)
        if SECRET in reply:
            raise Broken(f"请求 {key} 读到了根目录之外的文件（回答里出现了它的内容）")
        if key != "out_link_walk":
            _failure(seen, key, f"根目录之外的路径（{key}）")


def missing_path(seen: Seen) -> None:
    _failure(seen, "missing", "不存在的路径 /workspace/nothing-here")


def big_file(seen: Seen) -> None:
    for key, query in (("big_bulk", "BULK"), ("big_line", "HUGE")):
        size = len(json.dumps(seen.reply(key), ensure_ascii=False).encode("utf-8"))
        if size > MAX_REPLY_BYTES:
            raise Broken(
                f"在 2 MB 的 {BIG} 里查找 {query}：回答有 {size} 字节，"
                f"没有上限（应当不超过 {MAX_REPLY_BYTES}）"
            )
        data = _success(seen, key, f"在 2 MB 的 {BIG} 里查找 {query}")
        if key == "big_bulk" and (len(data["matches"]) != 20 or data["truncated"] is not True):
            raise Broken("在大文件里查找 BULK（limit 20）：应当正好 20 条，truncated 为 true")


def binary_file(seen: Seen) -> None:
    data = _success(seen, "binary", "查找只出现在非 UTF-8 文件里的词")
    if data["matches"]:
        raise Broken("非 UTF-8 的文件应当跳过，却返回了其中的内容（乱码）")


def unknown_tool(seen: Seen) -> None:
    reply = seen.reply("unknown")
    if "lost" in reply:
        raise Broken(f"调用不存在的工具 delete_notes：没有收到回答（{reply['lost']}）")
    if "error" in reply:
        message = str(reply["error"].get("message", ""))
    else:
        message = _failure(seen, "unknown", "调用不存在的工具 delete_notes")
    if "delete_notes" not in message:
        raise Broken(f"调用不存在的工具 delete_notes：错误信息要说出这个名字，收到的是「{message[:120]}」")
    _success(seen, "after", "未知工具之后再查找一次（服务应当还在正常工作）")


def no_machine_path(seen: Seen) -> None:
    real = {str(seen.hidden.base), str(seen.hidden.base.resolve())}
    for key, reply in seen.replies.items():
        text = json.dumps(reply, ensure_ascii=False).replace("\\\\", "\\")
        if any(r in text for r in real):
            raise Broken(f"请求 {key} 的回答里出现了机器上的真实目录：对外只说逻辑路径 /workspace/...")


@dataclass(frozen=True)
class Expectation:
    """One thing a correct server does, what it is called, and where to look when it fails."""

    key: str
    title: str
    hint: str
    judge: Callable[[Seen], None]

    def check(self, seen: Seen) -> str | None:
        try:
            self.judge(seen)
        except Broken as broken:
            return str(broken)
        return None


EXPECTATIONS: Final = (
    Expectation(
        "stdout",
        "stdout 只有协议帧",
        "本课“stdout 只属于协议”一节：print 改成写到 stderr 的日志",
        stdout_clean,
    ),
    Expectation(
        "start", "能连上：initialize 与 tools/list", "服务能启动吗？build_notes_server 要返回服务对象", starts
    ),
    Expectation("listed", "声明了 search_notes", "@server.tool() 的函数名和文档字符串", listed),
    Expectation(
        "input_schema",
        "inputSchema：必填、类型和范围",
        "参数的类型标注与 Field(ge=..., le=..., min_length=...)",
        input_schema,
    ),
    Expectation(
        "output_schema",
        "声明了 outputSchema",
        "返回值的类型标注（typing_extensions.TypedDict）",
        output_schema,
    ),
    Expectation("finds", "找得到：路径、行号、原文", "逐行查找，path 用逻辑路径，line 从 1 开始", finds),
    Expectation("non_ascii", "中文内容与中文文件名", "读文件时写明 encoding='utf-8'", non_ascii),
    Expectation("folder", "只在给定的文件夹里找", "path 参数：从它指向的文件夹开始找", folder),
    Expectation("limit", "limit 与 truncated", "数到 limit 就停，并把 truncated 设为 true", limit),
    Expectation(
        "bad_arguments",
        "参数不合规时答 isError 并点名字段",
        "空白的 query 要自己检查；抛出 ToolError",
        bad_arguments,
    ),
    Expectation(
        "outside_root",
        "不读根目录之外的文件",
        "先解析真实路径（resolve），再确认它在根目录之内",
        outside_root,
    ),
    Expectation("missing", "不存在的路径答 isError", "路径不存在时抛出 ToolError", missing_path),
    Expectation("big_file", "大文件：结果有上限", "每条 text 最多 200 个字符，最多 limit 条", big_file),
    Expectation("binary", "跳过非 UTF-8 文件", "读文件时捕获 UnicodeDecodeError，跳过这个文件", binary_file),
    Expectation(
        "unknown_tool",
        "未知工具：点名拒绝，服务照常工作",
        "未知的工具名要得到协议错误或 isError，并说出名字",
        unknown_tool,
    ),
    Expectation(
        "no_machine_path",
        "不泄露机器上的目录",
        "错误信息和结果里只用 /workspace/... 的逻辑路径",
        no_machine_path,
    ),
)
