"""The Anthropic Messages plug-in: adapter, stand-in, shapes, kinds, words, view, checks (lessons 20-22).

``ENTRY`` is this folder's one registry entry: the kernel finds it by listing ``lessons_lib/apis``.
The parts that need the SDKs (the adapter, the settings, the stand-in, the replay client) are
imported on first use, so the verifiers and the doctor read this entry on the standard library alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lessons_lib.apis.anthropic import checks, kinds, view
from lessons_lib.apis.anthropic.shapes import SHAPE, is_body
from lessons_lib.apis.anthropic.words import WORDS
from lessons_lib.core.plugins.apiregistry import ApiEntry

if TYPE_CHECKING:
    import httpx2

    from lessons_lib.apis.anthropic.adapter import AnthropicAdapter
    from lessons_lib.apis.anthropic.standin import OfflineAnthropic
    from lessons_lib.core.plugins.apitypes import SdkClient
    from lessons_lib.engine.models import ModelSetting


def adapter(tool_choice: object = None) -> AnthropicAdapter:
    """A fresh Anthropic Messages adapter (``adapter.AnthropicAdapter``)."""
    from lessons_lib.apis.anthropic.adapter import AnthropicAdapter

    return AnthropicAdapter(tool_choice)


def offline_setting(model: str | None = None) -> ModelSetting:
    """The offline setting, labelled as the Anthropic stand-in."""
    from lessons_lib.apis.anthropic.adapter import offline_setting as setting

    return setting(model)


def live_setting(model: str | None = None) -> ModelSetting | None:
    """The live Anthropic setting, or None without ``ANTHROPIC_API_KEY``."""
    from lessons_lib.apis.anthropic.adapter import live_setting as setting

    return setting(model)


def enable_live_hint() -> str:
    """How to turn the live Anthropic model on, in the current language."""
    from lessons_lib.apis.anthropic.adapter import enable_live_hint as hint

    return hint()


def standin() -> OfflineAnthropic:
    """A fresh Anthropic stand-in, for ``replay`` (lesson 22)."""
    from lessons_lib.apis.anthropic.standin import OfflineAnthropic

    return OfflineAnthropic()


def replay_client(http: httpx2.AsyncClient) -> tuple[SdkClient, tuple[type[BaseException], ...]]:
    """The ``anthropic`` client for a replay and its HTTP-status error."""
    from lessons_lib.apis.anthropic.adapter import replay_client as client

    return client(http)


ENTRY = ApiEntry(
    name="anthropic",
    title="Anthropic Messages",
    key="ANTHROPIC_API_KEY",
    sdk="anthropic",
    create="messages.create",
    order=2,
    adapter=adapter,
    offline=offline_setting,
    live=live_setting,
    replay_standin=standin,
    enable_live=enable_live_hint,
    replay_client=replay_client,
    shapes=SHAPE,
    is_body=is_body,
    fixtures="anthropic",
    choice_family=1,
    rule="input_schema",
    first_call_id="toolu_offline_001_1",
    checks=checks.CHECKS,
    trials=checks.TRIALS,
    reply_items=view.reply_items,
    message_items=view.message_items,
    words=WORDS,
    tables=kinds.TABLES,
    detectors=kinds.DETECTORS,
)
