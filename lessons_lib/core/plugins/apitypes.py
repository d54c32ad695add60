"""The types of a model API plug-in's parts: what its registry entry holds. Lessons 06 and 20.

One message, three spellings (lessons 20-22): each API plug-in (``apis/<name>/``) reads its
own messages into the types here (:class:`ToolCall`, :class:`Feedback`, :class:`DeclaredTool`)
through an :class:`ApiShape`, names its parts in the diagrams with an :class:`ApiWords`, and
lists its own round-trip checks as :data:`CheckRow` and :data:`TrialRow`. The entry itself is
``core.plugins.apiregistry.ApiEntry``. Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Protocol

from lessons_lib.core.jsonvalue import JSON, JSONObject, joined_text


@dataclass(frozen=True)
class ToolCall:
    """One tool call in a model response, in the response's order: the one call type of the
    readers here, the checks and the host loop (``engine.adapters``). Lesson 06.

    ``call_id`` is None and ``name`` "" when the model sent no text there (the item as received,
    ``item``, keeps what it did send: judging a wrong shape is the verifiers' job).
    """

    call_id: str | None
    name: str
    arguments: JSON
    """The ``arguments`` text (Responses, Chat Completions) or the ``input`` object (Anthropic)."""
    item: JSONObject = field(default_factory=dict)


def tool_call(call_id: JSON, name: JSON, arguments: JSON, item: JSONObject) -> ToolCall:
    """A :class:`ToolCall` from the values as received (a non-text id or name counts as absent)."""
    return ToolCall(
        call_id if isinstance(call_id, str) else None, name if isinstance(name, str) else "", arguments, item
    )


@dataclass(frozen=True)
class Feedback:
    """One tool result sent back to the model (``item`` is the item or block as sent)."""

    call_id: JSON
    output: JSON
    """``output`` (Responses) or ``content`` (the others): a text, or a list of text parts."""
    is_error: JSON
    """Anthropic's ``is_error``; None for the OpenAI APIs, which have no such field."""
    item: JSONObject

    def text(self) -> str | None:
        """The output as one text (parts joined by newlines), or None if it is not text."""
        return joined_text(self.output)


@dataclass(frozen=True)
class DeclaredTool:
    """One tool declared to the model: its (alias) name and its rule for the values."""

    name: JSON
    schema: JSON
    item: JSONObject


@dataclass(frozen=True)
class ApiShape:
    """The readers and writers of one model API's messages (``apis/<name>/shapes.py``).

    Every reader takes JSON of any shape and answers an empty list, None or "" where a piece
    is missing: judging a wrong shape is the verifiers' job.
    """

    calls: Callable[[JSON], list[ToolCall]]
    feedback: Callable[[JSON], list[Feedback]]
    answer: Callable[[JSON], str]
    tools: Callable[[JSON], list[DeclaredTool]]
    inputs: Callable[[JSON], list[JSONObject]]
    """The conversation a request carries (Responses ``input``, the others' ``messages``)."""
    call_type: str
    """What lessons call one call item: ``function_call``, ``tool_calls[]`` entry, ``tool_use``."""
    feedback_type: str
    declare: Callable[[str, str, JSONObject], JSONObject]
    """``(name, description, rule) -> declaration``: one tool as this API declares it (lesson 41)."""
    reply: Callable[[str, str, bool], JSONObject]
    """``(call id, text, failed) -> feedback item``: one tool result as this API sends it back (lesson 44)."""


@dataclass(frozen=True)
class ApiWords:
    """How the lessons name an API's parts in the diagrams and ``narrate`` (field names only;
    the phrases are ``{messages}.*`` entries of the message catalogue). Lesson 20."""

    call: str
    """One call item, as the summaries name it."""
    arguments: str
    answer: str
    call_id: str
    messages: str
    """The catalogue prefix of its phrases (``.function_call_output``, ``.feedback_line``...)."""


CheckFn = Callable[[JSONObject], str]
CheckRow = tuple[str, str, str, CheckFn]
"""(key, title, link of the doctor's troubleshooting order, check)."""
TrialRow = tuple[str, str, Callable[[JSONObject], JSONObject]]
"""(key, title, sabotage): a copy broken this way must be rejected."""


class ItemsOfReply(Protocol):
    """``reply_items``: a response's parts in the Responses places (None: the body is a request)."""

    def __call__(self, body: JSONObject) -> list[JSON] | None: ...


class ItemsOfMessage(Protocol):
    """``message_items``: one request message's parts in the Responses places."""

    def __call__(self, message: JSONObject) -> list[JSON]: ...


class SdkClient(Protocol):
    """An SDK's async client, as ``replay`` uses it: opened and closed with ``async with``."""

    async def __aenter__(self) -> object: ...

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None, /
    ) -> object: ...
