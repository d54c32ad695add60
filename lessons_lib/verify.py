"""Offline checks of the field fragments and of the two-round exchange. Introduced in lesson 07.

Standard library only, like the seed's attachment scripts: it runs where nothing else is
installed and works on plain dicts (it imports only the stdlib-only ``lessons_lib.paths``).
Both attachments are written by ``python -m lessons_lib record`` from the recorded trace
through ``fragments_from_trace`` and ``roundtrip_from_trace``, never typed by hand.

``field_fragments.json`` (``"format": "lessons_lib.field_fragments/1"``), one fragment each::

    declaration      the Responses tools entry the model saw (type, name, parameters = rule)
    mcp_declaration  the MCP tools/list entry behind the alias (name, inputSchema) or null
    model_call       the function_call item of response_1 (arguments = JSON text)
    mcp_request      the tools/call JSON-RPC request (params.arguments = object)
    mcp_result       the JSON-RPC response with the same id (result.content, isError)
    feedback         the function_call_output item of request_2 (output = text)
    link             the application's record tying call_id to the MCP id, or null

``responses_roundtrip.json`` (``"format": "lessons_lib.roundtrip/1"``): the bodies as sent,
``request_1, response_1, mcp_request, mcp_response, request_2, response_2``, then ``links``.

A failed tool call reaches the model as ``FAILURE_PREFIX + text`` (the application's marker, see
``lessons_lib.host.feedback_text``); a JSON-RPC error as ``FAILURE_PREFIX + "protocol error CODE: MESSAGE"``.
Every check answers PASS or FAIL with a reason; a wrong shape is a FAIL, never an exception.
"""

from __future__ import annotations

import copy
import html
import json
import posixpath
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

TRACE_FORMAT: Final = "lessons_lib.trace/1"
FRAGMENTS_FORMAT: Final = "lessons_lib.field_fragments/1"
ROUNDTRIP_FORMAT: Final = "lessons_lib.roundtrip/1"
FAILURE_PREFIX: Final = "ERROR: "
LOGICAL_ROOT: Final = "/workspace"


FIELDS_LIMITS: Final = (
    ("JSON 解析", "文本解析后得到相同 path/head", "不能证明文件被读取"),
    ("参数传递", "对象与 MCP arguments 相等", "不能证明服务有权限"),
    ("两组配对", "MCP id 自配对，call_id 自配对", "不能证明真实系统实现正确"),
    ("反馈内容", "output 与返回的文本一致", "不能保证模型正确理解或回答"),
)
ROUNDTRIP_LIMITS: Final = (
    ("接口连通", "消息彼此对得上", "不能证明真实接口连通"),
    ("路径访问", "路径作为值原样传递", "不能证明路径可以访问"),
    ("模型选择", "调用的名称在声明里", "不能证明模型选择正确"),
    ("最终答复", "第二次响应里有答复文本", "不能证明最终答复正确"),
)


@dataclass(frozen=True)
class Check:
    """One line of a report: a named check, PASS or FAIL, and the reason."""

    key: str
    name: str
    passed: bool
    reason: str


@dataclass
class Report:
    """The answer of one verifier: checks, built-in sabotages (if any) and what it cannot prove."""

    title: str
    checks: list[Check]
    cannot_prove: tuple[tuple[str, str, str], ...] = ()
    sabotages: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c.passed for c in self.checks + self.sabotages)

    @property
    def failed(self) -> list[Check]:
        return [c for c in self.checks + self.sabotages if not c.passed]

    def text(self) -> str:
        lines = [self.title] + [f"{_mark(c)}  {c.name}：{c.reason}" for c in self.checks]
        if self.sabotages:
            lines.append("破坏试验（每一种都应当被拒绝）：")
            lines += [f"{_mark(c)}  {c.name}：{c.reason}" for c in self.sabotages]
        if self.cannot_prove:
            lines.append("本地核对不能证明的事：")
            lines += [f"  - {what}（{criterion}）：{cannot}" for what, criterion, cannot in self.cannot_prove]
        n_bad = len(self.failed)
        lines.append("结论：全部通过。" if self.ok else f"结论：{n_bad} 项未通过。")
        return "\n".join(lines)

    __str__ = text

    def __repr__(self) -> str:
        return f"Report(title={self.title!r}, ok={self.ok}, failed={[c.key for c in self.failed]})"

    def _repr_html_table(self) -> str:
        rows = [(_mark(c), c.name, c.reason) for c in self.checks]
        rows += [(_mark(c), f"破坏：{c.name}", c.reason) for c in self.sabotages]
        body = html_table(("结果", "检查", "原因"), rows)
        limits = ""
        if self.cannot_prove:
            limits = "<p>本地核对不能证明的事：</p>" + html_table(
                ("核对", "成功判据", "不能证明的事"), self.cannot_prove
            )
        verdict = "全部通过" if self.ok else f"{len(self.failed)} 项未通过"
        title = f"<p><b>{esc(self.title)}</b></p>"
        return f'<div class="lessons-report">{title}{body}{limits}<p>结论：{verdict}</p></div>'

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **kw: Any) -> dict[str, str]:
        return {"text/plain": self.text(), "text/html": self._repr_html_table()}


def _mark(check: Check) -> str:
    return "PASS" if check.passed else "FAIL"


def _run(key: str, name: str, fn: Callable[..., str], *args: Any) -> Check:
    """Run one check: its return is the PASS reason; Fail or any error becomes a FAIL line."""
    try:
        return Check(key, name, True, fn(*args))
    except Fail as exc:
        return Check(key, name, False, str(exc))
    except Exception as exc:  # a wrong shape must FAIL with a reason, never raise
        return Check(key, name, False, f"形状不对，无法核对（{type(exc).__name__}: {exc}）")


# ----------------------------------------------------------------------------- small helpers


class Fail(Exception):
    """A check's failure: the message is the reason printed after FAIL."""


