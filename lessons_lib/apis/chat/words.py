"""How the lessons name the parts of a Chat Completions exchange (the diagrams and ``narrate``). Lesson 20.

``views.apiviews`` reads these through the API registry entry's ``words``. Field names only;
the phrases that are messages (the feedback and answer lines, the name of the feedback item) are
``{messages}.*`` entries of the message catalogue, looked up by ``views.apiviews`` when shown.
Standard library only.
"""

from __future__ import annotations

from typing import Final

from lessons_lib.core.plugins.apitypes import ApiWords

WORDS: Final = ApiWords(
    call="tool_calls[]",
    arguments="arguments",
    answer="content",
    call_id="tool_call_id",
    messages="apis_words.chat",
)
