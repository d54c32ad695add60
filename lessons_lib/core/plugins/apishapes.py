"""Where each model API keeps the tool calls, the feedback and the answer. Lesson 06 (Responses).

One message, three spellings (GUIDE section 6, lessons 20-29):

- declaration: Responses ``tools[]`` (``name``, ``parameters``); Chat Completions
  ``tools[].function`` (``name``, ``parameters``); Anthropic ``tools[]`` (``name``, ``input_schema``).
- call: Responses ``output[]`` ``function_call`` (``call_id``, ``arguments`` text); Chat
  Completions ``choices[0].message.tool_calls[]`` (``id``, ``function.arguments`` text);
  Anthropic ``content[]`` ``tool_use`` (``id``, ``input`` object).
- feedback: Responses ``input[]`` ``function_call_output`` (``call_id``, ``output``); Chat
  Completions ``messages[]`` with ``role: "tool"`` (``tool_call_id``, ``content``); Anthropic a
  ``role: "user"`` message with ``tool_result`` blocks (``tool_use_id``, ``content``, ``is_error``).
- answer: Responses ``output[]`` ``message`` ``output_text``; Chat Completions
  ``choices[0].message.content``; Anthropic ``content[]`` ``text`` blocks.

Every reader takes JSON of any shape and answers an empty list, None or "" where a piece is
missing: judging a wrong shape is the verifiers' job. Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, joined_text, objects
from lessons_lib.core.plugins.apiregistry import is_reference
from lessons_lib.core.traces.tracetypes import DEFAULT_API, ModelApi


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


def _call(call_id: JSON, name: JSON, arguments: JSON, item: JSONObject) -> ToolCall:
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


def _typed(items: list[JSONObject], kind: str) -> list[JSONObject]:
    return [i for i in items if i.get("type") == kind]


# ------------------------------------------------------------------ OpenAI Responses
def _responses_calls(response: JSON) -> list[ToolCall]:
    items = _typed(objects(get_in(response, "output")), "function_call")
    return [_call(i.get("call_id"), i.get("name"), i.get("arguments"), i) for i in items]


def _responses_inputs(request: JSON) -> list[JSONObject]:
    found = get_in(request, "input")
    if isinstance(found, str):  # a plain string is one user message
        return [{"role": "user", "content": found}]
    return objects(found)


def _responses_feedback(request: JSON) -> list[Feedback]:
    items = _typed(_responses_inputs(request), "function_call_output")
    return [Feedback(i.get("call_id"), i.get("output"), None, i) for i in items]


def _responses_answer(response: JSON) -> str:
    messages = [
        m for m in _typed(objects(get_in(response, "output")), "message") if m.get("role") == "assistant"
    ]
    parts = [p for m in messages for p in _typed(objects(m.get("content")), "output_text")]
    return "\n".join(t for t in (p.get("text") for p in parts) if isinstance(t, str))


def _responses_tools(request: JSON) -> list[DeclaredTool]:
    return [DeclaredTool(t.get("name"), t.get("parameters"), t) for t in objects(get_in(request, "tools"))]


# ------------------------------------------------------------------ OpenAI Chat Completions
def _chat_calls(response: JSON) -> list[ToolCall]:
    items = objects(get_in(response, "choices", 0, "message", "tool_calls"))
    return [
        _call(i.get("id"), get_in(i, "function", "name"), get_in(i, "function", "arguments"), i)
        for i in items
    ]


def _chat_feedback(request: JSON) -> list[Feedback]:
    items = [m for m in objects(get_in(request, "messages")) if m.get("role") == "tool"]
    return [Feedback(m.get("tool_call_id"), m.get("content"), None, m) for m in items]


def _chat_answer(response: JSON) -> str:
    content = get_in(response, "choices", 0, "message", "content")
    return joined_text(content) or ""


def _chat_tools(request: JSON) -> list[DeclaredTool]:
    tools = objects(get_in(request, "tools"))
    return [
        DeclaredTool(get_in(t, "function", "name"), get_in(t, "function", "parameters"), t) for t in tools
    ]


# ------------------------------------------------------------------ Anthropic Messages
def _anthropic_calls(response: JSON) -> list[ToolCall]:
    blocks = _typed(objects(get_in(response, "content")), "tool_use")
    return [_call(b.get("id"), b.get("name"), b.get("input"), b) for b in blocks]


def _anthropic_feedback(request: JSON) -> list[Feedback]:
    users = [m for m in objects(get_in(request, "messages")) if m.get("role") == "user"]
    blocks = [b for m in users for b in _typed(objects(m.get("content")), "tool_result")]
    return [Feedback(b.get("tool_use_id"), b.get("content"), b.get("is_error", False), b) for b in blocks]


def _anthropic_answer(response: JSON) -> str:
    texts = [b.get("text") for b in _typed(objects(get_in(response, "content")), "text")]
    return "\n".join(t for t in texts if isinstance(t, str))


def _anthropic_tools(request: JSON) -> list[DeclaredTool]:
    return [DeclaredTool(t.get("name"), t.get("input_schema"), t) for t in objects(get_in(request, "tools"))]


# ------------------------------------------------------------------ dispatch on the API
@dataclass(frozen=True)
class ApiShape:
    """The readers for one model API's messages (add an API by adding one of these)."""

    calls: Callable[[JSON], list[ToolCall]]
    feedback: Callable[[JSON], list[Feedback]]
    answer: Callable[[JSON], str]
    tools: Callable[[JSON], list[DeclaredTool]]
    call_type: str
    """What lessons call one call item: ``function_call``, ``tool_calls[]`` entry, ``tool_use``."""
    feedback_type: str