def need(condition: object, reason: str) -> None:
    if not condition:
        raise Fail(reason)


def json_kind(value: Any) -> str:
    """The JSON name of a value's type, in Chinese, for reasons."""
    if value is None:
        return "null（或缺失）"
    if isinstance(value, bool):
        return "布尔值"
    names = ((str, "文本"), ((int, float), "数字"), (list, "数组"), (dict, "对象"))
    return next((name for types, name in names if isinstance(value, types)), type(value).__name__)


def show(value: Any, limit: int = 60) -> str:
    """A short JSON spelling of a value for a reason line."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def obj(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Fail(f"{where} 应当是 JSON 对象，实际是{json_kind(value)}")
    return value


def text_of(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise Fail(f"{where} 应当是文本，实际是{json_kind(value)}")
    return value


def list_of(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise Fail(f"{where} 应当是数组，实际是{json_kind(value)}")
    return value


def same(a: Any, b: Any) -> bool:
    """Strict JSON equality: 20, 20.0, "20" and true are four different values."""
    return diff_path(a, b) is None


def diff_path(a: Any, b: Any, path: str = "") -> str | None:
    """The first path where two JSON values differ, or None if they are the same."""
    if type(a) is not type(b):
        return path or "（整体）"
    if isinstance(a, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{path}.{key}"
            found = diff_path(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list):
        for n, (x, y) in enumerate(zip(a, b, strict=False)):
            found = diff_path(x, y, f"{path}[{n}]")
            if found:
                return found
        return None if len(a) == len(b) else f"{path}[{min(len(a), len(b))}]"
    return None if a == b else (path or "（整体）")


def esc(value: Any) -> str:
    return html.escape(str(value))


def html_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def short(path: Any) -> str:
    """A file's name only: reports never print a machine's absolute path."""
    return Path(str(path)).name


def load_json(path: Any) -> Any:
    """Read a JSON file; any problem becomes one Fail sentence saying what to do."""
    p = Path(str(path))
    try:
        raw = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise Fail(
            f"找不到文件 {p.name}：请检查路径，或先运行 python -m lessons_lib record 生成附件"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise Fail(f"无法读取 {p.name}（{type(exc).__name__}）：请给出一个 UTF-8 编码的 JSON 文件") from None
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, RecursionError) as exc:
        where = (
            f"第 {exc.lineno} 行第 {exc.colno} 列：{exc.msg}"
            if isinstance(exc, json.JSONDecodeError)
            else "嵌套过深"
        )
        raise Fail(f"{p.name} 不是合法的 JSON（{where}）：请修正后再运行") from None


# ----------------------------------------------------------------------------- reading a trace


def as_dict(trace: Any) -> Any:
    """A ``lessons_lib.trace.Trace`` becomes its dict; anything else is returned as is."""
    to_dict = getattr(trace, "to_dict", None)
    return to_dict() if callable(to_dict) else trace


def events(trace: Any) -> list[dict[str, Any]]:
    found = trace.get("events") if isinstance(trace, dict) else None
    return [e for e in found if isinstance(e, dict)] if isinstance(found, list) else []


def model_body(trace: Any, label: str) -> Any:
    """The body of the first event with this label (request_1, response_1, ...), or None."""
    return next((e.get("body") for e in events(trace) if e.get("label") == label), None)


def is_call(item: Any) -> bool:
    return isinstance(item, dict) and item.get("type") == "function_call"


def calls_in(response: Any) -> list[dict[str, Any]]:
    output = response.get("output") if isinstance(response, dict) else None
    return [i for i in output if is_call(i)] if isinstance(output, list) else []


def first_call(response: Any) -> dict[str, Any] | None:
    calls = calls_in(response)
    return calls[0] if calls else None


def input_items(request: Any) -> list[Any]:
    """A request's ``input`` as a list (a plain string is one user message)."""
    found = request.get("input") if isinstance(request, dict) else None
    if isinstance(found, str):
        return [{"role": "user", "content": found}]
    return found if isinstance(found, list) else []


def feedback_items(request: Any) -> list[dict[str, Any]]:
    return [
        i for i in input_items(request) if isinstance(i, dict) and i.get("type") == "function_call_output"
    ]


def pick_feedback(request: Any, call: Any) -> dict[str, Any] | None:
    """The function_call_output for this call, else the first one (so a wrong id is still seen)."""
    outs = feedback_items(request)
    call_id = call.get("call_id") if isinstance(call, dict) else None
    return next((o for o in outs if o.get("call_id") == call_id), outs[0] if outs else None)


def link_for(links: Any, call: Any) -> dict[str, Any] | None:
    """The application's link record for this call, else the first one."""
    records = [r for r in links if isinstance(r, dict)] if isinstance(links, list) else []
    call_id = call.get("call_id") if isinstance(call, dict) else None
    return next((r for r in records if r.get("call_id") == call_id), records[0] if records else None)


def declared_tool(request: Any, name: Any) -> dict[str, Any] | None:
    """The Responses tools entry with this name, else the first function tool."""
    tools = request.get("tools") if isinstance(request, dict) else None
    found = [t for t in tools if isinstance(t, dict)] if isinstance(tools, list) else []
    return next((t for t in found if t.get("name") == name), found[0] if found else None)


def mcp_declaration(trace: Any, tool_name: Any, service: Any = None) -> dict[str, Any] | None:
    """The tool entry with this name in the service's MCP tools/list result, or None."""
    for event in events(trace):
        if service is not None and event.get("from") not in (None, service):
            continue
        body = event.get("body")
        result = body.get("result") if isinstance(body, dict) else None
        tools = result.get("tools") if isinstance(result, dict) else None
        if event.get("label") == "tools/list" and isinstance(tools, list):
            found = [t for t in tools if isinstance(t, dict)]
            return next((t for t in found if t.get("name") == tool_name), found[0] if found else None)
    return None


