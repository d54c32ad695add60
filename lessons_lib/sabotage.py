"""The sabotage catalogue: one deliberate mistake per common error of the seed. Lesson 08.

Section 8 of the seed lists seven mistakes. Each entry of ``SABOTAGES`` makes one of them in
a copy of a good trace (``apply`` never touches its input) and names the link of the
troubleshooting order it is expected to break. ``run_sabotage(name)`` applies it to the
recorded trace and shows how ``verify_fields``, ``verify_roundtrip`` and ``diagnose`` answer:
every one is rejected, and the doctor names the broken link. Standard library only.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from lessons_lib.doctor import STEP_ZH, Diagnosis, diagnose
from lessons_lib.verify import (
    Fail,
    Report,
    as_dict,
    calls_in,
    esc,
    first_call,
    first_exchange,
    html_table,
    input_items,
    load_json,
    model_body,
    result_text,
    roundtrip_from_trace,
    verify_fields,
    verify_roundtrip,
)

Trace = dict[str, Any]


@dataclass(frozen=True)
class Sabotage:
    """One deliberate mistake: what it is, what it changes, which link it should break."""

    name: str
    title: str
    mistake: str
    change: str
    link: str
    apply: Callable[[Trace], Trace] = field(repr=False, compare=False)

    @property
    def link_zh(self) -> str:
        return STEP_ZH[self.link]

    def row(self) -> dict[str, str]:
        return {
            "name": self.name,
            "title": self.title,
            "mistake": self.mistake,
            "change": self.change,
            "link": self.link,
            "link_zh": self.link_zh,
        }


class Catalogue(tuple[Sabotage, ...]):
    """The ordered sabotages; index by position or look one up with ``get(name)``."""

    def names(self) -> list[str]:
        return [s.name for s in self]

    def get(self, name: str) -> Sabotage:
        found = next((s for s in self if s.name == name), None)
        if found is None:
            raise ValueError(f"没有名为 {name!r} 的破坏；可选：{', '.join(self.names())}")
        return found

    def rows(self) -> list[dict[str, str]]:
        return [s.row() for s in self]

    def text(self) -> str:
        lines = ["破坏目录（第 8 节的常见错误，各做一次）"]
        lines += [
            f"{n}. {s.name}｜{s.title}｜预期断开：{s.link_zh}｜{s.change}" for n, s in enumerate(self, 1)
        ]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Catalogue({self.names()})"

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **kw: Any) -> dict[str, str]:
        rows = [(n, s.name, s.title, s.change, s.link_zh) for n, s in enumerate(self, 1)]
        table = html_table(("序号", "名称", "常见错误", "这次改了什么", "预期断开的环节"), rows)
        return {"text/plain": self.text(), "text/html": table}


# ----------------------------------------------------------------------------- editing a copy


def _copy(trace: Any) -> Trace:
    data = copy.deepcopy(as_dict(trace))
    if not isinstance(data, dict) or not isinstance(data.get("events"), list):
        raise ValueError('不是 trace：需要一个带 "events" 列表的 JSON 对象（格式 lessons_lib.trace/1）')
    return data


def _drop_events(t: Trace, keep: Callable[[dict[str, Any]], bool]) -> None:
    t["events"] = [e for e in t["events"] if not isinstance(e, dict) or keep(e)]
    for n, event in enumerate(e for e in t["events"] if isinstance(e, dict)):
        event["seq"] = n


def _round(label: Any) -> int:
    head, _, number = str(label).rpartition("_")
    return int(number) if head in ("request", "response") and number.isdigit() else 0


def _later_inputs(t: Trace) -> list[Any]:
    """The input items of every model request after the first."""
    return [
        i
        for e in t["events"]
        if _round(e.get("label")) > 1 and str(e.get("label")).startswith("request")
        for i in input_items(e.get("body"))
    ]


def _call_copies(t: Trace) -> list[dict[str, Any]]:
    call = first_call(model_body(t, "response_1")) or {}
    items = calls_in(model_body(t, "response_1")) + _later_inputs(t)
    return [
        i
        for i in items
        if isinstance(i, dict)
        and i.get("type") == "function_call"
        and i.get("call_id") == call.get("call_id")
    ]


def _feedback_items(t: Trace) -> list[dict[str, Any]]:
    return [i for i in _later_inputs(t) if isinstance(i, dict) and i.get("type") == "function_call_output"]


def _edit_arguments(t: Trace, edit: Callable[[dict[str, Any]], None]) -> None:
    """Change this call's values everywhere they travel: the arguments text and the MCP object."""
    copies = _call_copies(t)
    if not copies:
        return
    args = json.loads(copies[0]["arguments"])
    edit(args)
    for item in copies:
        item["arguments"] = json.dumps(args, ensure_ascii=False)
    _, _, request, _ = first_exchange(t)
    if request is not None and isinstance(request.get("params"), dict):
        request["params"]["arguments"] = copy.deepcopy(args)


