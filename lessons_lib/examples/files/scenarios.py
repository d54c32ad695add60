"""The other what-ifs of lesson 09 (seed section 9) and the bad values, each one a real offline run.

``run_scenario(name)`` runs one entry of ``SCENARIOS`` and returns the trace, the key facts, the
checks that back the verdict and the verifiers' own verdicts (``diagnose``, ``verify_roundtrip``).
``bad_values_table()`` runs every entry of ``BAD_VALUES`` and shows which layer stops it and
what the model receives as feedback. Nothing here is typed by hand: every fact comes from a trace.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Final

from lessons_lib.core import queries as q
from lessons_lib.core.display import Displayable
from lessons_lib.core.example import (
    ALIAS_SEPARATOR,
    EXAMPLE_HEAD,
    FAILURE_PREFIX,
    MISSING_PATH,
    OUTSIDE_PATH,
    TOOL_NAME,
)
from lessons_lib.core.htmltable import html_table, status_badge
from lessons_lib.core.jsonvalue import get_in
from lessons_lib.core.outcomes import outcome_text
from lessons_lib.core.paths import DATA_DIR, WORKSPACE_DIR
from lessons_lib.core.trace import Trace
from lessons_lib.examples.files.verdicts import Verdict, schema_check, verdict_line, verifiers
from lessons_lib.views.changetable import abbreviate

ARCHIVE_DIR: Final = DATA_DIR / "archive"
"""The second service's root (served as ``/workspace`` too): same file name, other content."""
TWO_SERVICES_TASK: Final = "请分别从 fs 和 archive 两个服务读取 /workspace/notes.txt 的前 3 行。"


@dataclass(frozen=True)
class Scenario:
    """One what-if of seed section 9: the question and the expected answer, in Chinese."""

    name: str
    title: str
    question: str
    expectation: str


SCENARIOS: Final[dict[str, Scenario]] = {
    s.name: s
    for s in (
        Scenario(
            "no_second_request",
            "应用拿到结果，却不再请求模型",
            "应用收到 MCP 返回值，却未再次请求模型，会怎样？",
            "应用手里有反馈，但模型没有通过后续输入收到它；不能说模型已结合执行结果回答。",
        ),
        Scenario(
            "two_services",
            "两个服务都提供 read_text_file",
            "两个服务都提供 read_text_file，怎样区分？",
            "应用给每个服务的工具一个别名，收到调用后映射回服务与原名；参数值不因别名转换而改变。",
        ),
        Scenario(
            "missing_file",
            "schema 检查通过，文件却不存在",
            "schema 校验通过，读取仍失败，是否矛盾？",
            "不矛盾：输入结构对，文件存在性是另一项检查；失败作为反馈继续处理，答复不说读到了文件。",
        ),
        Scenario(
            "outside_workspace",
            "schema 检查通过，路径却在 /workspace 之外",
            "schema 校验通过，读取仍失败，是否矛盾？",
            "不矛盾：路径是合法字符串，但访问范围是另一项检查；服务拒绝，失败作为反馈回到模型。",
        ),
    )
}


# ------------------------------------------------------------------ the scenario results
@dataclass(repr=False)
class ScenarioResult(Displayable):
    """A scenario's run: trace, key facts, the checks behind the verdict, the verifiers' verdicts."""

    scenario: Scenario
    trace: Trace
    facts: list[tuple[str, str]]
    checks: list[tuple[str, bool]]
    reports: list[Verdict]

    @property
    def ok(self) -> bool:
        return all(held for _, held in self.checks)

    @property
    def verdict(self) -> str:
        if self.ok:
            return self.scenario.expectation
        return "与预期不符：" + "；".join(what for what, held in self.checks if not held)

    def text(self) -> str:
        s = self.scenario
        lines = [f"{s.title}（{s.name}）", f"问题：{s.question}", "", "事实（来自这次运行的 trace）："]
        lines += [f"  {k}：{v}" for k, v in self.facts]
        lines += ["", "核对："] + [f"  {'✓' if held else '✗'} {what}" for what, held in self.checks]
        lines += ["", "验证器："] + [f"  {name}：{verdict_line(r)}" for name, r in self.reports]
        return "\n".join([*lines, "", f"结论：{self.verdict}", ""])

    def html(self) -> str:
        s = self.scenario
        facts = html_table(("事实", "这次运行的值"), self.facts, code_columns=(1,))
        checks = "".join(
            f"<li>{status_badge('pass' if held else 'fail', what)}</li>" for what, held in self.checks
        )
        reports = "".join(
            f"<li><b>{html.escape(n)}</b>：{html.escape(verdict_line(r))}</li>" for n, r in self.reports
        )
        return (
            f'<div class="lessons-scenario"><h4>{html.escape(s.title)}</h4>'
            f"<p>问题：{html.escape(s.question)}</p>"
            f"{facts}<p>核对：</p><ul>{checks}</ul>"
            f"<p>验证器：</p><ul>{reports}</ul><p><b>结论：{html.escape(self.verdict)}</b></p></div>"
        )

    def repr_args(self) -> str:
        return f"{self.scenario.name!r}, ok={self.ok}, outcome={self.trace.outcome['status']!r}"


