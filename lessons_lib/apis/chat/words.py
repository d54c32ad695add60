"""How the lessons name the parts of a Chat Completions exchange (the diagrams and ``narrate``). Lesson 20.

``views.apiviews`` finds this module through the API registry's ``words`` entry. Standard library only.
"""

from __future__ import annotations

from typing import Final

WORDS: Final[dict[str, str]] = {
    # Responses item name -> the same part in this API (missing rows of the sequence diagram)
    "function_call_output": 'role: "tool" 消息',
    "function_call": "tool_calls[]",
    "call_id": "tool_call_id",
}
CALL: Final = "tool_calls[]"
"""One call item, as the summaries name it."""
ARGUMENTS: Final = "arguments"
ANSWER: Final = "content"
FEEDBACK_LINE: Final = 'role: "tool" 消息'
ANSWER_LINE: Final = "content：答复文本"
