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
from typing import TYPE_CHECKING, Any, Final

from lessons_lib.core.paths import DATA_DIR, WORKSPACE_DIR
from lessons_lib.core.trace import Trace
from lessons_lib.engine.offline_model import FAILURE_PREFIX
from lessons_lib.lab.whatif import abbreviate

if TYPE_CHECKING:
    pass

ARCHIVE_DIR: Final = DATA_DIR / "archive"
"""The second service's root (served as ``/workspace`` too): same file name, other content."""
OUTSIDE_PATH: Final = "/workspace/../etc/passwd"
MISSING_PATH: Final = "/workspace/missing.txt"
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


# ------------------------------------------------------------------ helpers on one trace
def mcp_pairs(trace: Trace) -> list[tuple[dict[str, Any], dict[str, Any] | None, str]]:
    """Every MCP tools/call request with its reply and the service it went to."""
    events = [e for e in trace.events if e["channel"] == "mcp" and e["label"] == "tools/call"]
    out = []
    for e in (e for e in events if "method" in e["body"]):
        reply = next(
            (
                r["body"]
                for r in events
                if "method" not in r["body"]
                and r["from"] == e["to"]
                and r["body"].get("id") == e["body"].get("id")
            ),
            None,
        )
        out.append((e["body"], reply, str(e["to"])))
    return out


def feedback_items(trace: Trace) -> dict[str, str]:
    """call_id -> ``function_call_output.output`` as the model received it (second request)."""
    body = trace.body("request_2", channel="model") or {}
    return {
        i["call_id"]: i["output"] for i in body.get("input") or [] if i.get("type") == "function_call_output"
    }


def model_calls(trace: Trace) -> list[dict[str, Any]]:
    body = trace.body("response_1", channel="model") or {}
    return [i for i in body.get("output") or [] if i.get("type") == "function_call"]


def reply_text(reply: dict[str, Any] | None) -> str:
    result = (reply or {}).get("result") or {}
    return "\n".join(c.get("text", "") for c in result.get("content") or [] if c.get("type") == "text")


def verifiers(trace: Trace) -> list[tuple[str, Any]]:
    """(name, report) from ``diagnose`` and ``verify_roundtrip``."""
    from lessons_lib.checks.doctor import diagnose
    from lessons_lib.checks.verify import verify_roundtrip

    data = trace.to_dict()
    return [("diagnose", diagnose(data)), ("verify_roundtrip", verify_roundtrip(data, sabotage=False))]


def verdict_line(report: Any) -> str:
    """One line from a verifier report: its verdict, or PASS/FAIL counts."""
    if hasattr(report, "verdict"):
        return str(report.verdict())
    checks = getattr(report, "checks", [])
    failed = [c for c in checks if not c.passed]
    return "全部通过" if not failed else "未通过：" + "；".join(f"{c.name}（{c.reason}）" for c in failed[:2])


# ------------------------------------------------------------------ the scenario results
@dataclass
class ScenarioResult:
    """A scenario's run: trace, key facts, the checks behind the verdict, the verifiers' verdicts."""

    scenario: Scenario
    trace: Trace
    facts: list[tuple[str, str]]
    checks: list[tuple[str, bool]]
    reports: list[tuple[str, Any]]

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
        facts = "".join(
            f"<tr><td>{html.escape(k)}</td><td><code>{html.escape(v)}</code></td></tr>" for k, v in self.facts
        )
        checks = "".join(f"<li>{'✓' if held else '✗'} {html.escape(what)}</li>" for what, held in self.checks)
        reports = "".join(
            f"<li><b>{html.escape(n)}</b>：{html.escape(verdict_line(r))}</li>" for n, r in self.reports
        )
        return (
            f'<div class="lessons-scenario"><h4>{html.escape(s.title)}</h4>'
            f"<p>问题：{html.escape(s.question)}</p>"
            f'<table style="font-size:13px">{facts}</table><p>核对：</p><ul>{checks}</ul>'
            f"<p>验证器：</p><ul>{reports}</ul><p><b>结论：{html.escape(self.verdict)}</b></p></div>"
        )

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **kw: Any) -> dict[str, str]:
        return {"text/plain": self.text(), "text/html": self.html()}

    def __repr__(self) -> str:
        status = self.trace.outcome.get("status")
        return f"ScenarioResult({self.scenario.name!r}, ok={self.ok}, outcome={status!r})"