def _is_mcp(event: dict[str, Any]) -> bool:
    body = event.get("body")
    return isinstance(body, dict) and (event.get("channel") == "mcp" or "jsonrpc" in body)


def mcp_exchange(
    trace: Any, mcp_id: Any = None, service: Any = None
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The tools/call request (to this service with this id, else the first) and its response.

    The response comes from the same service: the one with the same JSON-RPC id, else the
    next tools/call response (so a response that answers with the wrong id is still judged).
    Each service numbers its own requests, so two services may both use id 3.
    """
    evs = [e for e in events(trace) if _is_mcp(e)]
    calls = [n for n, e in enumerate(evs) if e["body"].get("method") == "tools/call"]
    if service is not None and any(evs[n].get("to") == service for n in calls):
        calls = [n for n in calls if evs[n].get("to") == service]
    if not calls:
        return None, None
    chosen = [n for n in calls if mcp_id is not None and same(evs[n]["body"].get("id"), mcp_id)]
    start = (chosen or calls)[0]
    request, target = evs[start]["body"], evs[start].get("to")
    replies = [
        e
        for e in evs[start + 1 :]
        if "method" not in e["body"]
        and ("result" in e["body"] or "error" in e["body"])
        and (target is None or e.get("from") in (None, target))
    ]
    match = next((e for e in replies if same(e["body"].get("id"), request.get("id"))), None)
    match = match or next((e for e in replies if e.get("label") == "tools/call"), None)
    return request, (match["body"] if match else None)


def result_text(frame: Any, where: str = "MCP 响应") -> tuple[str, bool]:
    """The text an MCP response carries and whether it reports a failure."""
    f = obj(frame, where)
    if "error" in f and "result" not in f:
        error = obj(f["error"], f"{where}.error")
        message = text_of(error.get("message"), f"{where}.error.message")
        return f"protocol error {error.get('code')}: {message}", True
    result = obj(f.get("result"), f"{where}.result")
    texts = []
    for n, block in enumerate(list_of(result.get("content"), f"{where}.result.content")):
        b = obj(block, f"{where}.result.content[{n}]")
        if b.get("type") == "text":
            texts.append(text_of(b.get("text"), f"{where}.result.content[{n}].text"))
    is_error = result.get("isError", False)
    need(isinstance(is_error, bool), f"{where}.result.isError 应当是 true 或 false，实际是 {show(is_error)}")
    return "\n".join(texts), is_error


def feedback_output(item: Any, where: str = "feedback") -> str:
    """The text of a function_call_output (a string, or a list of input_text parts)."""
    out = obj(item, where).get("output")
    if isinstance(out, list):
        return "\n".join(
            text_of(obj(p, f"{where}.output[]").get("text"), f"{where}.output[].text") for p in out
        )
    return text_of(out, f"{where}.output")


def compare_feedback(output: str, tool_text: str, is_error: bool) -> str:
    """PASS reason if the feedback is the tool's own text and keeps success or failure, else Fail."""
    if is_error:
        need(
            output.startswith(FAILURE_PREFIX),
            f"服务报告失败（isError: true，{show(tool_text, 40)}），"
            f"反馈却没有以 {show(FAILURE_PREFIX)} 标出失败，读起来像读取成功",
        )
        need(
            output == FAILURE_PREFIX + tool_text,
            f"反馈标成了失败，但不是这次的失败说明：{_first_diff(FAILURE_PREFIX + tool_text, output)}",
        )
        return f"服务报告失败，反馈如实写成 {show(output, 50)}"
    need(not output.startswith(FAILURE_PREFIX), "服务读取成功（isError: false），反馈却写成了失败")
    need(output == tool_text, f"反馈不是服务返回的原文：{_first_diff(tool_text, output)}")
    return f"output 与 MCP result.content 的文本逐字相同（{len(tool_text)} 个字符）"


def _first_diff(expected: str, actual: str) -> str:
    n = next(
        (i for i, (a, b) in enumerate(zip(expected, actual, strict=False)) if a != b),
        min(len(expected), len(actual)),
    )
    want, got = show(expected[n : n + 16]), show(actual[n : n + 16])
    return f"从第 {n + 1} 个字符起不同，服务返回 {want}，反馈里是 {got}"


def message_text(response: Any) -> str:
    """The assistant's output_text in a Response, joined (empty if there is none)."""
    output = response.get("output") if isinstance(response, dict) else None
    texts = []
    for item in output if isinstance(output, list) else []:
        if isinstance(item, dict) and item.get("type") == "message" and item.get("role") == "assistant":
            content = item.get("content")
            for part in content if isinstance(content, list) else []:
                if (
                    isinstance(part, dict)
                    and part.get("type") == "output_text"
                    and isinstance(part.get("text"), str)
                ):
                    texts.append(part["text"])
    return "\n".join(texts)


def inside_root(path: str, root: str = LOGICAL_ROOT) -> str | None:
    """The normalised logical path if it stays under the root, else None."""
    joined = path if path.startswith("/") else posixpath.join(root, path)
    norm = posixpath.normpath(joined)
    return norm if norm == root or norm.startswith(root + "/") else None


# ----------------------------------------------------------------------------- rules and values

JSON_TYPES: Final = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})
_VALUE_KEYS: Final = ("const", "default", "enum", "examples")


def rule_summary(schema: Any, where: str) -> str:
    """'path: string, head: number' if the schema is a rule made of types, else Fail."""
    s = obj(schema, where)
    need(
        s.get("type", "object") == "object", f'{where}.type 是 {show(s.get("type"))}，参数规则应当是 "object"'
    )
    props = obj(s.get("properties"), f"{where}.properties")
    parts = []
    for name, rule in props.items():
        need(
            isinstance(rule, dict),
            f'{where}.properties.{name} 是 {show(rule)}：这是值，规则里应当写类型，如 {{"type": "number"}}',
        )
        kind = rule.get("type")
        kinds = kind if isinstance(kind, list) else [kind]
        valid = bool(kinds) and all(isinstance(k, str) and k in JSON_TYPES for k in kinds)
        need(
            valid or (kind is None and any(k in rule for k in ("anyOf", "oneOf", "$ref"))),
            f"{where}.properties.{name}.type 是 {show(kind)}，不是 JSON Schema 的类型名",
        )
        parts.append(f"{name}: {'|'.join(kinds) if valid else 'anyOf'}")
    required = s.get("required", [])
    need(
        isinstance(required, list) and all(isinstance(r, str) and r in props for r in required),
        f"{where}.required 应当列出 properties 里的属性名，实际是 {show(required)}",
    )
    return ", ".join(parts) or "没有参数"


