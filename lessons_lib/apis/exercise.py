"""The exercise of lesson 20: write the feedback message of Chat or Anthropic yourself.

``check_feedback_message(api, message)`` puts the learner's message where the application
would (the last message of the recorded ``request_2``), then judges it two ways: the API's
own checks of ``verify_roundtrip`` (offline), and the stand-in of that API reached through the
real SDK (``replay``), which answers 400 where the real API would. A blank (``None`` or
``...``) gets "还没有完成" and a hint, never an exception. The answer is a
:class:`~lessons_lib.core.verdict.Verdict` drawn as plain ``lines``.
"""

from __future__ import annotations

import copy
import json
from typing import Final

from lessons_lib.core.messages import t
from lessons_lib.core.paths import DATA_DIR
from lessons_lib.core.verdict import Verdict

HINTS: Final = {"chat": "apis_exercise.hint.chat", "anthropic": "apis_exercise.hint.anthropic"}
"""The catalogue key of each API's hint."""


def _blank(value: object) -> bool:
    return value is None or value is Ellipsis or (isinstance(value, dict) and Ellipsis in value.values())


def check_feedback_message(api: str, message: object) -> Verdict:
    """Judge the learner's feedback message for ``api`` ("chat" or "anthropic"). Lesson 20."""
    if api not in HINTS:
        return Verdict(False, (t("apis_exercise.wrong_api", api=repr(api)),))
    hint = t(HINTS[api])
    if _blank(message):
        return Verdict(False, (t("apis_exercise.blank"),), hint, unfinished=True)
    if not isinstance(message, dict):
        return Verdict(False, (t("apis_exercise.not_dict", type=type(message).__name__),), hint)
    from lessons_lib.apis.replay import replay
    from lessons_lib.checks.verify import verify_roundtrip

    roundtrip = json.loads((DATA_DIR / api / "roundtrip.json").read_text(encoding="utf-8"))
    roundtrip["request_2"]["messages"][-1] = copy.deepcopy(message)
    report = verify_roundtrip(roundtrip, sabotage=False)
    failed = report.failed
    reply = replay(api, roundtrip["request_2"])
    lines = [t("apis_exercise.failed_check", name=c.name, reason=c.reason) for c in failed] or [
        t("apis_exercise.all_passed", n=len(report.checks))
    ]
    lines.append(
        t("apis_exercise.standin_error", status=reply.status, error=reply.error_message)
        if reply.error_message
        else t("apis_exercise.standin_ok", status=reply.status)
    )
    if failed or not reply.ok:
        return Verdict(False, (t("apis_exercise.almost"), *lines), hint)
    return Verdict(True, (t("apis_exercise.done"), *lines))
