"""Model-API adapters: everything the host loop must know about one model API. Lesson 03.

The host (``lessons_lib.engine.host``) is the same loop for every API; what differs between
APIs lives behind the small :class:`ModelAdapter` protocol:

- ``declare(tools)``: the MCP tools, under their aliases, as this API's tool declarations;
- ``first_input(task)``: the first model input (the user's task);
- ``offline_transport(script)``: the deterministic stand-in for this API (an ``httpx2``
  transport behind the real SDK);
- ``open(setting, http_client, timeout)``: the SDK client on the host's recording HTTP client;
- ``send(model_input, tools, first)``: one model request through the SDK; SDK errors become
  :class:`Stop` (a stated reason, never a traceback), a timeout ``TimeoutError``;
- ``read(body)``: the tool calls (by item type, in order) and the answer text in the JSON body
  as received; a body of the wrong shape raises :class:`Stop`;
- ``feedback_item(result)``: one feedback item per call, paired by its ``call_id``;
- ``next_input(model_input, body, items)``: the next model input (earlier input, the model's
  output exactly as received, then the feedback items).

Each API's adapter is in its folder (``lessons_lib/apis/<name>/adapter.py``: Responses, then
Chat Completions and Anthropic Messages from lesson 20); the registry ``core.apiregistry``
names it and ``lessons_lib.engine.apis`` loads it for ``arun_chain(api=...)``. This module
holds what they share.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Final, Protocol

from lessons_lib.core.example import FAILURE_PREFIX
from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.messages import t as tr
from lessons_lib.core.plugins.apitypes import ToolCall
from lessons_lib.core.traces.tracetypes import Status

if TYPE_CHECKING:
    import httpx2
    from openai import AsyncOpenAI

    from lessons_lib.engine.models import ModelSetting
    from lessons_lib.engine.standins.rules import Script

JsonObject = JSONObject
"""A JSON object as the host handles it (``core.jsonvalue``): values are checked before use."""


class Stop(Exception):
    """Ends a run early with a stated status (``stopped`` / ``error``), a one-line English
    reason for programs and the same in Chinese (``text``) for the lessons (lesson 05)."""

    def __init__(self, status: Status, reason: str, text: str = "", http_status: int | None = None) -> None:
        super().__init__(reason)
        self.status, self.reason, self.text = status, reason, text or reason
        self.http_status = http_status  # the model API's HTTP status, when it answered an error


@dataclass(frozen=True)
class Declared:
    """One MCP tool as the host declares it: alias, service, tool name, description, rule."""

    alias: str
    service: str
    tool: str
    description: str
    input_schema: JsonObject


@dataclass(frozen=True)
class ModelReply:
    """What the host needs from one model reply: its tool calls and its answer text."""

    calls: tuple[ToolCall, ...]
    text: str | None


@dataclass(frozen=True)
class CallResult:
    """The result of one call as the application feeds it back (``output`` marked on failure)."""

    call: ToolCall
    output: str
    is_error: bool


class ModelAdapter(Protocol):
    """The API-specific half of the loop (see the module docstring)."""

    api: str
    settings: dict[str, object]
    """Extra request settings (``Policy.settings``); a None value leaves that setting out."""

    def declare(self, tools: Sequence[Declared]) -> list[JsonObject]: ...

    def first_input(self, task: str) -> list[JsonObject]: ...

    def offline_transport(self, script: Script) -> httpx2.AsyncBaseTransport: ...

    def open(self, setting: ModelSetting, http_client: httpx2.AsyncClient, timeout: float) -> None: ...

    async def send(self, model_input: list[JsonObject], tools: list[JsonObject], first: bool) -> None: ...

    def read(self, body: JsonObject) -> ModelReply: ...

    def feedback_item(self, result: CallResult) -> JsonObject: ...

    def next_input(
        self, model_input: list[JsonObject], body: JsonObject, items: Sequence[JsonObject]
    ) -> list[JsonObject]: ...


def copy_schema(schema: object) -> JsonObject:
    """A deep copy of a JSON schema, so no declaration shares objects with the MCP tool."""
    copied = json.loads(json.dumps(schema))
    return copied if isinstance(copied, dict) else {}


def openai_client(setting: ModelSetting, http_client: httpx2.AsyncClient, timeout: float) -> AsyncOpenAI:
    """The ``AsyncOpenAI`` client both OpenAI adapters use: the host's recording HTTP client, no retries."""
    from openai import AsyncOpenAI

    return AsyncOpenAI(
        api_key=setting.key,
        base_url=setting.base_url,
        max_retries=0,
        timeout=timeout,
        http_client=http_client,
    )


def with_settings(request: dict[str, object], settings: Mapping[str, object]) -> dict[str, object]:
    """The adapter's own request settings with the policy's on top, None values left out."""
    merged = {**request, **settings}
    return {k: v for k, v in merged.items() if v is not None}


CHOICES: Final[dict[bool, object]] = {True: "required", False: "auto"}
"""The loop's ``tool_choice``: ``required`` on the first request, ``auto`` after the feedback."""


class AdapterState:
    """What every adapter holds between ``open`` and ``send``: the client, the model, the choices.

    ``tool_choice`` (lessons 08 and 21) replaces the first request's choice; ``choices`` are the
    API's own values for the first request and the ones after the feedback (:data:`CHOICES`).
    """

    choices: Mapping[bool, object] = CHOICES

    def __init__(self, tool_choice: object = None) -> None:
        self._client: object = None
        self._model = ""
        self._choice = tool_choice
        self.settings: dict[str, object] = {}

    def tool_choice(self, first: bool) -> object:
        """The ``tool_choice`` of this request: the caller's on the first one, else the API's own."""
        return self._choice if first and self._choice is not None else self.choices[first]


@contextmanager
def sdk_errors(sdk: ModuleType, base_url_variable: str) -> Iterator[None]:
    """Turn a model SDK's timeout, HTTP status and connection errors into the host's own ends.

    ``openai`` and ``anthropic`` (both generated by Stainless) name these three errors alike.
    """
    try:
        yield
    except sdk.APITimeoutError:
        raise TimeoutError from None  # the host states its own time bound
    except sdk.APIStatusError as exc:
        raise http_failure(exc.status_code, exc.body) from None
    except sdk.APIConnectionError:
        raise unreachable(base_url_variable) from None


def http_failure(status_code: int, body: object) -> Stop:
    """The run's end when the model API answers an HTTP error: its own message, in both texts."""
    message = api_message(body)
    return Stop(
        "error",
        f"the model API answered HTTP {status_code}: {message}",
        tr("engine.http", status=status_code, message=message),
        http_status=status_code,
    )


def unreachable(base_url_variable: str) -> Stop:
    """The run's end when no connection to the model API could be made."""
    return Stop(
        "error",
        f"cannot reach the model API (no network, or a wrong {base_url_variable})",
        tr("engine.unreachable", variable=base_url_variable),
    )


def api_message(body: object) -> str:
    """The ``error.message`` of an API error body, or a fallback."""
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return str(inner["message"])
    return "no message"


def marked(text: str, is_error: bool) -> str:
    """A feedback text that keeps a failure visibly a failure (lesson 05)."""
    return FAILURE_PREFIX + text if is_error else text
