"""Reports of the offline verifiers: ``Check`` lines and the ``Report`` that shows them. Lesson 07.

A ``Report`` renders as plain text (what the command line prints) and as an HTML table in
Jupyter. ``run_check`` runs one check function: its return value is the PASS reason, a
``Fail`` or any other error becomes a FAIL line with a reason, never an exception.
Standard library only.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, field

from lessons_lib.checks.jsoncheck import Fail
from lessons_lib.core.display import Displayable
from lessons_lib.core.htmltable import Cell, html_table, status, status_badge


@dataclass(frozen=True)
class Check:
    """One line of a report: a named check, PASS or FAIL, and the reason."""

    key: str
    name: str
    passed: bool
    reason: str


@dataclass(repr=False)
class Report(Displayable):
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
        lines = [self.title] + [f"{mark(c)}  {c.name}：{c.reason}" for c in self.checks]
        if self.sabotages:
            lines.append("破坏试验（每一种都应当被拒绝）：")
            lines += [f"{mark(c)}  {c.name}：{c.reason}" for c in self.sabotages]
        if self.cannot_prove:
            lines.append("本地核对不能证明的事：")
            lines += [f"  - {what}（{criterion}）：{cannot}" for what, criterion, cannot in self.cannot_prove]
        n_bad = len(self.failed)
        lines.append("结论：全部通过。" if self.ok else f"结论：{n_bad} 项未通过。")
        return "\n".join(lines)

    def repr_args(self) -> str:
        return f"title={self.title!r}, ok={self.ok}, failed={[c.key for c in self.failed]}"

    def html(self) -> str:
        rows = [(mark_cell(c), c.name, c.reason) for c in self.checks]
        rows += [(mark_cell(c), f"破坏：{c.name}", c.reason) for c in self.sabotages]
        body = html_table(("结果", "检查", "原因"), rows)
        limits = ""
        if self.cannot_prove:
            limits = "<p>本地核对不能证明的事：</p>" + html_table(
                ("核对", "成功判据", "不能证明的事"), self.cannot_prove
            )
        verdict = (
            status_badge("pass", "全部通过")
            if self.ok
            else status_badge("fail", f"{len(self.failed)} 项未通过")
        )
        title = f"<p><b>{esc(self.title)}</b></p>"
        return f'<div class="lessons-report">{title}{body}{limits}<p>结论：{verdict}</p></div>'


def mark(check: Check) -> str:
    """PASS or FAIL."""
    return "PASS" if check.passed else "FAIL"


def mark_cell(check: Check) -> Cell:
    """PASS or FAIL as a table cell in the status colours."""
    return status("pass" if check.passed else "fail", mark(check))


def run_check(key: str, name: str, fn: Callable[..., str], *args: object) -> Check:
    """Run one check: its return is the PASS reason; Fail or any error becomes a FAIL line."""
    try:
        return Check(key, name, True, fn(*args))
    except Fail as exc:
        return Check(key, name, False, str(exc))
    except Exception as exc:  # a wrong shape must FAIL with a reason, never raise
        return Check(key, name, False, f"形状不对，无法核对（{type(exc).__name__}: {exc}）")


def esc(value: object) -> str:
    """A value as HTML-escaped text."""
    return html.escape(str(value))
