"""The Anthropic Messages adapter of the application loop (lessons 20-22).

Introduced in lesson 20. Each MCP tool is declared flat, with the MCP ``inputSchema`` unchanged
as ``input_schema``; the model's calls are ``tool_use`` blocks of ``content`` whose ``input`` is
already an object; the feedback is one ``role: "user"`` message holding a ``tool_result`` block
per call, paired by ``tool_use_id``, with ``is_error`` carrying the failure (its text without
the application's marker). Live mode reads ``ANTHROPIC_API_KEY`` (optionally
``ANTHROPIC_BASE_URL`` and ``LESSONS_ANTHROPIC_MODEL``); the key is never written anywhere.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from lessons_lib.core.example import FAILURE_PREFIX
from lessons_lib.core.jsonvalue import JSON
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
    sdk_errors,
    with_settings,
)

if TYPE_CHECKING:
    import httpx2
    from anthropic import AsyncAnthropic

    from lessons_lib.engine.models import ModelSetting
    from lessons_lib.engine.standins.rules import Script

MODEL: Final = "claude-opus-5"
"""The model name in Anthropic requests (the fixtures' too); the offline stand-in answers to any."""
MAX_TOKENS: Final = 1024
CHOICES: Final[dict[bool, object]] = {True: {"type": "any"}, False: {"type": "auto"}}
"""``any`` (Anthropic's ``required``) on the first request, ``auto`` after the feedback."""


def enable_live_hint() -> str:
    """How to turn the live Anthropic model on, in the current language."""
    return t("apis_words.anthropic.enable_live")


class AnthropicAdapter(AdapterState):
    """Anthropic Messages: flat tools with ``input_schema``, ``tool_use`` blocks, ``tool_result`` blocks."""

    api = "anthropic"
    choices = CHOICES

    def declare(self, tools: Sequence[Declared]) -> list[JsonObject]:
        return [
            {"name": t.alias, "description": t.description, "input_schema": copy_schema(t.input_schema)}
            for t in tools
        ]

    def first_input(self, task: str) -> list[JsonObject]:
        return [{"role": "user", "content": task}]

    def offline_transport(self, script: Script) -> httpx2.AsyncBaseTransport:
        from lessons_lib.apis.anthropic.standin import OfflineAnthropic

        return OfflineAnthropic(script=script)

    def open(self, setting: ModelSetting, http_client: httpx2.AsyncClient, timeout: float) -> None:
        from anthropic import AsyncAnthropic

        self._model = setting.name
        self._client = AsyncAnthropic(
            api_key=setting.key,
            base_url=setting.base_url,
            max_retries=0,
            timeout=timeout,
            http_client=http_client,
        )

    async def send(self, model_input: list[JsonObject], tools: list[JsonObject], first: bool) -> None:
        import anthropic

        client = self._client
        assert isinstance(client, anthropic.AsyncAnthropic), "open() the adapter first"
        choice = self.tool_choice(first)
        with sdk_errors(anthropic, "ANTHROPIC_BASE_URL"):
            await client.messages.create(  # type: ignore[call-overload]
                model=self._model,
                max_tokens=MAX_TOKENS,
                messages=model_input,
                tools=tools,
                **with_settings({"tool_choice": choice}, self.settings),
            )

    def read(self, body: JsonObject) -> ModelReply:
        blocks = content_blocks(body)
        calls = tuple(
            ToolCall(
                str(b["id"]) if isinstance(b.get("id"), str) and b["id"] else None,
                str(b.get("name", "")),
                b.get("input"),
            )
            for b in blocks
            if b.get("type") == "tool_use"
        )
        texts = [str(b.get("text")) for b in blocks if b.get("type") == "text" and b.get("text")]
        return ModelReply(calls, "\n".join(texts) if texts else None)

    def feedback_item(self, result: CallResult) -> JsonObject:
        """One ``tool_result`` block: the service's text, the failure in ``is_error``."""
        text = result.output
        if result.is_error and text.startswith(FAILURE_PREFIX):
            text = text[len(FAILURE_PREFIX) :]
        return {
            "type": "tool_result",
            "tool_use_id": result.call.call_id,
            "content": text,
            "is_error": result.is_error,
        }

    def next_input(
        self, model_input: list[JsonObject], body: JsonObject, items: Sequence[JsonObject]
    ) -> list[JsonObject]:
        """So far, the assistant's content as received, then one user message of tool_result blocks."""
        blocks: list[JSON] = list(content_blocks(body))
        assistant: JsonObject = {"role": "assistant", "content": blocks}
        return [*model_input, assistant, {"role": "user", "content": list(items)}]


def content_blocks(body: JsonObject) -> list[JsonObject]:
    """The ``content`` blocks of a Message body; Stop if it has no content list."""
    content = body.get("content")
    if not isinstance(content, list):
        raise Stop(
            "error",
            "the model API's reply has no 'content' list; it is not an Anthropic Message",
            t("apis_words.anthropic.not_message"),
        )
    return [b for b in content if isinstance(b, dict)]


def replay_client(http: httpx2.AsyncClient) -> tuple[AsyncAnthropic, tuple[type[BaseException], ...]]:
    """The Anthropic SDK's client for a replay (lesson 22) and its HTTP-status error; the registry's ref."""
    from anthropic import APIStatusError, AsyncAnthropic

    from lessons_lib.engine.redact import OFFLINE_KEY

    return AsyncAnthropic(api_key=OFFLINE_KEY, max_retries=0, http_client=http), (APIStatusError,)


def live_setting(model: str | None = None) -> ModelSetting | None:
    """The live Anthropic setting from the environment, or None without ``ANTHROPIC_API_KEY``."""
    from lessons_lib.engine.models import ModelSetting

    key = os.environ.get("ANTHROPIC_API_KEY", "").strip()
    if not key:
        return None
    name = model or os.environ.get("LESSONS_ANTHROPIC_MODEL") or MODEL
    from lessons_lib.engine.models import check_base_url

    base = check_base_url(os.environ.get("ANTHROPIC_BASE_URL", "").strip() or None)
    return ModelSetting("live", name, t("apis_words.anthropic.live_label"), base, key)


def offline_setting(model: str | None = None) -> ModelSetting:
    """The offline setting, labelled as the Anthropic stand-in."""
    from lessons_lib.engine.models import ModelSetting

    return ModelSetting("offline", model or MODEL, t("apis_words.anthropic.standin_label"))
