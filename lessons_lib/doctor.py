"""The chain doctor: walk the troubleshooting order and name the first broken link. Lesson 08.

The seed (section 8) says to check, in order: 模型响应、解析结果、路由目标、服务检查、实际反馈、
关联标识、后续模型输入 -- and never to infer from a plausible final answer that the tool ran.
``diagnose`` does exactly that on a full trace (format ``lessons_lib.trace/1``, offline, live or
edited by hand): each link gets its evidence, the walk stops at the first broken one. A tool
failure that is fed back honestly is not a broken link. Standard library only.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from lessons_lib.verify import (
    LOGICAL_ROOT,
    Fail,
    as_dict,
    calls_in,
    compare_feedback,
    declared_tool,
    diff_path,
    esc,
    feedback_output,
    html_table,
    input_items,
    inside_root,
    is_call,
    kind_of,
    load_json,
    mcp_exchange,
    message_text,
    model_body,
    need,
    obj,
    parse_arguments,
    pick_feedback,
    result_text,
    rule_summary,
    same,
    short,
    show,
    values_follow_rule,
)

STEPS: Final = (
    ("model_response", "模型响应"),
    ("parse", "解析结果"),
    ("route", "路由目标"),
    ("service", "服务检查"),
    ("feedback", "实际反馈"),
    ("ids", "关联标识"),
    ("next_input", "后续模型输入"),
)
STEP_ZH: Final = dict(STEPS)
STATUS_ZH: Final = {"ok": "通过", "broken": "断开", "unchecked": "未检查"}


@dataclass(frozen=True)
class Finding:
    """One link of the chain: its status (ok, broken, unchecked) and the evidence."""

    key: str
    name: str
    status: str
    evidence: str


@dataclass
class Diagnosis:
    """The doctor's answer: one finding per link, in the troubleshooting order."""

    findings: list[Finding]
    tool_failed: bool = False

    @property
    def broken(self) -> Finding | None:
        return next((f for f in self.findings if f.status == "broken"), None)

    @property
    def broken_link(self) -> str | None:
        """The key of the first broken link (e.g. ``"route"``), or None if the chain is whole."""
        return self.broken.key if self.broken else None

    @property
    def ok(self) -> bool:
        return self.broken is None

    def verdict(self) -> str:
        if self.broken:
            return f"第一个断开的环节是「{self.broken.name}」：{self.broken.evidence}"
        if self.tool_failed:
            return "链路完整：工具报告了失败，失败如实回到了模型输入。"
        return "链路完整：每一环都有证据。"

    def text(self) -> str:
        lines = ["链路诊断（按排查顺序）"]
        lines += [
            f"{n}. {f.name}  {STATUS_ZH[f.status]}  {f.evidence}" for n, f in enumerate(self.findings, 1)
        ]
        return "\n".join([*lines, f"结论：{self.verdict()}"])

    __str__ = text

    def __repr__(self) -> str:
        return f"Diagnosis(ok={self.ok}, broken_link={self.broken_link!r})"

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **kw: Any) -> dict[str, str]:
        rows = [(n, f.name, STATUS_ZH[f.status], f.evidence) for n, f in enumerate(self.findings, 1)]
        table = html_table(("序号", "环节", "状态", "证据"), rows)
        html = f'<div class="lessons-diagnosis">{table}<p>结论：{esc(self.verdict())}</p></div>'
        return {"text/plain": self.text(), "text/html": html}


class _Chain:
    """What the walk has found so far; each step reads the trace and fills in its part."""

    def __init__(self, trace: dict[str, Any]) -> None:
        self.trace = trace
        self.request_1 = model_body(trace, "request_1")
        self.request_2 = model_body(trace, "request_2")
        self.call: dict[str, Any] = {}
        self.args: dict[str, Any] = {}
        self.request: dict[str, Any] = {}
        self.response: dict[str, Any] = {}
        self.tool_text: str | None = None
        self.tool_failed = False
        self.feedback: dict[str, Any] | None = None


def _model_response(c: _Chain) -> str:
    need(c.request_1 is not None, "trace 里没有第一次模型请求 request_1：应用没有把任务和工具发给模型")
    labels = [e.get("label") for e in c.trace["events"] if isinstance(e, dict)]
    need("http_error_1" not in labels, "模型接口对第一次请求返回了 HTTP 错误（http_error_1），没有响应")
    response = obj(model_body(c.trace, "response_1"), "response_1")
    calls = calls_in(response)
    if not calls:
        said = message_text(response)
        raise Fail(
            f"response_1 里没有 function_call，模型直接回答了文字（{show(said, 40)}）：后面的工具环节没有发生"
        )
    call = c.call = calls[0]
    need(isinstance(call.get("name"), str) and call["name"], "function_call 缺少 name：不知道要调用哪个工具")
    need(
        isinstance(call.get("call_id"), str) and call["call_id"], "function_call 缺少 call_id：反馈将无法配对"
    )
    need(
        response.get("status", "completed") == "completed",
        f"response_1.status 是 {show(response.get('status'))}",
    )
    what = f"{call['name']}（call_id={call['call_id']}）"
    return f"response_1 有 function_call：{what}；completed 只表示生成完成，不表示已执行"


