"""The Responses API plug-in (the reference API of part one; its stand-in with server-side state, lesson 22).

``ENTRY`` is this folder's one registry entry: the kernel finds it by listing ``lessons_lib/apis``.
Its offline and live settings are the course's own (``engine.models``). The parts that need the
SDKs (the adapter, the settings, the stand-in) are imported on first use, so the verifiers and
the doctor read this entry on the standard library alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lessons_lib.apis.openaisdk import enable_live_hint, live_setting, replay_client
from lessons_lib.apis.responses.shapes import SHAPE, is_body
from lessons_lib.core.plugins.apiregistry import ApiEntry

if TYPE_CHECKING:
    from lessons_lib.apis.responses.adapter import ResponsesAdapter
    from lessons_lib.apis.responses.standin_state import StatefulOfflineModel
    from lessons_lib.engine.models import ModelSetting


def adapter(tool_choice: object = None) -> ResponsesAdapter:
    """A fresh Responses adapter (``adapter.ResponsesAdapter``)."""
    from lessons_lib.apis.responses.adapter import ResponsesAdapter

    return ResponsesAdapter(tool_choice)


def offline_setting(model: str | None = None) -> ModelSetting:
    """The course's offline setting (``engine.models.offline_setting``)."""
    from lessons_lib.engine.models import offline_setting as setting

    return setting(model)


def standin() -> StatefulOfflineModel:
    """A fresh stand-in with server-side state, for ``replay`` (lesson 22)."""
    from lessons_lib.apis.responses.standin_state import StatefulOfflineModel

    return StatefulOfflineModel()


ENTRY = ApiEntry(
    name="responses",
    title="Responses",
    key="OPENAI_API_KEY",
    sdk="openai",
    create="responses.create",
    order=0,
    adapter=adapter,
    offline=offline_setting,
    live=live_setting,
    replay_standin=standin,
    enable_live=enable_live_hint,
    replay_client=replay_client,
    shapes=SHAPE,
    is_body=is_body,
    reference=True,
    in_trace=False,
    tool_schema="FunctionTool",
)
