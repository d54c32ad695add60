"""SDK objects the lesson-11 checkers hand to a learner's function. Introduced in lesson 11.

The checkers live in ``course/`` and may not import the SDKs; what they need from them is
here: a request on the workbench's real ``openai`` client, the output items of a response as
next-request JSON, the ``function_call`` items of a response, and SDK objects for the unseen
cases (a ``function_call`` of another service, an MCP ``Tool`` of another service).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from lessons_lib.core.example import MODEL_NAME
from lessons_lib.core.jsonvalue import JSONObject

if TYPE_CHECKING:
    from mcp_types import Tool
    from openai.types.responses import Response, ResponseFunctionToolCall

    from lessons_lib.workshop.loop.kit import Bench


def ask(bench: Bench, items: list[JSONObject], tools: list[JSONObject]) -> Response:
    """One Responses request on the bench's client with the course's model name."""
    from openai.types.responses import ResponseInputItemParam, ToolParam

    # the request is plain JSON, as the learner writes it; the SDK's TypedDicts describe the same
    sent = cast("list[ResponseInputItemParam]", items)
    return bench.model.responses.create(model=MODEL_NAME, input=sent, tools=cast("list[ToolParam]", tools))


def as_input(response: Response) -> list[JSONObject]:
    """The response's output items as the next request's input items (their JSON)."""
    return cast("list[JSONObject]", [item.to_dict() for item in response.output])


def function_calls(response: Response) -> list[ResponseFunctionToolCall]:
    """The ``function_call`` items of a response, in order."""
    from openai.types.responses import ResponseFunctionToolCall

    return [item for item in response.output if isinstance(item, ResponseFunctionToolCall)]


def sdk_call(call_id: str, name: str, arguments: str) -> ResponseFunctionToolCall:
    """A ``function_call`` item as the SDK parses one (for a call the stand-in would not make)."""
    from openai.types.responses import ResponseFunctionToolCall

    return ResponseFunctionToolCall(
        type="function_call", id=f"fc_{call_id}", call_id=call_id, name=name, arguments=arguments
    )


def sdk_tool(name: str, description: str, input_schema: JSONObject) -> Tool:
    """An MCP ``Tool`` as ``tools/list`` gives one (for a service the course does not run)."""
    import mcp_types

    return mcp_types.Tool(name=name, description=description, input_schema=input_schema)