def _parse(c: _Chain) -> str:
    c.args = parse_arguments(c.call, "function_call.arguments")
    tool = declared_tool(c.request_1, c.call["name"])
    if tool is None or tool.get("name") != c.call["name"]:
        return f"arguments 文本解析为对象（{', '.join(c.args) or '无键'}）；这个名称的规则在路由时再查"
    rule_summary(tool.get("parameters"), f"声明 {c.call['name']} 的 parameters")
    return f"arguments 文本解析为对象：{values_follow_rule(c.args, tool['parameters'])}，符合声明的类型"


def _route(c: _Chain) -> str:
    alias, call_id = c.call["name"], c.call["call_id"]
    routes = [r for r in c.trace.get("tools") or [] if isinstance(r, dict) and r.get("alias") == alias]
    known = ", ".join(str(r.get("alias")) for r in c.trace.get("tools") or [] if isinstance(r, dict)) or "无"
    need(routes, f"别名 {alias} 不在应用的工具表里（{known}）：应用不知道该把调用交给哪个服务")
    service, tool = routes[0].get("service"), routes[0].get("name")
    links = [k for k in c.trace.get("links") or [] if isinstance(k, dict) and k.get("call_id") == call_id]
    request, response = mcp_exchange(c.trace, links[0].get("mcp_id") if links else None, service)
    if request is None:
        unsent = "links 里它的 mcp_id 是 null；" if links and links[0].get("mcp_id") is None else ""
        raise Fail(
            f"trace 里没有 tools/call 请求：{call_id} 没有交给服务 {service}。{unsent}声明和调用都不是执行"
        )
    c.request, c.response = request, response or {}
    params = obj(request.get("params"), "tools/call 的 params")
    need(
        params.get("name") == tool,
        f"别名 {alias} 应当映射到 {service} 的 {tool}，请求调用的却是 {show(params.get('name'))}",
    )
    changed = diff_path(c.args, params.get("arguments"), "arguments")
    need(changed is None, f"值在路由中变了（{changed}）：params.arguments 应当就是解析出来的对象")
    return f"别名 {alias} → 服务 {service} 的 {tool}；tools/call 的 params.arguments 与解析结果相同"


def _service(c: _Chain) -> str:
    need(c.response, f"服务没有回答 tools/call（id={show(c.request.get('id'))}）")
    c.tool_text, c.tool_failed = text, failed = result_text(c.response, "tools/call 的响应")
    path, head, tail = c.args.get("path"), c.args.get("head"), c.args.get("tail")
    if isinstance(path, str) and inside_root(path) is None:
        norm = posixpath.normpath(path if path.startswith("/") else posixpath.join(LOGICAL_ROOT, path))
        need(
            failed,
            f"路径 {path} 规范化后是 {norm}，在 {LOGICAL_ROOT} 之外，服务却报告成功：格式正确不等于有权限",
        )
        return f"服务检查拒绝了根目录之外的路径 {path}：{show(text, 60)}"
    if failed:
        return f"服务检查没有通过，返回了失败（{show(text, 60)}）；失败要如实反馈"
    need(head is None or tail is None, "同时给了 head 和 tail，服务却报告成功：这两个参数不能同时使用")
    lines = len(text.split("\n")) if text else 0
    for key, limit in (("head", head), ("tail", tail)):
        need(not isinstance(limit, int) or lines <= limit, f"{key}={limit}，服务却返回了 {lines} 行")
    return f"服务检查通过并读取：isError 为 false，返回 {lines} 行文本"


def _feedback(c: _Chain) -> str:
    c.feedback = pick_feedback(c.request_2, c.call)
    if c.feedback is None:
        return "执行结果已回到应用；它有没有进入模型输入，见「后续模型输入」"
    output = feedback_output(c.feedback, "function_call_output")
    return compare_feedback(output, c.tool_text or "", c.tool_failed)


def _ids(c: _Chain) -> str:
    call_id, mcp_id = c.call["call_id"], c.request.get("id")
    answered = c.response.get("id")
    need(
        same(answered, mcp_id),
        f"MCP 响应的 id 是 {show(answered)}，请求的 id 是 {show(mcp_id)}：响应回答的不是这次请求",
    )
    links = [k for k in c.trace.get("links") or [] if isinstance(k, dict) and k.get("call_id") == call_id]
    need(links, f"links 里没有 {call_id}：应用没有记下这次模型调用对应哪个服务请求")
    need(
        same(links[0].get("mcp_id"), mcp_id),
        f"links 把 {call_id} 关联到 MCP id {show(links[0].get('mcp_id'))}，实际请求的 id 是 {show(mcp_id)}",
    )
    if c.feedback is not None:
        got = c.feedback.get("call_id")
        need(
            got == call_id or str(got) != str(mcp_id),
            f"反馈的 call_id 是 {show(got)}，那是 MCP 的 id：两个编号混用了",
        )
        need(got == call_id, f"反馈的 call_id 是 {show(got)}，模型调用的是 {call_id}：反馈对不回原调用")
    return f"call_id {call_id} 在模型一侧配对，MCP id {show(mcp_id)} 在服务一侧配对，由应用的 links 关联"