def _replace_text(value: Any, old: str, new: str) -> Any:
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, list):
        return [_replace_text(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: _replace_text(v, old, new) for k, v in value.items()}
    return value


# ----------------------------------------------------------------------------- the seven mistakes


def declaration_as_execution(trace: Any) -> Trace:
    """No tools/call is sent: the application treats the declared tool as if it had run."""
    t = _copy(trace)
    _, _, request, response = first_exchange(t)
    _drop_events(t, lambda e: e.get("body") is not request and e.get("body") is not response)
    for link in t.get("links") or []:
        if isinstance(link, dict):
            link["mcp_id"] = None
    return t


def rule_as_value(trace: Any) -> Trace:
    """The rule {"type": "number"} travels as the value of head."""
    t = _copy(trace)
    _edit_arguments(t, lambda args: args.__setitem__("head", {"type": "number"}))
    return t


def parse_as_read(trace: Any) -> Trace:
    """The service reports a failure; the feedback still carries file content as if it was read."""
    t = _copy(trace)
    call, _, _, response = first_exchange(t)
    try:
        path = json.loads(call["arguments"])["path"]
    except (TypeError, KeyError, ValueError):
        path = "/workspace/notes.txt"
    if isinstance(response, dict):
        response.pop("error", None)
        response["result"] = {
            "content": [{"type": "text", "text": f"File not found: {path}"}],
            "isError": True,
        }
    return t


def format_as_permission(trace: Any) -> Trace:
    """A well-formed path outside the root comes back as a successful read."""
    t = _copy(trace)
    copies = _call_copies(t)
    old = json.loads(copies[0]["arguments"]).get("path") if copies else None
    if not isinstance(old, str) or not old:
        return t
    return dict(_replace_text(t, old, "/workspace/../etc/passwd"))


def mixed_ids(trace: Any) -> Trace:
    """The feedback carries the MCP JSON-RPC id where the model's call_id belongs."""
    t = _copy(trace)
    _, _, request, _ = first_exchange(t)
    for item in _feedback_items(t):
        item["call_id"] = str((request or {}).get("id"))
    return t


def logged_not_fed_back(trace: Any) -> Trace:
    """The result stays in the application (a log); the next model input has no function_call_output."""
    t = _copy(trace)
    for event in t["events"]:
        if isinstance(event, dict) and _round(event.get("label")) > 1 and isinstance(event.get("body"), dict):
            body = event["body"]
            if isinstance(body.get("input"), list):
                body["input"] = [
                    i
                    for i in body["input"]
                    if not (isinstance(i, dict) and i.get("type") == "function_call_output")
                ]
    return t


def raw_as_answer(trace: Any) -> Trace:
    """No second model request: the raw tool text is shown to the user as the answer."""
    t = _copy(trace)
    _, _, _, response = first_exchange(t)
    try:
        text, _ = result_text(response)
    except Fail:
        text = ""
    _drop_events(t, lambda e: _round(e.get("label")) < 2)
    t["answer"] = text
    return t


SABOTAGES: Final = Catalogue(
    (
        Sabotage(
            "declaration_as_execution",
            "把声明当作执行代码",
            "把声明当作执行代码",
            "删掉 tools/call 请求与响应，links 的 mcp_id 变成 null，反馈照旧声称有内容",
            "route",
            declaration_as_execution,
        ),
        Sabotage(
            "rule_as_value",
            "把规则当成实际参数",
            "把规则当成实际参数",
            'head 的值变成规则 {"type": "number"}（arguments 文本与 MCP arguments 一起改）',
            "parse",
            rule_as_value,
        ),
        Sabotage(
            "parse_as_read",
            "解析成功就标成读取成功",
            "解析成功就标成读取成功",
            "服务返回 isError: true 的失败，反馈却仍是文件内容",
            "feedback",
            parse_as_read,
        ),
        Sabotage(
            "format_as_permission",
            "把格式正确当作拥有权限",
            "把格式正确当作拥有权限",
            "路径改成 /workspace/../etc/passwd，服务却报告读取成功",
            "service",
            format_as_permission,
        ),
        Sabotage(
            "mixed_ids",
            "混用两个编号",
            "混用两个编号",
            "function_call_output 的 call_id 写成了 MCP 的 id",
            "ids",
            mixed_ids,
        ),
        Sabotage(
            "logged_not_fed_back",
            "只写入日志，没有加入模型输入",
            "只写入服务日志却没有把结果加入模型输入",
            "第二次请求的 input 里删掉 function_call_output",
            "next_input",
            logged_not_fed_back,
        ),
        Sabotage(
            "raw_as_answer",
            "把原始工具数据直接说成最终回答",
            "把原始工具数据直接说成最终回答",
            "删掉第二轮模型请求与响应，回答换成原始工具文本",
            "next_input",
            raw_as_answer,
        ),
    )
)


# ----------------------------------------------------------------------------- running one


@dataclass
class SabotageOutcome:
    """What the two verifiers and the doctor say about one sabotaged trace."""

    sabotage: Sabotage
    fields: Report
    roundtrip: Report
    diagnosis: Diagnosis

    @property
    def rejected(self) -> bool:
        return not (self.fields.ok and self.roundtrip.ok and self.diagnosis.ok)

    @property
    def found_link(self) -> str | None:
        return self.diagnosis.broken_link

    @property
    def as_expected(self) -> bool:
        return self.rejected and self.found_link == self.sabotage.link

    def lines(self) -> list[tuple[str, str]]:
        def verdict(report: Report) -> str:
            bad = report.failed
            return f"拒绝 —— {bad[0].name}：{bad[0].reason}" if bad else "通过（本地核对看不出这个错误）"

        match = "与预期一致" if self.as_expected else f"预期是「{self.sabotage.link_zh}」"
        return [
            ("verify-fields", verdict(self.fields)),
            ("verify-roundtrip", verdict(self.roundtrip)),
            ("diagnose", f"{self.diagnosis.verdict()}（{match}）"),
        ]

    def text(self) -> str:
        head = f"破坏「{self.sabotage.title}」（{self.sabotage.name}）：{self.sabotage.change}"
        return "\n".join([head] + [f"{who}：{what}" for who, what in self.lines()])

    __str__ = text

    def __repr__(self) -> str:
        name, found = self.sabotage.name, self.found_link
        return f"SabotageOutcome(name={name!r}, rejected={self.rejected}, found_link={found!r})"

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **kw: Any) -> dict[str, str]:
        head = f"<p>破坏「{esc(self.sabotage.title)}」：{esc(self.sabotage.change)}</p>"
        return {"text/plain": self.text(), "text/html": head + html_table(("检查", "回答"), self.lines())}


def run_sabotage(name: str, trace: Any = None) -> SabotageOutcome:
    """Apply one catalogue entry (to the recorded data/trace.json by default) and check it. Lesson 08."""
    entry = SABOTAGES.get(name)
    broken = entry.apply(_default_trace() if trace is None else trace)
    return SabotageOutcome(
        entry,
        verify_fields(broken),
        verify_roundtrip(roundtrip_from_trace(broken), sabotage=False),
        diagnose(broken),
    )


def _default_trace() -> Any:
    from lessons_lib.paths import DATA_DIR

    try:
        return load_json(DATA_DIR / "trace.json")
    except Fail as exc:
        raise ValueError(str(exc)) from None
