"""How a run ended, for programs and for readers. Introduced in lesson 05.

A trace's ``outcome`` keeps two things apart: ``status`` and ``reason`` are stable English
for programs and tests (``status`` one of ``answered``/``stopped``/``error``, ``reason`` one
line that may carry a value, e.g. ``max_rounds=1``), and ``text`` says the same for the
lessons. A trace written before ``text`` existed is still shown: its reason follows the status's
word, in the current language (``lessons_lib.core.messages``). Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from lessons_lib.core.messages import t
from lessons_lib.core.traces.tracetypes import Outcome, Status

RUN_STATUSES: Final = ("running", "answered", "stopped", "error")
"""The statuses with a word of their own (``outcomes.status.<status>`` in the catalogue)."""


def run_status_word(status: str) -> str:
    """A run's status in words, in the current language (``已停止`` / ``Stopped``); else as it is."""
    return t(f"outcomes.status.{status}") if status in RUN_STATUSES else status


def make_outcome(status: Status, reason: str, text: str) -> Outcome:
    """An outcome with its stable English ``reason`` and its Chinese ``text`` (lesson 05)."""
    return {"status": status, "reason": reason, "text": text}


def outcome_text(outcome: Mapping[str, object]) -> str:
    """One line: ``已停止（stopped）：已到轮数上限……``; the reason when there is no text."""
    status = str(outcome.get("status", ""))
    said = outcome.get("text") or outcome.get("reason") or ""
    return t("outcomes.line", word=run_status_word(status), status=status, said=said)


def answer_or_none(answer: str | None) -> str:
    """The model's answer to show, or words saying there is none (never the text ``None``)."""
    return answer if answer is not None else t("hostile.no_answer")
