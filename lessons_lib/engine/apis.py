"""Which adapter and which model setting a run of ``api`` uses, read from the one API registry.

Introduced in lesson 20. Each API is one folder of ``lessons_lib.apis`` whose ``ENTRY`` holds
its adapter class and its settings (``lessons_lib.core.plugins.apiregistry``, which finds the
folders on first use); the kernel asks the entry and never compares API names.
``open_api("chat", live=False)`` gives
the Chat Completions adapter and the offline setting labelled as its stand-in; ``live=True``
reads that API's own key from the environment (``OPENAI_API_KEY`` for Responses and Chat,
``ANTHROPIC_API_KEY`` for Anthropic) or raises a one-line ``RuntimeError`` that says which one
is missing. An unknown name is a one-line ``ValueError`` naming the known ones, never a default.
The key stays in the setting object: the trace only records ``mode``, ``name``, ``label`` and,
for the two newer APIs, ``api``.
"""

from __future__ import annotations

import importlib
from typing import Any, cast

from lessons_lib.core.plugins.apiregistry import api_entry, names
from lessons_lib.core.traces.tracetypes import ModelInfo
from lessons_lib.engine.adapters import ModelAdapter
from lessons_lib.engine.models import ModelSetting

__all__ = ["client_retries", "load", "make_adapter", "open_api", "setting_for"]


def load(ref: str) -> Any:
    """The object a ``module:name`` ref names, its module imported on first use."""
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)


def make_adapter(api: str, tool_choice: object = None) -> ModelAdapter:
    """A fresh adapter; ``tool_choice`` (lessons 08, 21) replaces the loop's own on the first request."""
    return cast(ModelAdapter, api_entry(api).adapter(tool_choice))


def setting_for(api: str, live: bool, model: str | None = None) -> ModelSetting | None:
    """The model setting for this API: offline, or live from its key (None when the key is not set)."""
    entry = api_entry(api)
    return cast("ModelSetting | None", entry.live(model) if live else entry.offline(model))


def open_api(
    api: str, *, live: bool = False, model: str | None = None, tool_choice: object = None
) -> tuple[ModelAdapter, ModelSetting, ModelInfo]:
    """(adapter, setting, what the trace says about the model) for one run of ``api``."""
    entry = api_entry(api)
    adapter = make_adapter(api, tool_choice)
    setting = setting_for(api, live, model)
    if setting is None:
        raise RuntimeError(f"live mode needs {entry.key}; without it the course runs offline")
    public: ModelInfo = {"mode": setting.mode, "name": setting.name, "label": setting.label}
    if entry.in_trace:
        public["api"] = entry.name
    return adapter, setting, public


def client_retries() -> dict[str, int]:
    """Lesson 32: ``max_retries`` of the model client each API's adapter opens for a run.

    Each adapter is opened the way the application loop opens it (offline setting, the run's
    recording HTTP client) and the number is read from the SDK client object it built, so the
    lesson shows the course's real clients, not one made up for the cell.
    """
    from lessons_lib.engine.models import make_http_client

    retries: dict[str, int] = {}
    for api in names():
        adapter, setting, _ = open_api(api)
        adapter.open(setting, make_http_client(lambda *_: None, None, 5.0), 5.0)
        client = getattr(adapter, "_client", None)
        retries[api] = int(getattr(client, "max_retries", 0))
    return retries
