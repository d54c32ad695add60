"""Validators for the Chat Completions and Anthropic Messages shapes (not collected by pytest).

Chat messages are checked against the official OpenAI API description (the Chat part copied to
``tests/specs/openai/chat_components.json``, see PROVENANCE.md): the request whole and message
by message (the whole-request check alone is lenient about ``oneOf`` members), the response
whole. Anthropic messages are checked against the ``anthropic`` SDK's own types in pydantic
strict mode (Anthropic publishes no JSON schema of the Messages API; the SDK types are
generated from its API description): the response as ``Message``, the request as
``MessageCreateParamsNonStreaming``, each message as ``MessageParam`` and each tool as
``ToolParam``.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from _engine_support import DATA_DIR, SPECS_DIR

CHAT_MESSAGE_SCHEMA = {
    "user": "ChatCompletionRequestUserMessage",
    "system": "ChatCompletionRequestSystemMessage",
    "assistant": "ChatCompletionRequestAssistantMessage",
    "tool": "ChatCompletionRequestToolMessage",
    "function": "ChatCompletionRequestFunctionMessage",
}


def api_fixture(api: str, name: str) -> Any:
    return json.loads((DATA_DIR / api / name).read_text(encoding="utf-8"))


@cache
def _chat_validator_registry() -> Any:
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    doc = json.loads((SPECS_DIR / "openai" / "chat_components.json").read_text(encoding="utf-8"))
    return Registry().with_resource(
        "urn:openai-chat", Resource.from_contents(doc, default_specification=DRAFT202012)
    )


def chat_schema_errors(name: str, instance: Any) -> list[str]:
    """Errors of ``instance`` against ``#/components/schemas/<name>`` of the Chat copy."""
    import jsonschema

    schema = {"$ref": f"urn:openai-chat#/components/schemas/{name}"}
    found = jsonschema.Draft202012Validator(schema, registry=_chat_validator_registry()).iter_errors(instance)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in found]


def chat_errors(request: dict[str, Any] | None = None, response: dict[str, Any] | None = None) -> list[str]:
    """A Chat request (whole, each message, each tool) or response against the official description."""
    if response is not None:
        return chat_schema_errors("CreateChatCompletionResponse", response)
    assert request is not None
    found = chat_schema_errors("CreateChatCompletionRequest", request)
    for n, message in enumerate(request.get("messages", [])):
        schema = CHAT_MESSAGE_SCHEMA.get(message.get("role"), "ChatCompletionRequestMessage")
        found += [f"messages/{n}: {e}" for e in chat_schema_errors(schema, message)]
    for n, tool in enumerate(request.get("tools", [])):
        found += [f"tools/{n}: {e}" for e in chat_schema_errors("ChatCompletionTool", tool)]
    return found


def _consume(value: Any) -> None:
    """Walk a validated value: pydantic checks ``Iterable`` fields (the SDK's lists) only when iterated."""
    if isinstance(value, dict):
        for item in value.values():
            _consume(item)
    elif isinstance(value, list | tuple):
        for item in value:
            _consume(item)
    elif hasattr(value, "__next__"):
        for item in value:
            _consume(item)


def _strict(kind: Any, value: Any) -> list[str]:
    from pydantic import TypeAdapter, ValidationError

    adapter = TypeAdapter(kind)  # kept alive while the lazy iterators are consumed
    try:
        _consume(adapter.validate_python(value, strict=True))
    except ValidationError as exc:
        return [f"{'/'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()][:20]
    return []


def anthropic_errors(
    request: dict[str, Any] | None = None, response: dict[str, Any] | None = None
) -> list[str]:
    """An Anthropic request or response against the SDK's types, pydantic strict mode."""
    if response is not None:
        from anthropic.types import Message

        found = _strict(Message, response)
        unknown = sorted(set(response) - set(Message.model_fields))
        return found + [f"{k}: not a field of Message" for k in unknown]
    assert request is not None
    from anthropic.types import MessageParam, ToolParam
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming

    found = _strict(MessageCreateParamsNonStreaming, request)
    found += [
        f"unknown request key {k}"
        for k in sorted(set(request) - set(MessageCreateParamsNonStreaming.__annotations__))
    ]
    for n, message in enumerate(request.get("messages", [])):
        found += [f"messages/{n}: {e}" for e in _strict(MessageParam, message)]
    for n, tool in enumerate(request.get("tools", [])):
        found += [f"tools/{n}: {e}" for e in _strict(ToolParam, tool)]
    return found
