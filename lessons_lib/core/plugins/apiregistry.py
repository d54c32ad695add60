"""The one registry of model APIs: one entry per API, the only place that knows their names. Lesson 20.

Standard library only, so every layer may ask it. Each API is one folder of
``lessons_lib/apis`` (or a package named in ``LESSONS_LIB_APIS``) whose ``__init__`` defines
``ENTRY``, an :class:`ApiEntry` holding the API's parts as objects: its adapter class, its
model settings, its stand-in, its message readers (``core.plugins.apitypes.ApiShape``), its
field kinds, words, view and checks. The kernel finds the entries on first use
(``core.plugins.discover``), orders them by ``order`` and asks them; it never compares an API's
name. An unknown name is a one-line ``ValueError``, never a default.

An entry's ``tables`` and ``detectors`` are the API's field-kind tables and the shape tests
that name its message types (each a ``core.fieldkinds.kindrows.Detector`` with a tier).
``core.fieldkinds.msgtype`` tries the kernel's own envelopes first (a trace, the attachments,
MCP), then every API's detectors tier by tier (``marked``, ``narrow``, ``broad``, ``part``: the
order of ``core.fieldkinds.kindrows.TIERS``), the APIs in the registry's order within a tier,
then the Responses shapes of the kernel (the reference: an Anthropic response is also a
``type: "message"``). So a detector that a broader one of another API would also accept says
``narrow`` (an Anthropic request is also a ``messages`` list, Chat's ``broad`` test), and one
with a mark no other shape has says ``marked``; a new API picks its tiers and never edits
another's list.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from lessons_lib.core.fieldkinds.kindrows import Detector, Row
from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.plugins.apitypes import (
    ApiShape,
    ApiWords,
    CheckRow,
    ItemsOfMessage,
    ItemsOfReply,
    SdkClient,
    TrialRow,
)
from lessons_lib.core.plugins.discover import entries

PACKAGE = "lessons_lib.apis"
VARIABLE = "LESSONS_LIB_APIS"
"""Comma-separated import names of API plug-ins outside the package (one folder each)."""


@dataclass(frozen=True)
class ApiEntry:
    """One model API (see the module docstring): its names, and its parts as objects."""

    name: str
    title: str
    key: str
    """The environment variable holding the live model's key."""
    sdk: str
    create: str
    """The SDK client's method that sends one request, as attribute names (``chat.completions.create``)."""
    order: int
    """Where the API comes in every table and in message-type detection (the reference is 0)."""
    adapter: Callable[[object], object]
    """``tool_choice -> engine.adapters.ModelAdapter``: the adapter class, or a function that imports
    it on first use (the package's own entries do, so that the verifiers, which read the entries,
    run on the standard library alone)."""
    offline: Callable[[str | None], object]
    """``model -> engine.models.ModelSetting``: the offline setting, labelled as this API's stand-in."""
    live: Callable[[str | None], object | None]
    """``model -> setting``: the live setting from this API's key, None when the key is not set."""
    replay_standin: Callable[[], object]
    """``() -> transport``: the stand-in ``replay`` sends requests to (lesson 22)."""
    enable_live: Callable[[], str]
    """How to turn the live model on, in the current language."""
    replay_client: Callable[..., tuple[SdkClient, tuple[type[BaseException], ...]]]
    """``http client -> (SDK client, the SDK's HTTP-status errors)``: how ``replay`` talks to the stand-in."""
    shapes: ApiShape
    is_body: Callable[[JSONObject], bool]
    """Whether a model request or response has this API's shape; the entries are asked in the
    registry's order, so a test may assume the earlier APIs said no."""
    reference: bool = False
    """True for the API whose places the checks and the doctor use (Responses)."""
    fixtures: str = ""
    """The fixtures' folder under ``data/`` ("" = ``data/`` itself)."""
    in_trace: bool = True
    """False: the trace carries no ``model.api`` (part one's traces; absent = the reference)."""
    choice_family: int = 0
    """0: OpenAI ``tool_choice`` values; 1: Anthropic ones."""
    wrapper: str = ""
    """The key a declared tool sits under ("function" in Chat Completions; "" = none)."""
    rule: str = "parameters"
    """The declared tool's rule field (``input_schema`` in Anthropic Messages)."""
    tool_schema: str = ""
    """The OpenAI specification's component for one tool declaration (lesson 41); "" = none."""
    first_call_id: str = "call_offline_001_1"
    """The stand-in's pairing id for the first call of a run (lesson 44)."""
    checks: Sequence[CheckRow] = ()
    """The API's own round-trip checks (lesson 22); none for the reference."""
    trials: Sequence[TrialRow] = ()
    """The API's own sabotages: a copy broken this way must be rejected."""
    reply_items: ItemsOfReply | None = None
    """The map of a response to the Responses places (None for the reference)."""
    message_items: ItemsOfMessage | None = None
    words: ApiWords | None = None
    """How the diagrams and ``narrate`` name its parts (None: the Responses words of the catalogue)."""
    tables: Mapping[str, list[Row]] | None = None
    """The API's field-kind tables, by message type."""
    detectors: Sequence[Detector] = ()


def apis() -> list[ApiEntry]:
    """Every API's entry, ordered by ``order`` (the package's folders, then ``LESSONS_LIB_APIS``)."""
    return sorted(entries(PACKAGE, VARIABLE, ApiEntry), key=lambda e: e.order)


def names() -> tuple[str, ...]:
    """Every API's name, in the registry's order."""
    return tuple(e.name for e in apis())


def registry() -> dict[str, ApiEntry]:
    """Name -> entry, in the registry's order."""
    return {e.name: e for e in apis()}


def keys() -> dict[str, str]:
    """Name -> the environment variable of its key."""
    return {e.name: e.key for e in apis()}


def api_entry(api: str) -> ApiEntry:
    """The registry entry of ``api``; an unknown name is a one-line ``ValueError``."""
    found = registry()
    entry = found.get(api)
    if entry is None:
        raise ValueError(f"unknown model API '{api}'; known: {', '.join(found)}")
    return entry


def reference_api() -> str:
    """The name of the reference API (the one entry with ``reference=True``: Responses)."""
    return next(e.name for e in apis() if e.reference)


def is_reference(api: str) -> bool:
    """Whether ``api`` is the reference API (its messages already use the Responses places)."""
    return api_entry(api).reference


def api_or_reference(api: str | None) -> str:
    """``api``, or the reference API's name when None (a trace without ``model.api``)."""
    return reference_api() if api is None else api
