"""The one registry of model APIs: one entry per API, the only place that knows their names. Lesson 20.

Standard library only, so every layer may ask it. An entry says what the kernel needs to know
about an API without comparing its name: its title, its key's variable, whether it is the
reference whose places the checks use (Responses), where its fixtures are, which SDK and
method send a request, and where its plug-in's adapter, settings and stand-ins live, as
``module:name`` text loaded on first use (``lessons_lib.engine.apis``), so the kernel never
imports a plug-in folder. An unknown name is a one-line ``ValueError``, never a default.

Adding an API is one folder under ``lessons_lib/apis/`` and one entry here (plus its shapes in
``core.apishapes.SHAPES``, which a test holds to this list).

An entry's ``kinds`` module gives the API's field-kind tables (``TABLES``) and the shape tests
that name its message types (``DETECTORS``, each a ``core.kindrows.Detector`` with a tier).
``core.msgtype`` tries the kernel's own envelopes first (a trace, the attachments, MCP), then
every API's detectors tier by tier (``marked``, ``narrow``, ``broad``, ``part``: the order of
``core.kindrows.TIERS``), the APIs in this registry's order within a tier, then the Responses
shapes of the kernel (the reference: an Anthropic response is also a ``type: "message"``).
So a detector that a broader one of another API would also accept says ``narrow`` (an
Anthropic request is also a ``messages`` list, Chat's ``broad`` test), and one with a mark no
other shape has says ``marked``; a new API picks its tiers and never edits another's list.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Final

from lessons_lib.core.traces.tracetypes import MODEL_APIS, ModelApi


@dataclass(frozen=True)
class ApiEntry:
    """One model API (see the module docstring); refs are ``module:name`` text."""

    name: ModelApi
    title: str
    key: str
    sdk: str
    create: str
    """The SDK client's method that sends one request, as a dotted path."""
    adapter: str
    offline: str
    live: str
    replay_standin: str
    enable_live: str
    """``() -> str``: how to turn the live model on, in the current language."""
    reference: bool = False
    """True for the API whose places the checks and the doctor use (Responses)."""
    fixtures: str = ""
    """The fixtures' folder under ``data/`` ("" = ``data/`` itself)."""
    in_trace: bool = True
    """False: the trace carries no ``model.api`` (part one's traces; absent = responses)."""
    choice_family: int = 0
    """0: OpenAI ``tool_choice`` values; 1: Anthropic ones."""
    wrapper: str = ""
    """The key a declared tool sits under ("function" in Chat Completions; "" = none)."""
    rule: str = "parameters"
    """The declared tool's rule field (``input_schema`` in Anthropic Messages)."""
    checks: str = ""
    """The module of the API's own round-trip checks (``CHECKS``, ``TRIALS``); "" = none."""
    view: str = ""
    """The module mapping the API's messages to the Responses places (``reply_items``, ``message_items``)."""
    words: str = ""
    """The module naming the API's parts in the diagrams and ``narrate`` (``WORDS``...)."""
    kinds: str = ""
    """The module of the API's field-kind tables and shape tests (``TABLES``, ``DETECTORS``); "" = none."""
    replay_client: str = "lessons_lib.apis.replay:openai_client"
    """``http client -> (SDK client, the SDK's HTTP-status errors)``: how ``replay`` talks to the stand-in."""
    shape: str = ""
    """``body -> bool``: whether a model request or response has this API's shape; the entries are
    asked in the registry's order, so a test may assume the earlier APIs said no."""


_MODELS: Final = "lessons_lib.engine.models"

REGISTRY: Final[dict[str, ApiEntry]] = {
    "responses": ApiEntry(
        "responses",
        "Responses",
        "OPENAI_API_KEY",
        "openai",
        "responses.create",
        "lessons_lib.apis.responses.adapter:ResponsesAdapter",
        f"{_MODELS}:offline_setting",
        f"{_MODELS}:live_setting",
        "lessons_lib.apis.responses.standin_state:StatefulOfflineModel",
        f"{_MODELS}:enable_live_hint",
        reference=True,
        in_trace=False,
        shape="lessons_lib.apis.responses.shapes:is_body",
    ),
    "chat": ApiEntry(
        "chat",
        "Chat Completions",
        "OPENAI_API_KEY",
        "openai",
        "chat.completions.create",
        "lessons_lib.apis.chat.adapter:ChatAdapter",
        "lessons_lib.apis.chat.adapter:offline_setting",
        f"{_MODELS}:live_setting",
        "lessons_lib.apis.chat.standin:OfflineChat",
        f"{_MODELS}:enable_live_hint",
        fixtures="chat",
        wrapper="function",
        checks="lessons_lib.apis.chat.checks",
        words="lessons_lib.apis.chat.words",
        view="lessons_lib.apis.chat.view",
        kinds="lessons_lib.apis.chat.kinds",
        shape="lessons_lib.apis.chat.shapes:is_body",
    ),
    "anthropic": ApiEntry(
        "anthropic",
        "Anthropic Messages",
        "ANTHROPIC_API_KEY",
        "anthropic",
        "messages.create",
        "lessons_lib.apis.anthropic.adapter:AnthropicAdapter",
        "lessons_lib.apis.anthropic.adapter:offline_setting",
        "lessons_lib.apis.anthropic.adapter:live_setting",
        "lessons_lib.apis.anthropic.standin:OfflineAnthropic",
        "lessons_lib.apis.anthropic.adapter:enable_live_hint",
        fixtures="anthropic",
        choice_family=1,
        rule="input_schema",
        checks="lessons_lib.apis.anthropic.checks",
        words="lessons_lib.apis.anthropic.words",
        view="lessons_lib.apis.anthropic.view",
        kinds="lessons_lib.apis.anthropic.kinds",
        shape="lessons_lib.apis.anthropic.shapes:is_body",
        replay_client="lessons_lib.apis.anthropic.adapter:replay_client",
    ),
}
assert tuple(REGISTRY) == MODEL_APIS  # the trace model's names and the registry's are one list

KEYS: Final = {name: entry.key for name, entry in REGISTRY.items()}


def api_entry(api: str) -> ApiEntry:
    """The registry entry of ``api``; an unknown name is a one-line ``ValueError``."""
    entry = REGISTRY.get(api)
    if entry is None:
        raise ValueError(f"unknown model API '{api}'; known: {', '.join(REGISTRY)}")
    return entry


def reference_api() -> str:
    """The name of the reference API (the one entry with ``reference=True``: Responses)."""
    return next(name for name, entry in REGISTRY.items() if entry.reference)


def is_reference(api: str) -> bool:
    """Whether ``api`` is the reference API (its messages already use the Responses places)."""
    return api_entry(api).reference


def kinds_refs() -> tuple[str, ...]:
    """Every entry's ``kinds`` module, in the registry's order (the key of the kernel's caches)."""
    return tuple(dict.fromkeys(entry.kinds for entry in REGISTRY.values() if entry.kinds))


def kinds_module(ref: str) -> ModuleType:
    """An API's kinds module (a ``kinds_refs`` item), imported on first use: the kernel never
    imports a plug-in folder itself."""
    return importlib.import_module(ref)
