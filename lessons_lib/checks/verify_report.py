"""Reports of the offline verifiers: ``Check`` lines and the ``Report`` that shows them. Lesson 07.

:class:`CheckReport` is the one protocol of a checker's answer: the verifiers' ``Report`` (lesson
07), the doctor's ``Diagnosis`` (lesson 08) and ``verify_calls``' ``ManyCallsReport`` (lesson 31)
each have a title, ``ok``, a one-line conclusion (``verdict()``), a text and an HTML form; the
command lines take any of them.

A ``Report`` renders as plain text (what the command line prints) and as an HTML table in
Jupyter. ``run_check`` runs one check function: its return value is the PASS reason, a
``Fail`` or any other error becomes a FAIL line with a reason, never an exception.
Standard library only.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Container
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from lessons_lib.checks.jsoncheck import Fail
from lessons_lib.core.display import Displayable
from lessons_lib.core.htmltable import Cell, html_table, status, status_badge
from lessons_lib.core.messages import t


@runtime_checkable
class CheckReport(Protocol):
    """What every checker's answer offers, whichever checker gave it (lessons 07, 08, 31)."""

    @property
    def title(self) -> str:
        """The checker's name, the first line of the text."""
        ...

    @property
    def ok(self) -> bool:
        """True when everything checked holds (a command exits 0)."""
        ...

    def verdict(self) -> str:
        """The one-line conclusion, the text's last line."""
        ...

    def text(self) -> str:
        """The plain-text form (what a command prints)."""
        ...

    def html(self) -> str | None:
        """The HTML form Jupyter shows."""
        ...

    def _repr_mimebundle_(
        self, include: Container[str] | None = None, exclude: Container[str] | None = None, **kwargs: object
    ) -> dict[str, str]: ...


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
        lines = [self.title] + [line(c) for c in self.checks]
        if self.sabotages:
            lines.append(t("verify_report.sabotages"))
            lines += [line(c) for c in self.sabotages]
        if self.cannot_prove:
            lines.append(t("verify_report.limits"))
            lines += [
                t("verify_report.limit", what=what, criterion=criterion, cannot=cannot)
                for what, criterion, cannot in self.cannot_prove
            ]
        return "\n".join([*lines, self.verdict()])

    def verdict(self) -> str:
        """All passed, or how many checks failed."""
        return t("verify_report.all_passed") if self.ok else t("verify_report.n_failed", n=len(self.failed))

    def repr_args(self) -> str:
        return f"title={self.title!r}, ok={self.ok}, failed={[c.key for c in self.failed]}"

    def html(self) -> str:
        rows = [(mark_cell(c), c.name, c.reason) for c in self.checks]
        rows += [
            (mark_cell(c), t("verify_report.sabotage_row", name=c.name), c.reason) for c in self.sabotages
        ]
        body = html_table(_heads("result", "check", "reason"), rows)
        limits = ""
        if self.cannot_prove:
            limits = f"<p>{esc(t('verify_report.limits'))}</p>" + html_table(
                _heads("checked", "criterion", "cannot"), self.cannot_prove
            )
        verdict = (
            status_badge("pass", t("verify_report.badge.all_passed"))
            if self.ok
            else status_badge("fail", t("verify_report.badge.n_failed", n=len(self.failed)))
        )
        title = f"<p><b>{esc(self.title)}</b></p>"
        said = t("verify_report.verdict", verdict=verdict)
        return f'<div class="lessons-report">{title}{body}{limits}<p>{said}</p></div>'


def _heads(*keys: str) -> tuple[str, ...]:
    return tuple(t(f"verify_report.head.{key}") for key in keys)


def line(check: Check) -> str:
    """One check as a line of the plain-text report: PASS or FAIL, its name and the reason."""
    return t("verify_report.line", mark=mark(check), name=check.name, reason=check.reason)


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
        return Check(key, name, False, t("verify_report.bad_shape", error=type(exc).__name__, detail=exc))


def esc(value: object) -> str:
    """A value as HTML-escaped text."""
    return html.escape(str(value))
