"""How the lessons name the parts of a Chat Completions exchange (the diagrams and ``narrate``). Lesson 20.

``views.apiviews`` finds this module through the API registry's ``words`` entry. ``WORDS``,
``FEEDBACK_LINE`` and ``ANSWER_LINE`` are read in the current language when they are used
(``apis_words.chat.*`` in the message catalogue). Standard library only.
"""

from __future__ import annotations

from typing import Any, Final

from lessons_lib.core.messages import t

CALL: Final = "tool_calls[]"
"""One call item, as the summaries name it."""
ARGUMENTS: Final = "arguments"
ANSWER: Final = "content"


def __getattr__(name: str) -> Any:
    """``WORDS`` (Responses item name -> the same part in this API, for the missing rows of the
    sequence diagram), ``FEEDBACK_LINE`` and ``ANSWER_LINE``, in the current language."""
    if name == "WORDS":
        return {
            "function_call_output": t("apis_words.chat.function_call_output"),
            "function_call": "tool_calls[]",
            "call_id": "tool_call_id",
        }
    if name in ("FEEDBACK_LINE", "ANSWER_LINE"):
        return t(f"apis_words.chat.{name.lower()}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