def _no_second_request() -> tuple[Trace, list[tuple[str, str]], list[tuple[str, bool]]]:
    from lessons_lib.engine.host import Limits, run_chain

    trace = run_chain(limits=Limits(max_rounds=1))
    pairs = mcp_pairs(trace)
    reply = pairs[0][1] if pairs else None
    held = reply_text(reply)
    sent = [e for e in trace.events if e["channel"] == "model" and e["label"].startswith("request_")]
    fed = any(i.get("type") == "function_call_output" for e in sent for i in e["body"].get("input") or [])
    facts = [
        ("模型请求次数", str(len(sent))),
        (
            "MCP 执行结果",
            f"isError={json.dumps((reply or {}).get('result', {}).get('isError'))}，"
            f"{len(held.splitlines())} 行",
        ),
        ("应用手里的反馈", abbreviate(held)),
        ("模型输入里的 function_call_output", "有" if fed else "没有"),
        ("答复", trace.answer or "（没有答复）"),
        ("结果", f"{trace.outcome['status']}：{trace.outcome['reason']}"),
    ]
    checks = [
        (
            "服务确实读了文件（MCP 响应 isError=false，有文本）",
            bool(held) and not (reply or {})["result"].get("isError"),
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
    calls = {c["call_id"]: c for c in model_calls(trace)}
    pairs = {(p[2], p[0].get("id")): p for p in mcp_pairs(trace)}  # JSON-RPC ids repeat across services
    outputs = feedback_items(trace)
    facts = [("声明的别名", "、".join(t["alias"] for t in trace.tools))]
    routed = untouched = paired = True
    texts = []
    for link in trace.links:
        call, (request, reply, service) = calls[link["call_id"]], pairs[(link["service"], link["mcp_id"])]
        text = reply_text(reply)
        texts.append(text)
        sent = json.dumps(request["params"]["arguments"], ensure_ascii=False)
        first = text.splitlines()[0] if text else ""
        facts.append(
            (
                call["name"],
                f"→ 服务 {service}，MCP params.name={request['params']['name']}，"
                f"arguments {call['arguments']} → params.arguments {sent}，第一行：{first}",
            )
        )
        routed &= service == call["name"].split("__")[0] and request["params"]["name"] == "read_text_file"
        untouched &= json.loads(call["arguments"]) == request["params"]["arguments"]
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

        trace = run_chain(path=path, head=20)
        call = model_calls(trace)[0]
        request, reply, _ = mcp_pairs(trace)[0]
        message = reply_text(reply)
        output = feedback_items(trace).get(call["call_id"], "")
        answer = trace.answer or ""
        schema = schema_check(trace, call["name"], call["arguments"])
        facts = [
            ("arguments", call["arguments"]),
            ("schema 检查（jsonschema，示意）", schema),
            (
                "MCP result",
                f"isError={json.dumps(reply['result'].get('isError'))}：{message}" if reply else "无",
            ),
            ("function_call_output.output", output),
            ("答复", answer),
        ]
        checks = [
            ("schema 检查通过（输入结构没有问题）", schema == "通过"),
            (
                "服务拒绝读取：isError=true，没有文件内容",
                (reply or {}).get("result", {}).get("isError") is True,
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


def schema_check(trace: Trace, alias: str, arguments: str) -> str:
    """What a JSON Schema check of ``arguments`` against the ``parameters`` declared for ``alias`` says.

    With ``strict: false`` the Responses API does not enforce the schema; this is the check an
    application could run itself (``jsonschema``), shown for comparison.
    """
    request = trace.body("request_1", channel="model") or {}
    tool = next((t for t in request.get("tools") or [] if t.get("name") == alias), None)
    if tool is None:
        return f"无法检查：没有名为 {alias} 的工具声明"
    return schema_verdict(tool["parameters"], arguments)


def schema_verdict(parameters: dict[str, Any], arguments: str) -> str:
    """``通过`` or ``不通过：<the best jsonschema error>`` for one ``arguments`` text."""
    import jsonschema

    try:
        value = json.loads(arguments)
    except ValueError:
        return "无法检查：arguments 不是合法的 JSON 文本"
    validator = jsonschema.validators.validator_for(parameters)(parameters)
    error = jsonschema.exceptions.best_match(validator.iter_errors(value))
    return "通过" if error is None else f"不通过：{error.message}"


_BAD_NAMES: Final = (
    "BAD_VALUES",
    "BadValue",
    "BadValueResult",
    "BadValueTable",
    "bad_values_table",
    "run_bad_value",
)


def __getattr__(name: str) -> Any:
    """The bad values live in ``lessons_lib.lab.badvalues``; they are reachable from here too."""
    if name in _BAD_NAMES:
        from lessons_lib.lab import badvalues

        return getattr(badvalues, name)
    raise AttributeError(f"module 'lessons_lib.lab.scenarios' has no attribute {name!r}")


__all__ = [
    "ARCHIVE_DIR",
    "SCENARIOS",
    "Scenario",
    "ScenarioResult",
    "run_scenario",
    "schema_check",
    "schema_verdict",
    *_BAD_NAMES,
]
