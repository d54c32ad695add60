"""The live cell: run the chain against a real model when ``OPENAI_API_KEY`` is set. Lesson 00.

Without a key, :func:`try_live` shows exactly one deterministic line (the course runs offline
and says how to go live), so a notebook's stored output is the same on every machine without a
key. With a key it runs the same loop with the real model, then checks the live trace with the
course's verifiers (``verify_roundtrip`` and, when available, ``diagnose``). JSON failure (HTTP
401, no network, a crash) shows a reason, never a traceback, and never the key.
"""

from __future__ import annotations

import html
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lessons_lib.core.display import Displayable
from lessons_lib.core.example import EXAMPLE_HEAD
from lessons_lib.core.htmltable import PRE_STYLE
from lessons_lib.core.messages import t
from lessons_lib.engine.redact import redact

if TYPE_CHECKING:
    from lessons_lib.core.traces.trace import Trace

_HTML_STYLE = f"font-family:ui-monospace,Menlo,Consolas,monospace;{PRE_STYLE};margin:0"


@dataclass(frozen=True, repr=False)
class LiveResult(Displayable):
    """What the live cell shows: the offline line, or a live run's account and verdicts."""

    mode: str  # "offline" or "live"
    headline: str
    sections: tuple[tuple[str, str], ...] = ()  # (title, text) blocks shown under the headline
    status: str = "offline"  # outcome status of the live run ("answered", "error", ...)
    trace: object = field(default=None, compare=False)

    def text(self) -> str:
        """Plain text: the headline, then each section under its title."""
        lines = [self.headline]
        for title, body in self.sections:
            lines += ["", f"== {title} ==", body]
        return "\n".join(lines)

    def html(self) -> str:
        if not self.sections:
            return f"<p>{html.escape(self.headline)}</p>"
        parts = [f"<p><b>{html.escape(self.headline)}</b></p>"]
        for title, body in self.sections:
            parts.append(f'<p>{html.escape(title)}</p><pre style="{_HTML_STYLE}">{html.escape(body)}</pre>')
        return '<div class="lessons-live">' + "".join(parts) + "</div>"

    def repr_args(self) -> str:
        return f"mode={self.mode!r}, status={self.status!r}"


def try_live(head: int = EXAMPLE_HEAD) -> LiveResult:
    """Run the chain once with the real model if a key is set; otherwise say how to go live."""
    from lessons_lib.engine.models import enable_live_hint, live_setting

    try:
        setting = live_setting()
    except ValueError as exc:  # a malformed OPENAI_BASE_URL: one line, no run
        return _redacted(LiveResult("live", t("live.not_started", error=exc), status="error"), _key())
    if setting is None:
        return LiveResult("offline", enable_live_hint())
    try:
        result = _live_run(head, setting.name)
    except Exception as exc:  # the live cell never shows a traceback
        result = _failed(exc)
    return _redacted(result, _key())


def _key() -> str:
    return os.environ.get("OPENAI_API_KEY", "").strip()


def _live_run(head: int, name: str) -> LiveResult:
    from lessons_lib.engine.host import run_chain
    from lessons_lib.views.narrate import narrate

    trace = run_chain(live=True, head=head)
    status = str(trace.outcome.get("status"))
    reason = str(trace.outcome.get("text") or trace.outcome.get("reason"))  # the run's language
    sections: list[tuple[str, str]] = [(t("live.record"), narrate(trace))]
    if status == "answered":
        headline = t("live.answered", name=name, reason=reason)
        sections.append((t("live.verify"), _verify(trace)))
    else:
        headline = t("live.no_answer", status=status, reason=reason)
    sections.append((t("live.diagnose"), _diagnose(trace)))
    return LiveResult("live", headline, tuple(sections), status, trace)


def _failed(exc: BaseException) -> LiveResult:
    """One line for a run that raised (stops and HTTP errors arrive as the trace's outcome)."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]  # a task group wraps the one error that stopped the run
    return LiveResult("live", t("live.failed", error=f"{type(exc).__name__}: {exc}"), status="error")


def _verify(trace: Trace) -> str:
    from lessons_lib.checks.attachments import roundtrip_from_trace
    from lessons_lib.checks.verify import verify_roundtrip

    return str(verify_roundtrip(roundtrip_from_trace(trace.to_dict())))


def _diagnose(trace: object) -> str:
    from lessons_lib.checks.doctor import diagnose

    try:
        return str(diagnose(trace))
    except Exception as exc:  # a verdict, not a crash
        return t("live.diagnose_failed", error=f"{type(exc).__name__}: {exc}")


def _redacted(result: LiveResult, key: str) -> LiveResult:
    """The same result with the key removed from every shown text."""
    return LiveResult(
        result.mode,
        redact(result.headline, key),
        tuple((title, redact(body, key)) for title, body in result.sections),
        result.status,
        result.trace,
    )
