"""The 动手 of lesson 41: write one Chat Completions tool declaration from an OpenAPI operation.

``check_declaration(answer)`` compares the learner's declaration for ``search_delivery_policy``
with what the converter generates and with the official ``ChatCompletionTool`` schema. An
unfilled answer (``None`` or containing ``...``) gets "还没有完成" and a hint, never an error. The
answer is a :class:`~lessons_lib.core.verdict.Verdict` drawn as plain ``lines``.
"""

from __future__ import annotations

import json
from typing import Final

from lessons_lib.core.glossary import status_word
from lessons_lib.core.jsonvalue import get_in
from lessons_lib.core.messages import t
from lessons_lib.core.verdict import Verdict

TARGET: Final = "search_delivery_policy"


def hint() -> str:
    """The hint shown with an unfinished or wrong answer, in the current language."""
    return t("openapi.exercise.hint")


def _unfilled(answer: object) -> bool:
    return answer is None or answer is ... or "Ellipsis" in repr(answer)


def check_declaration(answer: object) -> Verdict:
    """Check a Chat Completions declaration for ``search_delivery_policy`` (lesson 41)."""
    from lessons_lib.apis.chat import ENTRY as CHAT
    from lessons_lib.engine.specs import tool_errors
    from lessons_lib.examples.openapi.app import openapi_document
    from lessons_lib.examples.openapi.tools import chat_tool, operations

    if _unfilled(answer):
        return Verdict(False, (t("openapi.exercise.unfilled"),), hint(), unfinished=True)
    if not isinstance(answer, dict):
        return Verdict(False, (t("openapi.exercise.not_dict", type=type(answer).__name__),), hint())
    expected = chat_tool(next(op for op in operations(openapi_document()) if op.name == TARGET))
    lines, ok = [], True
    errors = tool_errors(CHAT.name, answer)
    verdict = status_word("pass") if not errors else t("openapi.exercise.schema_error", error=errors[0])
    lines.append(t("openapi.exercise.schema", verdict=verdict))
    ok &= not errors
    raw = answer.get("function")
    function: dict[object, object] = raw if isinstance(raw, dict) else {}
    for key in ("name", "description", "parameters"):
        same = json.dumps(function.get(key), sort_keys=True) == json.dumps(
            get_in(expected, "function", key), sort_keys=True
        )
        ok &= same
        lines.append(t("openapi.exercise.same" if same else "openapi.exercise.different", key=key))
    if "security" in json.dumps(answer) or "Authorization" in json.dumps(answer):
        ok = False
        lines.append(t("openapi.exercise.auth"))
    lines.insert(0, t("openapi.exercise.done") if ok else t("openapi.exercise.almost"))
    return Verdict(ok, tuple(lines))
