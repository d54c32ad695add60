"""The Chat Completions plug-in: adapter, stand-in, shapes, kinds, words, view, checks (lessons 20-22).

``ENTRY`` is this folder's one registry entry: the kernel finds it by listing ``lessons_lib/apis``.
The parts that need the SDKs (the adapter, the settings, the stand-in) are imported on first
use, so the verifiers and the doctor read this entry on the standard library alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lessons_lib.apis.chat import checks, kinds, view
from lessons_lib.apis.chat.shapes import SHAPE, is_body
from lessons_lib.apis.chat.words import WORDS
from lessons_lib.apis.openaisdk import enable_live_hint, live_setting, replay_client
from lessons_lib.core.plugins.apiregistry import ApiEntry

if TYPE_CHECKING:
    from lessons_lib.apis.chat.adapter import ChatAdapter
    from lessons_lib.apis.chat.standin import OfflineChat
    from lessons_lib.engine.models import ModelSetting


def adapter(tool_choice: object = None) -> ChatAdapter:
    """A fresh Chat Completions adapter (``adapter.ChatAdapter``)."""
    from lessons_lib.apis.chat.adapter import ChatAdapter

    return ChatAdapter(tool_choice)


def offline_setting(model: str | None = None) -> ModelSetting:
    """The offline setting, labelled as the Chat Completions stand-in."""
    from lessons_lib.apis.chat.adapter import offline_setting as setting

    return setting(model)


def standin() -> OfflineChat:
    """A fresh Chat Completions stand-in, for ``replay`` (lesson 22)."""
    from lessons_lib.apis.chat.standin import OfflineChat

    return OfflineChat()


ENTRY = ApiEntry(
    name="chat",
    title="Chat Completions",
    key="OPENAI_API_KEY",
    sdk="openai",
    create="chat.completions.create",
    order=1,
    adapter=adapter,
    offline=offline_setting,
    live=live_setting,
    replay_standin=standin,
    enable_live=enable_live_hint,
    replay_client=replay_client,
    shapes=SHAPE,
    is_body=is_body,
    fixtures="chat",
    wrapper="function",
    tool_schema="ChatCompletionTool",
    checks=checks.CHECKS,
    trials=checks.TRIALS,
    reply_items=view.reply_items,
    message_items=view.message_items,
    words=WORDS,
    tables=kinds.TABLES,
    detectors=kinds.DETECTORS,
)
