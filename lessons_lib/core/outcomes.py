"""How a run ended, for programs and for readers. Introduced in lesson 05.

A trace's ``outcome`` keeps two things apart: ``status`` and ``reason`` are stable English
for programs and tests (``status`` one of ``answered``/``stopped``/``error``, ``reason`` one
line that may carry a value, e.g. ``max_rounds=1``), and ``text`` says the same in Chinese for
the lessons. A trace written before ``text`` existed is still shown: its reason follows the
status in Chinese. Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from lessons_lib.core.tracetypes import Outcome, Status

STATUS_ZH: Final[dict[str, str]] = {
    "running": "运行中",
    "answered": "已答复",
    "stopped": "已停止",
    "error": "出错",
}


def make_outcome(status: Status, reason: str, text: str) -> Outcome:
    """An outcome with its stable English ``reason`` and its Chinese ``text`` (lesson 05)."""
    return {"status": status, "reason": reason, "text": text}


def outcome_text(outcome: Mapping[str, object]) -> str:
    """One Chinese line: ``已停止（stopped）：已到轮数上限……``; the reason when there is no text."""
    status = str(outcome.get("status", ""))
    said = outcome.get("text") or outcome.get("reason") or ""
    return f"{STATUS_ZH.get(status, status)}（{status}）：{said}"
