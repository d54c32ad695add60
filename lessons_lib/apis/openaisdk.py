"""What the two OpenAI APIs (Responses, Chat Completions) share in their entries. Lesson 20.

The live setting from ``OPENAI_API_KEY``, the hint that says how to set it, and the ``openai``
client ``replay`` uses, each imported on first use: an entry is read by the verifiers and the
doctor, which run on the standard library alone, so no API folder imports the SDKs (nor
``httpx2``) when the kernel finds it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import httpx2

    from lessons_lib.core.plugins.apitypes import SdkClient
    from lessons_lib.engine.models import ModelSetting


def live_setting(model: str | None = None) -> ModelSetting | None:
    """The live OpenAI setting (``engine.models.live_setting``): None without ``OPENAI_API_KEY``."""
    from lessons_lib.engine.models import live_setting as setting

    return setting(model)


def enable_live_hint() -> str:
    """How to turn the live OpenAI model on, in the current language."""
    from lessons_lib.engine.models import enable_live_hint as hint

    return hint()


def replay_client(http: httpx2.AsyncClient) -> tuple[SdkClient, tuple[type[BaseException], ...]]:
    """The ``openai`` client for a replay (``apis.replay.openai_client``) and its HTTP-status error."""
    from lessons_lib.apis.replay import openai_client

    return openai_client(http)
