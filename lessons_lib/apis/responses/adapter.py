"""The OpenAI Responses API's adapter: the reference API of the one loop (lessons 01-11).

``function`` tools, ``function_call`` items, ``function_call_output`` feedback, through the
real ``openai`` SDK; the shared parts (``Declared``, ``Stop``, the SDK error mapping) are in
:mod:`lessons_lib.engine.adapters`, the stand-in it talks to offline in
:mod:`lessons_lib.apis.responses.standin`, which the other examples' stand-ins build on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lessons_lib.core.jsonvalue import objects
from lessons_lib.core.messages import t as tr
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


class ResponsesAdapter(AdapterState):
    """The OpenAI Responses API: ``function`` tools, ``function_call`` items, ``function_call_output``."""

    api = "responses"

    def declare(self, tools: Sequence[Declared]) -> list[JsonObject]:
        return [
            {
                "type": "function",
                "name": t.alias,
                "description": t.description,
                "parameters": copy_schema(t.input_schema),
                "strict": False,
            }
            for t in tools
        ]

    def first_input(self, task: str) -> list[JsonObject]:
        return [{"type": "message", "role": "user", "content": task}]

    def offline_transport(self, script: Script) -> httpx2.AsyncBaseTransport:
        from lessons_lib.apis.responses.standin import OfflineModel

        return OfflineModel(script=script)

    def open(self, setting: ModelSetting, http_client: httpx2.AsyncClient, timeout: float) -> None:
        self._model = setting.name
        self._client = openai_client(setting, http_client, timeout)

    async def send(self, model_input: list[JsonObject], tools: list[JsonObject], first: bool) -> None:
        import openai

        client = self._client
        assert isinstance(client, openai.AsyncOpenAI), "open() the adapter first"
        with sdk_errors(openai, "OPENAI_BASE_URL"):
            # The items are plain JSON checked by shape; the SDK types them as TypedDicts.
            choice = self.tool_choice(first)
            await client.responses.create(  # type: ignore[call-overload]
                model=self._model,
                input=model_input,
                tools=tools,
                **with_settings({"tool_choice": choice}, self.settings),
            )

    def read(self, body: JsonObject) -> ModelReply:
        output = body.get("output")
        if not isinstance(output, list):
            raise Stop(
                "error",
                "the model API's reply has no 'output' list; it is not a Response object",
                tr("engine.no_output"),
            )
        calls: list[ToolCall] = []
        texts: list[str] = []
        for item in objects(output):
            if item.get("type") == "function_call":
                call_id = item.get("call_id")
                calls.append(
                    ToolCall(
                        call_id if isinstance(call_id, str) and call_id else None,
                        str(item.get("name", "")),
                        item.get("arguments"),
                    )
                )
            elif item.get("type") == "message":
                texts += [
                    str(part.get("text", ""))
                    for part in objects(item.get("content"))
                    if part.get("type") == "output_text"
                ]
        return ModelReply(tuple(calls), "\n".join(texts) if texts else None)

    def feedback_item(self, result: CallResult) -> JsonObject:
        return {"type": "function_call_output", "call_id": result.call.call_id, "output": result.output}

    def next_input(
        self, model_input: list[JsonObject], body: JsonObject, items: Sequence[JsonObject]
    ) -> list[JsonObject]:
        return [*model_input, *objects(body.get("output")), *items]
