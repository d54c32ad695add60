"""Where each model API keeps the tool calls, the feedback and the answer. Lesson 06 (Responses).

One message, three spellings (lessons 20-29):

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

Each API's readers are in its folder (``apis/<name>/shapes.py``), held by its registry entry's
``shapes``; the functions here ask the entry of ``api`` (None: the reference API, as in a trace
without ``model.api``). Every reader takes JSON of any shape and answers an empty list, None or
"" where a piece is missing: judging a wrong shape is the verifiers' job. Standard library only.
"""

from __future__ import annotations

from lessons_lib.core.jsonvalue import JSON, JSONObject
from lessons_lib.core.plugins.apiregistry import api_entry, api_or_reference
from lessons_lib.core.plugins.apitypes import ApiShape, DeclaredTool, Feedback, ToolCall

__all__ = [
    "answer_text",
    "declared_tools",
    "feedback_for",
    "feedback_items",
    "input_items",
    "shape_of",
    "tool_calls",
]


def shape_of(api: str | None = None) -> ApiShape:
    """The readers of ``api``'s messages (its entry's ``shapes``; None: the reference API's)."""
    return api_entry(api_or_reference(api)).shapes


def _json(value: JSON | object) -> JSON:
    return value if isinstance(value, dict) else None


def tool_calls(response: JSON | object, api: str | None = None) -> list[ToolCall]:
    """The tool calls in one model response, in order (several per turn when parallel)."""
    return shape_of(api).calls(_json(response))


def input_items(request: JSON | object, api: str | None = None) -> list[JSONObject]:
    """The conversation a model request carries: Responses ``input`` (a plain string is one user
    message), the others' ``messages``."""
    return shape_of(api).inputs(_json(request))


def feedback_items(request: JSON | object, api: str | None = None) -> list[Feedback]:
    """The tool results a model request carries back to the model, in order."""
    return shape_of(api).feedback(_json(request))


def feedback_for(request: JSON | object, call_id: JSON, api: str | None = None) -> Feedback | None:
    """The tool result for this call id (pairing by ``call_id`` / ``tool_call_id`` / ``tool_use_id``)."""
    return next((f for f in feedback_items(request, api) if f.call_id == call_id), None)


def answer_text(response: JSON | object, api: str | None = None) -> str:
    """The text the model wrote in one response, joined ("" when it wrote none)."""
    return shape_of(api).answer(_json(response))


def declared_tools(request: JSON | object, api: str | None = None) -> list[DeclaredTool]:
    """The tools a model request declares, in order."""
    return shape_of(api).tools(_json(request))
