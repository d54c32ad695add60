"""How the lessons name the parts of a Chat Completions exchange (the diagrams and ``narrate``). Lesson 20.

``views.apiviews`` finds this module through the API registry's ``words`` entry. Field names only;
the phrases that are messages (the feedback and answer lines, the name of the feedback item) are
``{MESSAGES}.*`` entries of the message catalogue, looked up by ``views.apiviews`` when shown.
Standard library only.
"""

from __future__ import annotations

from typing import Final

CALL: Final = "tool_calls[]"
"""One call item, as the summaries name it."""
ARGUMENTS: Final = "arguments"
ANSWER: Final = "content"
CALL_ID: Final = "tool_call_id"
MESSAGES: Final = "apis_words.chat"
"""The catalogue prefix of its phrases: ``.function_call_output``, ``.feedback_line``, ``.answer_line``."""
