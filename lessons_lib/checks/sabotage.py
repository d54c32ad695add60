"""The sabotage catalogue: one deliberate mistake per common error of the seed. Lesson 08.

Section 8 of the seed lists seven mistakes. Each entry of ``SABOTAGES`` makes one of them in
a copy of a good trace (``apply`` never touches its input; the edits live in
``lessons_lib.checks._mistakes``) and names the link of the troubleshooting order it is expected to
break. ``run_sabotage(name)`` applies it to the recorded trace and shows how ``verify_fields``,
``verify_roundtrip`` and ``diagnose`` answer: every one is rejected, and the doctor names the
broken link. Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from lessons_lib.checks._mistakes import (
    Trace,
    declaration_as_execution,
    format_as_permission,
    logged_not_fed_back,
    mixed_ids,
    parse_as_read,
    raw_as_answer,
    rule_as_value,
)
from lessons_lib.checks.attachments import roundtrip_from_trace
from lessons_lib.checks.doctor import STEP_ZH, Diagnosis, diagnose
from lessons_lib.checks.jsoncheck import Fail, load_json
from lessons_lib.checks.verify import verify_fields, verify_roundtrip
from lessons_lib.checks.verify_report import Report, esc
from lessons_lib.core.display import Displayable
from lessons_lib.core.glossary import Status
from lessons_lib.core.htmltable import html_table, status
from lessons_lib.core.jsonvalue import JSON


@dataclass(frozen=True)
class Sabotage:
    """One deliberate mistake: what it is, what it changes, which link it should break."""

    name: str
    title: str
    mistake: str
    change: str
    link: str
    apply: Callable[[object], Trace] = field(repr=False, compare=False)

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


class Catalogue(Displayable, tuple[Sabotage, ...]):
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

    def repr_args(self) -> str:
        return str(self.names())

    def html(self) -> str:
        rows = [(n, s.name, s.title, s.change, s.link_zh) for n, s in enumerate(self, 1)]
        return html_table(
            ("序号", "名称", "常见错误", "这次改了什么", "预期断开的环节"),
            rows,
            nowrap=(1,),
            code_columns=(1,),
        )


def _entry(
    apply: Callable[[object], Trace], title: str, change: str, link: str, mistake: str = ""
) -> Sabotage:
    """An entry named after its function; the mistake is the title unless the seed words it longer."""
    return Sabotage(apply.__name__, title, mistake or title, change, link, apply)


SABOTAGES: Final = Catalogue(
    (
        _entry(
            declaration_as_execution,
            "把声明当作执行代码",
            "删掉 tools/call 请求与响应，links 的 mcp_id 变成 null，反馈照旧声称有内容",
            "route",
        ),
        _entry(
            rule_as_value,
            "把规则当成实际参数",
            'head 的值变成规则 {"type": "number"}（arguments 文本与 MCP arguments 一起改）',
            "parse",
        ),
        _entry(
            parse_as_read,
            "解析成功就标成读取成功",
            "服务返回 isError: true 的失败，反馈却仍是文件内容",
            "feedback",
        ),
        _entry(
            format_as_permission,
            "把格式正确当作拥有权限",
            "路径改成 /workspace/../etc/passwd，服务却报告读取成功",
            "service",
        ),
        _entry(mixed_ids, "混用两个编号", "function_call_output 的 call_id 写成了 MCP 的 id", "ids"),
        _entry(
            logged_not_fed_back,
            "只写入日志，没有加入模型输入",
            "第二次请求的 input 里删掉 function_call_output",
            "next_input",
            mistake="只写入服务日志却没有把结果加入模型输入",
        ),
        _entry(
            raw_as_answer,
            "把原始工具数据直接说成最终回答",
            "删掉第二轮模型请求与响应，回答换成原始工具文本",
            "next_input",
        ),
    )
)

# ----------------------------------------------------------------------------- running one


@dataclass(repr=False)
class SabotageOutcome(Displayable):
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

    def repr_args(self) -> str:
        return f"name={self.sabotage.name!r}, rejected={self.rejected}, found_link={self.found_link!r}"

    def html(self) -> str:
        head = f"<p>破坏「{esc(self.sabotage.title)}」：{esc(self.sabotage.change)}</p>"
        # green: this check caught the sabotage; grey: it cannot see this mistake; red: wrong link
        found = [not r.ok for r in (self.fields, self.roundtrip)] + [self.as_expected]
        states: list[Status] = ["pass" if f else "unchecked" for f in found[:2]]
        states.append("pass" if found[2] else "fail")
        rows = [
            (who, status(state, what, nowrap=False))
            for (who, what), state in zip(self.lines(), states, strict=True)
        ]
        return head + html_table(("检查", "回答"), rows, nowrap=(0,))


def run_sabotage(name: str, trace: object = None) -> SabotageOutcome:
    """Apply one catalogue entry (to the recorded data/trace.json by default) and check it. Lesson 08."""
    entry = SABOTAGES.get(name)
    broken = entry.apply(_default_trace() if trace is None else trace)
    return SabotageOutcome(
        entry,
        verify_fields(broken),
        verify_roundtrip(roundtrip_from_trace(broken), sabotage=False),
        diagnose(broken),
    )


def _default_trace() -> JSON:
    from lessons_lib.core.paths import DATA_DIR

    try:
        return load_json(DATA_DIR / "trace.json")
    except Fail as exc:
        raise ValueError(str(exc)) from None