def value_in_rule(schema: Any, values: list[Any], where: str) -> str | None:
    """Where a rule carries one of this call's values (in const/default/enum/examples or a string)."""
    if isinstance(schema, dict):
        for key, sub in schema.items():
            here = f"{where}.{key}"
            candidates = (
                sub if key in _VALUE_KEYS and isinstance(sub, list) else [sub] if key in _VALUE_KEYS else []
            )
            if isinstance(sub, str):
                candidates.append(sub)
            if any(same(c, v) for c in candidates for v in values):
                return f"{here} = {show(sub)}"
            found = value_in_rule(sub, values, here)
            if found:
                return found
    elif isinstance(schema, list):
        for n, sub in enumerate(schema):
            found = value_in_rule(sub, values, f"{where}[{n}]")
            if found:
                return found
    return None


def looks_like_rule(value: Any) -> bool:
    return isinstance(value, dict) and (
        value.get("type") in JSON_TYPES or "properties" in value or "$schema" in value
    )


def type_ok(value: Any, kind: Any) -> bool:
    kinds = kind if isinstance(kind, list) else [kind]
    checks = {
        "string": lambda v: isinstance(v, str),
        "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
        "integer": lambda v: (
            (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer())
        ),
        "boolean": lambda v: isinstance(v, bool),
        "object": lambda v: isinstance(v, dict),
        "array": lambda v: isinstance(v, list),
        "null": lambda v: v is None,
    }
    return kind is None or any(k in checks and checks[k](value) for k in kinds)


def values_follow_rule(args: dict[str, Any], schema: dict[str, Any]) -> str:
    """'path="/workspace/notes.txt"，head=20' if every value is a value of the declared type, else Fail."""
    props = schema.get("properties") or {}
    for key, value in args.items():
        need(not looks_like_rule(value), f"{key} 的值是 {show(value)}：这是规则（类型说明），不是本次的值")
        need(key in props, f"参数 {key} 不在声明的 properties 里（声明有 {', '.join(props) or '无'}）")
        declared = props[key].get("type") if isinstance(props[key], dict) else None
        need(
            type_ok(value, declared),
            f"{key} 的值 {show(value)} 是{json_kind(value)}，声明的类型是 {show(declared)}",
        )
    missing = [r for r in schema.get("required") or [] if r not in args]
    need(not missing, f"缺少必填参数 {missing[0] if missing else ''}")
    return "，".join(f"{k}={show(v)}" for k, v in args.items())


def parse_arguments(call: Any, where: str = "model_call.arguments") -> dict[str, Any]:
    """The model's arguments text parsed to an object, else Fail saying why."""
    text = obj(call, "model_call（模型的 function_call 项）").get("arguments")
    if not isinstance(text, str):
        raise Fail(f"{where} 是{json_kind(text)}，应当是 JSON 文本（字符串）；对象要由应用解析后才有")
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Fail(f"{where} 不是合法的 JSON 文本（{exc.msg}，第 {exc.pos + 1} 个字符）") from None
    if not isinstance(parsed, dict):
        raise Fail(f"{where} 解析出来是{json_kind(parsed)}，应当是对象")
    return parsed


def mcp_arguments(request: Any) -> dict[str, Any]:
    """The MCP tools/call ``params.arguments`` object, else Fail saying why."""
    need(request is not None, "没有 MCP tools/call 请求：模型的调用只是数据，声明和调用都不会自己执行")
    req = obj(request, "mcp_request")
    need(
        req.get("method") == "tools/call",
        f'mcp_request.method 是 {show(req.get("method"))}，应当是 "tools/call"',
    )
    args = obj(req.get("params"), "mcp_request.params").get("arguments")
    if not isinstance(args, dict):
        raise Fail(f"mcp_request.params.arguments 是{json_kind(args)}，应当是对象（不是 JSON 文本）")
    return args


def call_values(fr: dict[str, Any]) -> dict[str, Any]:
    """This call's values: the parsed arguments text, else the MCP arguments, else {}."""
    for read in (lambda: parse_arguments(fr.get("model_call")), lambda: mcp_arguments(fr.get("mcp_request"))):
        try:
            return read()
        except Fail:
            continue
    return {}


# ----------------------------------------------------------------------------- the checks


def check_rule(fragments: Any) -> str:
    """The declaration is a rule (types, no values of this call) and the call carries values."""
    fr = obj(fragments, "片段文件")
    decl = obj(fr.get("declaration"), "declaration（Responses 的 tools 项）")
    need(decl.get("type") == "function", f'declaration.type 是 {show(decl.get("type"))}，应当是 "function"')
    call = fr.get("model_call")
    name = call.get("name") if isinstance(call, dict) else None
    need(
        name is None or decl.get("name") == name,
        f"模型调用了 {show(name)}，声明里的名称却是 {show(decl.get('name'))}",
    )
    summary = rule_summary(decl.get("parameters"), "declaration.parameters")
    args = call_values(fr)
    checked = values_follow_rule(args, decl["parameters"]) if args else ""
    values = [v for v in args.values() if isinstance(v, str | int | float) and not isinstance(v, bool)]
    hit = value_in_rule(decl.get("parameters"), values, "declaration.parameters")
    need(hit is None, f"声明里出现了本次的值：{hit}；规则只说明怎么填，不携带本次参数")
    if fr.get("mcp_declaration") is not None:
        mcp_decl = obj(fr.get("mcp_declaration"), "mcp_declaration（MCP 的 tools/list 项）")
        rule_summary(mcp_decl.get("inputSchema"), "mcp_declaration.inputSchema")
        hit = value_in_rule(mcp_decl.get("inputSchema"), values, "mcp_declaration.inputSchema")
        need(hit is None, f"MCP 声明里出现了本次的值：{hit}")
    if not args:
        return f"声明只含类型（{summary}）；没有可核对的调用值"
    return f"声明只含类型（{summary}），调用只含符合类型的值（{checked}）"


