"""How the lessons name the parts of an Anthropic Messages exchange (the diagrams and ``narrate``). Lesson 20.

``views.apiviews`` finds this module through the API registry's ``words`` entry. Standard library only.
"""

from __future__ import annotations

from typing import Final

WORDS: Final[dict[str, str]] = {
    # Responses item name -> the same part in this API (missing rows of the sequence diagram)
    "function_call_output": "tool_result 块",
    "function_call": "tool_use",
    "call_id": "tool_use_id",
}
CALL: Final = "tool_use"
"""One call item, as the summaries name it."""
ARGUMENTS: Final = "input"
ANSWER: Final = "text"
FEEDBACK_LINE: Final = "tool_result（role: user）"
ANSWER_LINE: Final = "text 块：答复文本"
