"""The Chat Completions adapter of the application loop (lessons 20-22).

Introduced in lesson 20. The same loop as Responses (``lessons_lib.engine.adapters``), wrapped
the Chat way: each MCP tool is declared under ``tools[].function`` (``parameters`` is the MCP
``inputSchema`` unchanged); the model's calls are ``choices[0].message.tool_calls[]`` whose
``function.arguments`` is JSON text; the feedback is one ``role: "tool"`` message per call,
paired by ``tool_call_id``; the next request re-sends every message so far (Chat Completions
keeps no state on the server). Live mode uses ``OPENAI_API_KEY`` like Responses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lessons_lib.core.messages import t
from lessons_lib.core.plugins.apitypes import ToolCall
from lessons_lib.engine.adapters import (
    AdapterState,
    CallResult,
    Declared,
    JsonObject,
    ModelReply,
    Stop,
    copy_schema,
    openai_client,
    sdk_errors,
    with_settings,
)

if TYPE_CHECKING:
    import httpx2

    from lessons_lib.engine.models import ModelSetting
    from lessons_lib.engine.standins.rules import Script


class ChatAdapter(AdapterState):
    """Chat Completions: ``tools[].function``, ``message.tool_calls[]``, ``role: "tool"`` messages."""

    api = "chat"

    def declare(self, tools: Sequence[Declared]) -> list[JsonObject]:
        return [
            {
                "type": "function",
                "function": {
                    "name": t.alias,
                    "description": t.description,
                    "parameters": copy_schema(t.input_schema),
                    "strict": False,
                },
            }
            for t in tools
        ]

    def first_input(self, task: str) -> list[JsonObject]:
        return [{"role": "user", "content": task}]

    def offline_transport(self, script: Script) -> httpx2.AsyncBaseTransport:
        from lessons_lib.apis.chat.standin import OfflineChat

        return OfflineChat(script=script)

    def open(self, setting: ModelSetting, http_client: httpx2.AsyncClient, timeout: float) -> None:
        self._model = setting.name
        self._client = openai_client(setting, http_client, timeout)

    async def send(self, model_input: list[JsonObject], tools: list[JsonObject], first: bool) -> None:
        import openai

        client = self._client
        assert isinstance(client, openai.AsyncOpenAI), "open() the adapter first"
        choice = self.tool_choice(first)
        with sdk_errors(openai, "OPENAI_BASE_URL"):
            await client.chat.completions.create(  # type: ignore[call-overload]
                model=self._model,
                messages=model_input,
                tools=tools,
                **with_settings({"tool_choice": choice}, self.settings),
            )

    def read(self, body: JsonObject) -> ModelReply:
        message = assistant_message(body)
        calls = []
        found = message.get("tool_calls")
        for call in found if isinstance(found, list) else []:
            if isinstance(call, dict):
                raw = call.get("function")
                function: JsonObject = raw if isinstance(raw, dict) else {}
                call_id = call.get("id")
                calls.append(
                    ToolCall(
                        call_id if isinstance(call_id, str) and call_id else None,
                        str(function.get("name", "")),
                        function.get("arguments"),
                    )
                )
        content = message.get("content")
        return ModelReply(tuple(calls), content if isinstance(content, str) and content else None)

    def feedback_item(self, result: CallResult) -> JsonObject:
        """One ``role: "tool"`` message; a failure stays marked in the text (Chat has no error flag)."""
        return {"role": "tool", "tool_call_id": result.call.call_id, "content": result.output}

    def next_input(
        self, model_input: list[JsonObject], body: JsonObject, items: Sequence[JsonObject]
    ) -> list[JsonObject]:
        """Everything so far, the assistant message exactly as received, then the tool messages."""
        return [*model_input, assistant_message(body), *items]


def assistant_message(body: JsonObject) -> JsonObject:
    """``choices[0].message`` of a chat.completion body; Stop if the body has no such message."""
    choices = body.get("choices")
    first = choices[0] if isinstance(choices, list) and choices else None
    message = first.get("message") if isinstance(first, dict) else None
    if not isinstance(message, dict):
        raise Stop(
            "error",
            "the model API's reply has no choices[0].message; it is not a chat.completion",
            t("apis_words.chat.not_completion"),
        )
    return message


def offline_setting(model: str | None = None) -> ModelSetting:
    """The offline setting, labelled as the Chat stand-in."""
    from lessons_lib.core.example import MODEL_NAME
    from lessons_lib.engine.models import ModelSetting

    return ModelSetting("offline", model or MODEL_NAME, t("apis_words.chat.standin_label"))