def check_text_object(fragments: Any) -> str:
    """The model's arguments are JSON text; the MCP arguments are an object."""
    fr = obj(fragments, "片段文件")
    call = obj(fr.get("model_call"), "model_call（模型的 function_call 项）")
    mcp_args = mcp_arguments(fr.get("mcp_request"))
    parse_arguments(call)
    size = len(call["arguments"])
    return f"arguments 是 JSON 文本（{size} 个字符），params.arguments 是对象（{len(mcp_args)} 个键）"


def check_values_equal(fragments: Any) -> str:
    """Parsing the text gives exactly the values the service receives (path, head)."""
    fr = obj(fragments, "片段文件")
    parsed = parse_arguments(fr.get("model_call"))
    mcp_args = mcp_arguments(fr.get("mcp_request"))
    for key in list(parsed) + [k for k in mcp_args if k not in parsed]:
        need(key in parsed, f"{key} 只出现在 MCP arguments 里（{show(mcp_args.get(key))}），模型没有给出它")
        need(key in mcp_args, f"{key}={show(parsed[key])} 在传给服务时丢了")
        need(
            same(parsed[key], mcp_args[key]),
            f"{key} 变了：arguments 文本里是 {show(parsed[key])}，MCP arguments 里是 {show(mcp_args[key])}",
        )
    pairs = "，".join(f"{k}={show(v)}" for k, v in parsed.items()) or "没有参数"
    return f"{pairs}（arguments 文本解析后与 MCP arguments 对象逐项相同）"


def check_route(fragments: Any) -> str:
    """The application's link maps the alias back to the tool and ties call_id to the MCP id."""
    fr = obj(fragments, "片段文件")
    call = obj(fr.get("model_call"), "model_call（模型的 function_call 项）")
    need(fr.get("mcp_request") is not None, "没有 MCP tools/call 请求：调用没有被路由到任何服务")
    request = obj(fr.get("mcp_request"), "mcp_request")
    tool = obj(request.get("params"), "mcp_request.params").get("name")
    alias, call_id, mcp_id = call.get("name"), call.get("call_id"), request.get("id")
    need(fr.get("link") is not None, "缺少应用的关联记录 link：call_id 与 MCP id 只能由应用关联")
    link = obj(fr.get("link"), "link（应用的关联记录）")
    need(
        link.get("alias") == alias, f"link 记录的别名是 {show(link.get('alias'))}，模型调用的是 {show(alias)}"
    )
    need(
        link.get("tool") == tool,
        f"别名 {alias} 应当映射到 {show(link.get('tool'))}，MCP 请求调用的却是 {show(tool)}",
    )
    need(
        link.get("call_id") == call_id,
        f"link 记录的 call_id 是 {show(link.get('call_id'))}，模型调用的是 {show(call_id)}",
    )
    need(
        same(link.get("mcp_id"), mcp_id),
        f"link 把 {call_id} 关联到 MCP id {show(link.get('mcp_id'))}，实际请求的 id 是 {show(mcp_id)}",
    )
    decl = fr.get("mcp_declaration")
    declared = decl.get("name") if isinstance(decl, dict) else tool
    need(declared == tool, f"MCP 声明的工具名是 {show(declared)}，请求调用的却是 {show(tool)}")
    return f"应用把 {alias}（{call_id}）路由到服务 {link.get('service')} 的 {tool}（MCP id {show(mcp_id)}）"


def check_mcp_pair(fragments: Any) -> str:
    """The MCP request and response pair by their JSON-RPC id."""
    fr = obj(fragments, "片段文件")
    need(fr.get("mcp_request") is not None, "没有 MCP tools/call 请求，无从配对")
    request = obj(fr.get("mcp_request"), "mcp_request")
    mcp_id = request.get("id")
    need(
        isinstance(mcp_id, int | str) and not isinstance(mcp_id, bool),
        f"mcp_request.id 是 {show(mcp_id)}，应当是数字或文本",
    )
    need(fr.get("mcp_result") is not None, f"没有 MCP 响应回答请求 id={show(mcp_id)}")
    response = obj(fr.get("mcp_result"), "mcp_result")
    need(
        same(response.get("id"), mcp_id),
        f"MCP 响应的 id 是 {show(response.get('id'))}，请求的 id 是 {show(mcp_id)}：响应回答的不是这次请求",
    )
    need(
        request.get("jsonrpc") == "2.0" and response.get("jsonrpc") == "2.0",
        '两条 MCP 消息的 jsonrpc 都应当是 "2.0"',
    )
    need(("result" in response) != ("error" in response), "MCP 响应应当恰好有 result 或 error 之一")
    return f"tools/call 请求 id={show(mcp_id)}，响应 id={show(response['id'])}"


