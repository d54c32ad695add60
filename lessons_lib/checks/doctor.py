"""The chain doctor: walk the troubleshooting order and name the first broken link. Lesson 08.

The source lesson's troubleshooting order checks, in order: 模型响应、解析结果、路由目标、服务检查、实际反馈、
关联标识、后续模型输入 -- and never to infer from a plausible final answer that the tool ran.
``diagnose`` does exactly that on a full trace (format ``lessons_lib.trace/1``, offline, live or
edited by hand): each link gets its evidence, the walk stops at the first broken one. A tool
failure that is fed back honestly is not a broken link. When ``response_1`` holds several
function_calls (two services), every call is walked through each link. The steps themselves
live in ``lessons_lib.checks._chainsteps``. Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from lessons_lib.checks._chainsteps import LINK_NAMES, WALK, Chain
from lessons_lib.checks.apis.verify import api_problems
from lessons_lib.checks.apis.view import api_of, responses_trace
from lessons_lib.checks.attachments import roundtrip_from_trace
from lessons_lib.checks.evidence import as_dict, attachment_kind, call_items, model_body, require_trace
from lessons_lib.checks.jsoncheck import Fail, load_json
from lessons_lib.checks.verify_report import esc
from lessons_lib.core.display import Displayable
from lessons_lib.core.glossary import Status
from lessons_lib.core.htmltable import html_table, status, status_badge
from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.messages import t
from lessons_lib.core.plugins.apiregistry import is_reference

STATUS_OF: Final[dict[str, Status]] = {"ok": "pass", "broken": "fail", "unchecked": "unchecked"}
"""Each link status in the verdict palette: a broken link is a failure."""


def status_name(link_status: str) -> str:
    """A link's status (``ok``, ``broken``, ``unchecked``) in the current language (``断开`` / ``broken``)."""
    return t(f"doctor.status.{link_status}")


@dataclass(frozen=True)
class Finding:
    """One link of the chain: its status (ok, broken, unchecked) and the evidence."""

    key: str
    name: str
    status: str
    evidence: str


@dataclass(repr=False)
class Diagnosis(Displayable):
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
            return t("doctor.first_broken", name=self.broken.name, evidence=self.broken.evidence)
        if self.tool_failed:
            return t("doctor.whole_tool_failed")
        return t("doctor.whole")

    @property
    def title(self) -> str:
        return t("doctor.title")

    def text(self) -> str:
        lines = [self.title]
        lines += [
            f"{n}. {f.name}  {status_name(f.status)}  {f.evidence}" for n, f in enumerate(self.findings, 1)
        ]
        return "\n".join([*lines, t("doctor.verdict_label") + self.verdict()])

    def repr_args(self) -> str:
        return f"ok={self.ok}, broken_link={self.broken_link!r}"

    def html(self) -> str:
        rows = [
            (n, f.name, status(STATUS_OF[f.status], status_name(f.status)), f.evidence)
            for n, f in enumerate(self.findings, 1)
        ]
        head = tuple(t(f"doctor.head.{h}") for h in ("n", "link", "status", "evidence"))
        table = html_table(head, rows, nowrap=(0, 1))
        verdict = (
            status_badge("pass", status_name("ok"))
            if self.ok
            else status_badge("fail", status_name("broken"))
        )
        label = esc(t("doctor.verdict_label"))
        return f'<div class="lessons-diagnosis">{table}<p>{label}{verdict} {esc(self.verdict())}</p></div>'


def diagnose(trace: object) -> Diagnosis:
    """Walk the seven links of a trace in the troubleshooting order; stop at the first broken one. Lesson 08.

    ``trace`` is a trace dict, a ``lessons_lib.core.traces.trace.Trace`` or a path to a trace file;
    anything that is not a trace raises ValueError with one sentence saying what to do.
    """
    original = _as_trace(trace)
    api = api_of(original)  # Chat / Anthropic (lesson 22): walk the Responses view of the same parts
    data = original if is_reference(api) else responses_trace(original, api)
    chains = [Chain(data, n) for n in range(max(1, len(call_items(model_body(data, "response_1")))))]
    findings: list[Finding] = []
    for (key, name), step in zip(LINK_NAMES, WALK, strict=True):
        if findings and findings[-1].status != "ok":
            findings.append(Finding(key, name, "unchecked", t("doctor.fix_earlier")))
        else:
            findings.append(_walk_step(key, name, step, chains))
    if not is_reference(api):
        findings = _with_api_problems(findings, api_problems(roundtrip_from_trace(original), api))
    return Diagnosis(findings, tool_failed=any(c.tool_failed for c in chains))


def _with_api_problems(findings: list[Finding], problems: list[tuple[str, str]]) -> list[Finding]:
    """The earliest API-specific break (in that API's words) replaces a later or equal generic one."""
    order = [key for key, _ in LINK_NAMES]
    broken = next((n for n, f in enumerate(findings) if f.status == "broken"), len(findings))
    found = sorted((order.index(link), reason) for link, reason in problems)
    if not found or found[0][0] > broken:
        return findings
    at, reason = found[0]
    rest = [Finding(f.key, f.name, "unchecked", t("doctor.fix_earlier")) for f in findings[at + 1 :]]
    return [*findings[:at], Finding(findings[at].key, findings[at].name, "broken", reason), *rest]


def _walk_step(key: str, name: str, step: Callable[[Chain], str], chains: list[Chain]) -> Finding:
    """One link for every call: ok with each call's evidence, or broken at the first call that breaks it."""
    evidence = []
    for chain in chains:
        which = t("doctor.which_call", n=chain.index + 1) if len(chains) > 1 else ""
        try:
            evidence.append(which + step(chain))
        except Fail as exc:
            return Finding(key, name, "broken", which + str(exc))
        except Exception as exc:  # a hand-edited trace with a shape we did not expect
            error = f"{type(exc).__name__}: {exc}"
            return Finding(key, name, "broken", t("doctor.wrong_shape", which=which, error=error))
    return Finding(key, name, "ok", " ".join(evidence))


def _as_trace(trace: object) -> JSONObject:
    if isinstance(trace, str | Path):
        try:
            trace = load_json(trace)
        except Fail as exc:
            raise ValueError(str(exc)) from None
    data = as_dict(trace)
    kind = attachment_kind(data)
    if kind in ("fragments", "roundtrip"):
        raise ValueError(t("doctor.not_a_trace", kind=kind))
    return require_trace(data)