def _next_input(c: _Chain) -> str:
    answer = c.trace.get("answer")
    if c.request_2 is None:
        raw = isinstance(answer, str) and c.tool_text is not None and answer.strip() == c.tool_text.strip()
        need(
            not raw,
            "没有第二次模型请求，展示给用户的就是原始工具文本：把工具数据当成了最终回答，模型没有看到反馈",
        )
        raise Fail("没有第二次模型请求：执行结果没有交给模型，不能说模型结合了结果作答")
    before, after = input_items(c.request_1), input_items(c.request_2)
    changed = diff_path(before, after[: len(before)], "input")
    need(changed is None, f"第二次请求没有原样保留第一次的输入（{changed}）：用户任务丢了或被改了")
    need(
        any(is_call(i) and i.get("call_id") == c.call["call_id"] for i in after),
        "第二次请求丢了原调用 function_call：模型看不到这份反馈回答的是哪次调用",
    )
    need(
        c.feedback is not None,
        "第二次请求的 input 里没有 function_call_output：结果只留在应用里（比如日志），没有加入模型输入",
    )
    final = [
        e.get("body")
        for e in c.trace["events"]
        if isinstance(e, dict) and str(e.get("label")).startswith("response_")
    ]
    need(final and final[-1] is not model_body(c.trace, "response_1"), "第二次请求没有得到模型响应")
    said = message_text(final[-1])
    need(said, "最后一次模型响应里没有答复文本")
    need(
        answer is None or answer == said,
        f"应用展示的回答（{show(answer, 30)}）不是模型最后的答复：展示的不是模型的回答",
    )
    return f"第二次输入保留任务与原调用并追加反馈；模型据此作答（{len(said)} 个字符），应用展示的就是它"


_WALK: Final[tuple[Callable[[_Chain], str], ...]] = (
    _model_response,
    _parse,
    _route,
    _service,
    _feedback,
    _ids,
    _next_input,
)


def diagnose(trace: Any) -> Diagnosis:
    """Walk the seven links of a trace in the troubleshooting order; stop at the first broken one. Lesson 08.

    ``trace`` is a trace dict, a ``lessons_lib.trace.Trace`` or a path to a trace file;
    anything that is not a trace raises ValueError with one sentence saying what to do.
    """
    chain = _Chain(_as_trace(trace))
    findings: list[Finding] = []
    for (key, name), step in zip(STEPS, _WALK, strict=True):
        if findings and findings[-1].status != "ok":
            findings.append(Finding(key, name, "unchecked", "前面的环节已断开，先修好它"))
            continue
        try:
            findings.append(Finding(key, name, "ok", step(chain)))
        except Fail as exc:
            findings.append(Finding(key, name, "broken", str(exc)))
        except Exception as exc:  # a hand-edited trace with a shape we did not expect
            findings.append(
                Finding(key, name, "broken", f"形状不对，无法检查（{type(exc).__name__}: {exc}）")
            )
    return Diagnosis(findings, tool_failed=chain.tool_failed)


def _as_trace(trace: Any) -> dict[str, Any]:
    if isinstance(trace, str | Path):
        try:
            trace = load_json(trace)
        except Fail as exc:
            raise ValueError(str(exc)) from None
    data = as_dict(trace)
    kind = kind_of(data)
    if kind in ("fragments", "roundtrip"):
        raise ValueError(f"这是 {kind} 文件，不是完整的 trace：diagnose 需要 data/trace.json 这样的 trace")
    if not isinstance(data, dict) or not isinstance(data.get("events"), list):
        raise ValueError('不是 trace：需要一个带 "events" 列表的 JSON 对象（格式 lessons_lib.trace/1）')
    return data


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m lessons_lib diagnose [PATH]``: 0 the chain is whole, 1 a link is broken, 2 bad input."""
    import argparse
    import sys

    from lessons_lib.paths import DATA_DIR

    parser = argparse.ArgumentParser(prog="python -m lessons_lib diagnose", description=diagnose.__doc__)
    parser.add_argument("path", nargs="?", default=None, help="trace file (default: data/trace.json)")
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return int(exc.code or 0)
    path = args.path if args.path is not None else str(DATA_DIR / "trace.json")
    try:
        diagnosis = diagnose(Path(path))
    except ValueError as exc:
        print(f"diagnose: {exc}", file=sys.stderr)
        return 2
    print(diagnosis.text().replace("链路诊断（按排查顺序）", f"链路诊断（按排查顺序）：{short(path)}", 1))
    return 0 if diagnosis.ok else 1