def check_call_pair(fragments: Any) -> str:
    """The model's function_call and the feedback pair by call_id."""
    fr = obj(fragments, "片段文件")
    call = obj(fr.get("model_call"), "model_call（模型的 function_call 项）")
    call_id = call.get("call_id")
    need(isinstance(call_id, str) and call_id, f"model_call.call_id 是 {show(call_id)}，应当是非空文本")
    need(
        fr.get("feedback") is not None,
        f"没有 function_call_output：{call_id} 没有配对的反馈，结果没有回到模型输入",
    )
    feedback = obj(fr.get("feedback"), "feedback（function_call_output 项）")
    need(
        feedback.get("type") == "function_call_output",
        f'feedback.type 是 {show(feedback.get("type"))}，应当是 "function_call_output"',
    )
    got = feedback.get("call_id")
    request = fr.get("mcp_request")
    mcp_id = request.get("id") if isinstance(request, dict) else None
    need(
        got == call_id or mcp_id is None or str(got) != str(mcp_id),
        f"反馈的 call_id 是 {show(got)}，那是 MCP 的 id：两个编号混用了，应当是 {show(call_id)}",
    )
    need(got == call_id, f"反馈的 call_id 是 {show(got)}，模型调用的是 {show(call_id)}：对不上")
    return f"function_call 与 function_call_output 的 call_id 都是 {call_id}"


def check_feedback(fragments: Any) -> str:
    """The feedback text is the tool's own result text and keeps success or failure."""
    fr = obj(fragments, "片段文件")
    need(fr.get("mcp_result") is not None, "没有 MCP 响应：反馈没有可以来自的执行结果")
    tool_text, is_error = result_text(fr.get("mcp_result"), "mcp_result")
    need(fr.get("feedback") is not None, "没有 function_call_output：执行结果没有回到模型输入")
    return compare_feedback(feedback_output(fr.get("feedback")), tool_text, is_error)


def check_declaration_kept(roundtrip: Any) -> str:
    """Both requests carry the same tools, and every call names a declared tool."""
    rt = obj(roundtrip, "往返文件")
    first = obj(rt.get("request_1"), "request_1")
    need(rt.get("request_2") is not None, "没有第二次请求 request_2：模型没有收到执行结果")
    second = obj(rt.get("request_2"), "request_2")
    tools = list_of(first.get("tools"), "request_1.tools")
    need(tools, "request_1.tools 为空：模型不知道有哪些工具")
    changed = diff_path(tools, second.get("tools"), "tools")
    need(changed is None, f"第二次请求的工具声明与第一次不同（{changed}）：规则应当原样保留")
    names = []
    for n, tool in enumerate(tools):
        t = obj(tool, f"request_1.tools[{n}]")
        if t.get("type") == "function":
            rule_summary(t.get("parameters"), f"request_1.tools[{n}].parameters")
            names.append(str(t.get("name")))
    for call in calls_in(rt.get("response_1")):
        need(
            call.get("name") in names,
            f"模型调用了 {show(call.get('name'))}，它不在声明的工具里（{', '.join(names)}）",
        )
    return f"两次请求的 tools 完全相同（{', '.join(names) or '无函数工具'}），都只含规则"


def check_context(roundtrip: Any) -> str:
    """The second input keeps the task and the original call, then adds the feedback."""
    rt = obj(roundtrip, "往返文件")
    first = obj(rt.get("request_1"), "request_1")
    need(rt.get("request_2") is not None, "没有第二次请求 request_2：上下文在第一轮后就断了")
    second = obj(rt.get("request_2"), "request_2")
    before, after = input_items(first), input_items(second)
    need(before, "request_1.input 为空：没有用户任务")
    need(isinstance(second.get("input"), list), "request_2.input 应当是数组：任务、原调用、工具反馈")
    changed = diff_path(before, after[: len(before)], "input")
    need(changed is None, f"第二次请求没有原样保留第一次的输入（{changed} 不同）：用户任务丢了或被改了")
    calls = calls_in(rt.get("response_1"))
    need(calls, "response_1.output 里没有 function_call：没有可以延续的调用")
    rest = after[len(before) :]
    for call in calls:
        kept = [
            n for n, item in enumerate(rest) if is_call(item) and item.get("call_id") == call.get("call_id")
        ]
        need(
            kept,
            f"第二次请求丢了原调用（call_id={show(call.get('call_id'))}）：input 里应当保留 function_call 项",
        )
        changed = _call_copy_diff(call, rest[kept[0]])
        need(changed is None, f"第二次请求里的原调用被改了（{changed} 与 response_1 不同）")
        later = [
            i for i in rest[kept[0] + 1 :] if isinstance(i, dict) and i.get("type") == "function_call_output"
        ]
        need(
            later, f"原调用 {call.get('call_id')} 之后没有追加 function_call_output：执行结果没有进入模型输入"
        )
    n_out = len(feedback_items(second))
    return f"第二次 input 依次保留原输入 {len(before)} 项、原调用 {len(calls)} 项，再追加工具反馈 {n_out} 项"


def _call_copy_diff(call: dict[str, Any], copy_: dict[str, Any]) -> str | None:
    """The first key where the copy in the next input differs from the call (status may be left out)."""
    for key in ("type", "call_id", "name", "arguments", "id", "status"):
        if (key == "status" and key not in copy_) or (key == "id" and key not in call and key not in copy_):
            continue
        if key not in copy_ or not same(call.get(key), copy_.get(key)):
            return key
    return None


def check_values_passed(fragments: Any) -> str:
    """arguments is JSON text whose values follow the rule and reach the service unchanged."""
    check_text_object(fragments)
    equal = check_values_equal(fragments)
    decl = obj(obj(fragments, "片段").get("declaration"), "request_1 里被调用工具的声明")
    parameters = obj(decl.get("parameters"), "声明的 parameters")
    values_follow_rule(parse_arguments(fragments.get("model_call")), parameters)
    return f"{equal}，且符合声明的类型"