def _no_second_request() -> tuple[Trace, list[tuple[str, str]], list[tuple[str, bool]]]:
    from lessons_lib.engine.host import Limits, run_chain

    trace = run_chain(limits=Limits(max_rounds=1))
    exchanges = q.mcp_exchanges(trace)
    reply = exchanges[0].reply if exchanges else None
    held = q.reply_text(reply)
    sent = q.model_rounds(trace)
    fed = bool(q.sent_feedback(trace))
    facts = [
        ("模型请求次数", str(len(sent))),
        (
            "MCP 执行结果",
            f"isError={json.dumps(get_in(reply, 'result', 'isError'))}，{len(held.splitlines())} 行",
        ),
        ("应用手里的反馈", abbreviate(held)),
        ("模型输入里的 function_call_output", "有" if fed else "没有"),
        ("答复", trace.answer or "（没有答复）"),
        ("结果", outcome_text(trace.outcome)),
    ]
    checks = [
        (
            "服务确实读了文件（MCP 响应 isError=false，有文本）",
            bool(held) and q.reply_is_error(reply) is False,
        ),
        ("只有一次模型请求，没有 request_2", len(sent) == 1 and trace.body("request_2") is None),
        ("任何一次模型请求的 input 里都没有 function_call_output", not fed),
        ("没有答复，不能声称答复基于执行结果", trace.answer is None),
        (
            "运行停止，理由写明结果没有发给模型",
            trace.outcome["status"] == "stopped" and "not sent" in trace.outcome["reason"],
        ),
    ]
    return trace, facts, checks


def _two_services() -> tuple[Trace, list[tuple[str, str]], list[tuple[str, bool]]]:
    from lessons_lib.engine.host import run_chain

    trace = run_chain(TWO_SERVICES_TASK, services={"fs": WORKSPACE_DIR, "archive": ARCHIVE_DIR})
    calls = {c.call_id: c for c in q.calls(trace, 1)}
    outputs = {f.call_id: f.output for f in q.sent_feedback(trace)}
    facts = [("声明的别名", "、".join(t["alias"] for t in trace.tools))]
    routed = untouched = paired = True
    texts = []
    for link in trace.links:
        call, exchange = calls[link["call_id"]], q.exchange_for(trace, link["call_id"])
        if exchange is None:  # the call never reached a service: the routing check fails
            routed = False
            continue
        text = q.reply_text(exchange.reply)
        texts.append(text)
        params = get_in(exchange.request, "params", "arguments")
        name = get_in(exchange.request, "params", "name")
        sent = json.dumps(params, ensure_ascii=False)
        first = text.splitlines()[0] if text else ""
        facts.append(
            (
                str(call.name),
                f"→ 服务 {exchange.service}，MCP params.name={name}，"
                f"arguments {call.arguments} → params.arguments {sent}，第一行：{first}",
            )
        )
        service, _, _ = str(call.name).partition(ALIAS_SEPARATOR)
        routed &= exchange.service == service and name == TOOL_NAME
        untouched &= isinstance(call.arguments, str) and json.loads(call.arguments) == params
        paired &= outputs.get(link["call_id"]) == text
    checks = [
        (
            "两个别名不同，都指向原名 read_text_file",
            len({t["alias"] for t in trace.tools}) == 2
            and {t["name"] for t in trace.tools} == {"read_text_file"},
        ),
        ("每个调用都送到别名前缀所指的服务，用原名 read_text_file", routed and len(trace.links) == 2),
        ("参数值没有因别名转换而改变（arguments 解析后 == params.arguments）", untouched),
        ("两个服务读出的内容不同（根目录不同）", len(set(texts)) == 2),
        ("每份反馈按 call_id 回到自己的调用，内容与该服务的结果一致", paired and len(outputs) == 2),
    ]
    return trace, facts, checks


def _read_fails(path: str) -> Callable[[], tuple[Trace, list[tuple[str, str]], list[tuple[str, bool]]]]:
    def run() -> tuple[Trace, list[tuple[str, str]], list[tuple[str, bool]]]:
        from lessons_lib.engine.host import run_chain

        trace = run_chain(path=path, head=EXAMPLE_HEAD)
        call = q.calls(trace, 1)[0]
        reply = q.mcp_exchanges(trace)[0].reply
        message = q.reply_text(reply)
        found = q.feedback_for_call(trace, call.call_id)
        output = (found.text() if found else None) or ""
        answer = trace.answer or ""
        schema = schema_check(trace, call.name, call.arguments)
        facts = [
            ("arguments", str(call.arguments)),
            ("schema 检查（jsonschema，示意）", schema),
            (
                "MCP result",
                f"isError={json.dumps(get_in(reply, 'result', 'isError'))}：{message}" if reply else "无",
            ),
            ("function_call_output.output", output),
            ("答复", answer),
        ]
        checks = [
            ("schema 检查通过（输入结构没有问题）", schema == "通过"),
            (
                "服务拒绝读取：isError=true，没有文件内容",
                q.reply_is_error(reply) is True,
            ),
            (f"反馈以 {FAILURE_PREFIX.strip()} 开头，带着服务的原话", output == FAILURE_PREFIX + message),
            ("答复转述了失败原因", bool(message) and message in answer),
            ("答复没有说读到了文件（没有“这是……的前 N 行”）", "这是" not in answer and "没有读到" in answer),
        ]
        return trace, facts, checks

    return run


_RUNNERS: Final[dict[str, Callable[[], tuple[Trace, list[tuple[str, str]], list[tuple[str, bool]]]]]] = {
    "no_second_request": _no_second_request,
    "two_services": _two_services,
    "missing_file": _read_fails(MISSING_PATH),
    "outside_workspace": _read_fails(OUTSIDE_PATH),
}


@cache
def run_scenario(name: str) -> ScenarioResult:
    """Run one what-if of seed section 9 offline and judge it (lesson 09); ``SCENARIOS`` lists the names."""
    if name not in SCENARIOS:
        raise ValueError(f"unknown scenario {name!r}; choose one of: {', '.join(SCENARIOS)}")
    trace, facts, checks = _RUNNERS[name]()
    return ScenarioResult(SCENARIOS[name], trace, facts, checks, verifiers(trace))


__all__ = ["ARCHIVE_DIR", "SCENARIOS", "Scenario", "ScenarioResult", "run_scenario"]
