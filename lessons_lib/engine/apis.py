"""Which adapter and which model setting a run of ``api`` uses (lessons 20-22).

Introduced in lesson 20. ``open_api("chat", live=False)`` gives the Chat Completions adapter and
the offline setting labelled as its stand-in; ``live=True`` reads that API's own key from the
environment (``OPENAI_API_KEY`` for Responses and Chat, ``ANTHROPIC_API_KEY`` for Anthropic)
or raises a one-line ``RuntimeError`` that says which one is missing. The key stays in the
setting object: the trace only records ``mode``, ``name``, ``label`` and, for the two newer
APIs, ``api``.
"""

from __future__ import annotations

from typing import Final

from lessons_lib.core.tracetypes import ModelApi, ModelInfo
from lessons_lib.engine.adapters import ModelAdapter, adapter_for
from lessons_lib.engine.models import ModelSetting

KEYS: Final = {"responses": "OPENAI_API_KEY", "chat": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}


def make_adapter(api: str, tool_choice: object = None) -> ModelAdapter:
    """A fresh adapter; ``tool_choice`` (lessons 08, 21) replaces the loop's own on the first request."""
    if api == "chat":
        from lessons_lib.engine.api_chat import ChatAdapter

        return ChatAdapter(tool_choice)
    if api == "anthropic":
        from lessons_lib.engine.api_anthropic import AnthropicAdapter

        return AnthropicAdapter(tool_choice)
    if api == "responses":
        from lessons_lib.engine.adapters import ResponsesAdapter

        return ResponsesAdapter(tool_choice)
    return adapter_for(api)


def setting_for(api: str, live: bool, model: str | None = None) -> ModelSetting | None:
    """The model setting for this API: offline, or live from its key (None when the key is not set)."""
    if api == "anthropic":
        from lessons_lib.engine import api_anthropic as a

        return a.live_setting(model) if live else a.offline_setting(model)
    from lessons_lib.engine.models import live_setting, offline_setting

    if live:
        return live_setting(model)
    if api == "chat":
        from lessons_lib.engine.api_chat import offline_setting as chat_offline

        return chat_offline(model)
    return offline_setting(model)


def open_api(
    api: str, *, live: bool = False, model: str | None = None, tool_choice: object = None
) -> tuple[ModelAdapter, ModelSetting, ModelInfo]:
    """(adapter, setting, what the trace says about the model) for one run of ``api``."""
    adapter = make_adapter(api, tool_choice)
    setting = setting_for(api, live, model)
    if setting is None:
        raise RuntimeError(f"live mode needs {KEYS[api]}; without it the course runs offline")
    public: ModelInfo = {"mode": setting.mode, "name": setting.name, "label": setting.label}
    if api != "responses":  # part one's traces (Responses) carry no api field: absent = responses
        public["api"] = _api_name(api)
    return adapter, setting, public


def _api_name(api: str) -> ModelApi:
    return "chat" if api == "chat" else "anthropic"