def check_id_domains(roundtrip: Any, fragments: Any) -> str:
    """call_id pairs inside the model exchange, the MCP id inside the MCP exchange; links tie them."""
    rt = obj(roundtrip, "往返文件")
    calls = calls_in(rt.get("response_1"))
    need(calls, "response_1.output 里没有 function_call：没有 call_id 可以配对")
    need(rt.get("request_2") is not None, "没有第二次请求 request_2：call_id 没有配对的反馈")
    outs = feedback_items(rt.get("request_2"))
    ids = [c.get("call_id") for c in calls]
    mcp_id = (rt.get("mcp_request") or {}).get("id") if isinstance(rt.get("mcp_request"), dict) else None
    for out in outs:
        got = out.get("call_id")
        need(
            got in ids or mcp_id is None or str(got) != str(mcp_id),
            f"反馈的 call_id 是 {show(got)}，那是 MCP 的 id：两个编号混用了",
        )
        need(
            got in ids,
            f"反馈的 call_id {show(got)} 不对应 response_1 里的任何调用（{', '.join(map(str, ids))}）",
        )
    for call_id in ids:
        count = sum(1 for o in outs if o.get("call_id") == call_id)
        need(count == 1, f"{call_id} 有 {count} 个反馈，应当恰好 1 个")
    check_mcp_pair(fragments)
    need(isinstance(rt.get("links"), list), "缺少应用的关联记录 links：call_id 与 MCP id 只能由应用关联")
    route = check_route(fragments)
    return f"call_id 在模型往返内配对，MCP id 在服务往返内配对；{route}"


def check_answer(roundtrip: Any) -> str:
    """The second response carries the model's answer text."""
    rt = obj(roundtrip, "往返文件")
    need(rt.get("response_2") is not None, "没有第二次响应 response_2：模型没有基于反馈作答")
    text = message_text(obj(rt.get("response_2"), "response_2"))
    need(text, "response_2.output 里没有 assistant 消息的 output_text：没有模型的答复")
    return f"response_2 里有 assistant 答复（{len(text)} 个字符）；答得对不对不在本地核对范围内"


# ----------------------------------------------------------------------------- attachments


def first_exchange(trace: Any) -> tuple[Any, Any, Any, Any]:
    """The first tool call of a trace, its link record, and the MCP request and response it led to."""
    call = first_call(model_body(trace, "response_1"))
    link = link_for(trace.get("links") if isinstance(trace, dict) else None, call)
    request, response = mcp_exchange(trace, *((link.get("mcp_id"), link.get("service")) if link else ()))
    return call, link, request, response


def _note(trace: Any, what: str, command: str) -> str:
    model = trace.get("model") if isinstance(trace, dict) else None
    mode = model.get("mode") if isinstance(model, dict) else None
    mode = {"offline": "离线", "live": "在线"}.get(mode if isinstance(mode, str) else "", "")
    return (
        f"由 python -m lessons_lib record 从{mode}运行的 trace 摘出的{what}，不是手写的；"
        f"改动后可用 python -m lessons_lib {command} 核对。"
    )


def fragments_from_trace(trace: Any) -> dict[str, Any]:
    """The field fragments of a trace's first tool call (missing pieces are null). Lesson 07."""
    t = as_dict(trace)
    call, link, mcp_request, mcp_result = first_exchange(t)
    params = mcp_request.get("params") if isinstance(mcp_request, dict) else None
    tool_name = params.get("name") if isinstance(params, dict) else (link or {}).get("tool")
    service = (link or {}).get("service")
    return copy.deepcopy(
        {
            "format": FRAGMENTS_FORMAT,
            "note": _note(t, "字段片段", "verify-fields"),
            "declaration": declared_tool(model_body(t, "request_1"), (call or {}).get("name")),
            "mcp_declaration": mcp_declaration(t, tool_name, service),
            "model_call": call,
            "mcp_request": mcp_request,
            "mcp_result": mcp_result,
            "feedback": pick_feedback(model_body(t, "request_2"), call),
            "link": link,
        }
    )


def roundtrip_from_trace(trace: Any) -> dict[str, Any]:
    """The complete two-round exchange with the MCP pair in the middle. Lesson 07."""
    t = as_dict(trace)
    _, _, mcp_request, mcp_response = first_exchange(t)
    links = t.get("links") if isinstance(t, dict) else None
    return copy.deepcopy(
        {
            "format": ROUNDTRIP_FORMAT,
            "note": _note(t, "完整两轮往返", "verify-roundtrip"),
            "request_1": model_body(t, "request_1"),
            "response_1": model_body(t, "response_1"),
            "mcp_request": mcp_request,
            "mcp_response": mcp_response,
            "request_2": model_body(t, "request_2"),
            "response_2": model_body(t, "response_2"),
            "links": links if isinstance(links, list) else [],
        }
    )


def fragments_from_roundtrip(roundtrip: Any) -> dict[str, Any]:
    """The field fragments inside a round trip (it has no MCP declaration)."""
    rt = roundtrip if isinstance(roundtrip, dict) else {}
    call = first_call(rt.get("response_1"))
    return {
        "format": FRAGMENTS_FORMAT,
        "declaration": declared_tool(rt.get("request_1"), (call or {}).get("name")),
        "mcp_declaration": None,
        "model_call": call,
        "mcp_request": rt.get("mcp_request"),
        "mcp_result": rt.get("mcp_response"),
        "feedback": pick_feedback(rt.get("request_2"), call),
        "link": link_for(rt.get("links"), call),
    }


def kind_of(data: Any) -> str | None:
    """'trace', 'roundtrip', 'fragments' or None, from the format key or else the keys present."""
    if not isinstance(data, dict):
        return None
    by_format = {TRACE_FORMAT: "trace", ROUNDTRIP_FORMAT: "roundtrip", FRAGMENTS_FORMAT: "fragments"}
    found = data.get("format")
    if isinstance(found, str) and found in by_format:
        return by_format[found]
    for key, kind in (("events", "trace"), ("request_1", "roundtrip"), ("model_call", "fragments")):
        if key in data:
            return kind
    return None


# ----------------------------------------------------------------------------- verify_fields


def verify_fields(fragments: Any) -> Report:
    """Seven offline checks of the field fragments (seed section 7). Lesson 07.

    Also accepts a full trace (dict or ``Trace``) or a round trip, which it converts first.
    """
    fr = as_dict(fragments)
    kind = kind_of(fr)
    fr = fragments_from_trace(fr) if kind == "trace" else fr
    fr = fragments_from_roundtrip(fr) if kind == "roundtrip" else fr
    return Report("核对字段片段（verify-fields）", _field_checks(fr), FIELDS_LIMITS)