SHAPES: Final[dict[ModelApi, ApiShape]] = {
    "responses": ApiShape(
        _responses_calls,
        _responses_feedback,
        _responses_answer,
        _responses_tools,
        "function_call",
        "function_call_output",
    ),
    "chat": ApiShape(_chat_calls, _chat_feedback, _chat_answer, _chat_tools, "tool_calls", "tool"),
    "anthropic": ApiShape(
        _anthropic_calls, _anthropic_feedback, _anthropic_answer, _anthropic_tools, "tool_use", "tool_result"
    ),
}


def tool_calls(response: JSON | object, api: ModelApi = DEFAULT_API) -> list[ToolCall]:
    """The tool calls in one model response, in order (several per turn when parallel)."""
    return SHAPES[api].calls(response if isinstance(response, dict) else None)


def input_items(request: JSON | object, api: ModelApi = DEFAULT_API) -> list[JSONObject]:
    """The conversation a model request carries: Responses ``input`` (a plain string is one user
    message), the others' ``messages``."""
    if is_reference(api):
        return _responses_inputs(request if isinstance(request, dict) else None)
    return objects(get_in(request, "messages"))


def feedback_items(request: JSON | object, api: ModelApi = DEFAULT_API) -> list[Feedback]:
    """The tool results a model request carries back to the model, in order."""
    return SHAPES[api].feedback(request if isinstance(request, dict) else None)


def feedback_for(request: JSON | object, call_id: JSON, api: ModelApi = DEFAULT_API) -> Feedback | None:
    """The tool result for this call id (pairing by ``call_id`` / ``tool_call_id`` / ``tool_use_id``)."""
    return next((f for f in feedback_items(request, api) if f.call_id == call_id), None)


def answer_text(response: JSON | object, api: ModelApi = DEFAULT_API) -> str:
    """The text the model wrote in one response, joined ("" when it wrote none)."""
    return SHAPES[api].answer(response if isinstance(response, dict) else None)


def declared_tools(request: JSON | object, api: ModelApi = DEFAULT_API) -> list[DeclaredTool]:
    """The tools a model request declares, in order."""
    return SHAPES[api].tools(request if isinstance(request, dict) else None)