def _field_checks(fr: Any) -> list[Check]:
    return [
        _run("rule", "规则保持规则", check_rule, fr),
        _run("text_object", "模型参数是文本，MCP 参数是对象", check_text_object, fr),
        _run("values_equal", "解析前后值相等", check_values_equal, fr),
        _run("route", "别名映射回原工具", check_route, fr),
        _run("mcp_pair", "MCP 请求与响应按 id 配对", check_mcp_pair, fr),
        _run("call_pair", "模型调用与反馈按 call_id 配对", check_call_pair, fr),
        _run("feedback", "反馈内容来自同一份结果", check_feedback, fr),
    ]


# ----------------------------------------------------------------------------- verify_roundtrip


def verify_roundtrip(roundtrip: Any, *, sabotage: bool = True) -> Report:
    """Check the two-round exchange, then require three sabotaged copies to fail. Lesson 07."""
    rt = as_dict(roundtrip)
    rt = roundtrip_from_trace(rt) if kind_of(rt) == "trace" else rt
    checks = _roundtrip_checks(rt)
    trials = [_trial(name, title, fn, rt) for name, title, fn in _BUILT_IN] if sabotage else []
    return Report("核对两轮往返（verify-roundtrip）", checks, ROUNDTRIP_LIMITS, trials)


def _roundtrip_checks(rt: Any) -> list[Check]:
    fr = fragments_from_roundtrip(rt)
    return [
        _run("declaration_kept", "工具声明在两轮中保留", check_declaration_kept, rt),
        _run("context", "两轮上下文连续", check_context, rt),
        _run("values", "调用值原样传给服务", check_values_passed, fr),
        _run("ids", "两个编号各自配对", check_id_domains, rt, fr),
        _run("tool_text", "原始工具文本进入反馈", check_feedback, fr),
        _run("answer", "第二次响应是模型的答复", check_answer, rt),
    ]


def _trial(key: str, title: str, sabotage: Callable[[Any], Any], rt: Any) -> Check:
    try:
        broken = sabotage(copy.deepcopy(rt))
    except Exception as exc:  # a round trip too malformed to sabotage
        return Check(key, title, False, f"无法施加这个破坏（{type(exc).__name__}），原往返形状不对")
    failed = [c for c in _roundtrip_checks(broken) if not c.passed]
    if not failed:
        return Check(key, title, False, "没有被拒绝：破坏后的往返仍然全部通过")
    return Check(key, title, True, "已拒绝 —— " + "；".join(f"{c.name}：{c.reason}" for c in failed[:2]))


def _sab_wrong_id(rt: dict[str, Any]) -> dict[str, Any]:
    for item in input_items(rt.get("request_2")):
        if isinstance(item, dict) and item.get("type") == "function_call_output":
            item["call_id"] = f"{item.get('call_id')}_wrong"
    return rt


def _sab_drop_call(rt: dict[str, Any]) -> dict[str, Any]:
    request_2 = obj(rt.get("request_2"), "request_2")
    request_2["input"] = [i for i in input_items(request_2) if not is_call(i)]
    return rt


def _sab_arguments_object(rt: dict[str, Any]) -> dict[str, Any]:
    items = list(input_items(rt.get("request_2"))) + list((rt.get("response_1") or {}).get("output") or [])
    for item in items:
        if is_call(item) and isinstance(item.get("arguments"), str):
            item["arguments"] = json.loads(item["arguments"])
    return rt


_BUILT_IN: Final = (
    ("wrong_id", "错误编号（反馈的 call_id 对不上）", _sab_wrong_id),
    ("dropped_call", "丢失原调用（第二次输入里没有 function_call）", _sab_drop_call),
    ("arguments_object", "把参数文本改成对象（arguments 不再是 JSON 文本）", _sab_arguments_object),
)


# ----------------------------------------------------------------------------- command line


def main_fields(argv: Sequence[str] | None = None) -> int:
    """``python -m lessons_lib verify-fields [PATH]``: 0 all pass, 1 a check failed, 2 bad input."""
    return _main(
        "verify-fields", "field_fragments.json", argv, ("fragments", "roundtrip", "trace"), verify_fields
    )


def main_roundtrip(argv: Sequence[str] | None = None) -> int:
    """``python -m lessons_lib verify-roundtrip [PATH]``: 0 all pass, 1 a check failed, 2 bad input."""
    return _main(
        "verify-roundtrip", "responses_roundtrip.json", argv, ("roundtrip", "trace"), verify_roundtrip
    )


def _main(
    prog: str,
    default: str,
    argv: Sequence[str] | None,
    kinds: tuple[str, ...],
    verify: Callable[[Any], Report],
) -> int:
    import argparse
    import sys

    from lessons_lib.paths import DATA_DIR

    parser = argparse.ArgumentParser(prog=f"python -m lessons_lib {prog}", description=verify.__doc__)
    parser.add_argument("path", nargs="?", default=None, help=f"JSON file (default: data/{default})")
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return int(exc.code or 0)
    path = args.path if args.path is not None else str(DATA_DIR / default)
    try:
        data = load_json(path)
        kind = kind_of(data)
        need(kind in kinds, f"{short(path)} 不是 {' / '.join(kinds)} 文件：请给出 {default} 或 trace.json")
    except Fail as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    report = verify(data)
    print(report.text().replace(report.title, f"{report.title}：{short(path)}", 1))
    return 0 if report.ok else 1


__all__ = [
    "Check",
    "Report",
    "fragments_from_trace",
    "roundtrip_from_trace",
    "fragments_from_roundtrip",
    "kind_of",
    "verify_fields",
    "verify_roundtrip",
    "main_fields",
    "main_roundtrip",
    "show",
]
