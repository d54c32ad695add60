"""Send one (perhaps hand-edited) model request again, through the real SDK, to a fresh stand-in. Lesson 22.

Introduced in lesson 22. ``replay("anthropic", body)`` posts ``body`` with the ``anthropic``
SDK's ``messages.create`` (``chat.completions.create`` for ``"chat"``, ``responses.create``
for ``"responses"``) to a new offline stand-in and returns what came back: the HTTP status and
the JSON body, an error body included. It is how a lesson shows what the API says when the
call item or the ``tool_use`` block is dropped. Several bodies in one call share one stand-in,
so a later one can name an earlier one's ``previous_response_id``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import reduce
from typing import TYPE_CHECKING, cast

import httpx2

from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.messages import t
from lessons_lib.core.plugins.apiregistry import api_entry
from lessons_lib.core.traces.trace import dump_json
from lessons_lib.engine.models import RecordingTransport
from lessons_lib.engine.redact import OFFLINE_KEY
from lessons_lib.engine.runsync import run_sync

if TYPE_CHECKING:
    from openai import AsyncOpenAI

RequestBody = Mapping[str, object]
"""A request body as the keyword arguments of the SDK's create method."""


@dataclass(frozen=True)
class Reply:
    """What the stand-in answered to one replayed request."""

    status: int
    body: JSONObject

    @property
    def ok(self) -> bool:
        return self.status == 200

    @property
    def error_message(self) -> str | None:
        """The API's error message (``error.message``), or None for a 200."""
        error = self.body.get("error")
        return str(error.get("message")) if not self.ok and isinstance(error, dict) else None

    def __repr__(self) -> str:
        return f"Reply(status={self.status}, error={self.error_message!r})"

    def _repr_mimebundle_(
        self, include: object = None, exclude: object = None, **kw: object
    ) -> dict[str, str]:
        error = self.error_message
        head = t("replay.head_error", status=self.status, error=error) if error else f"HTTP {self.status}"
        return {"text/plain": head + "\n" + dump_json(self.body).rstrip("\n")}


def _transport(api: str) -> httpx2.AsyncBaseTransport:
    return cast("httpx2.AsyncBaseTransport", api_entry(api).replay_standin())


async def _send(api: str, client: object, body: RequestBody) -> None:
    method = reduce(getattr, api_entry(api).create.split("."), client)  # e.g. client.messages.create
    await cast("Callable[..., Awaitable[object]]", method)(**body)


def openai_client(http: httpx2.AsyncClient) -> tuple[AsyncOpenAI, tuple[type[BaseException], ...]]:
    """The OpenAI SDK's client for a replay (Responses, Chat), and its HTTP-status error."""
    from openai import APIStatusError, AsyncOpenAI

    return AsyncOpenAI(api_key=OFFLINE_KEY, max_retries=0, http_client=http), (APIStatusError,)


async def areplay(api: str, bodies: Sequence[RequestBody]) -> list[Reply]:
    """Async form of :func:`replay_all`."""
    replies: list[Reply] = []

    def sink(direction: str, body: JSONObject, code: int | None) -> None:
        if direction == "response":
            replies.append(Reply(code or 0, body))

    http = httpx2.AsyncClient(transport=RecordingTransport(_transport(api), sink))
    client, errors = api_entry(api).replay_client(http)  # the API's own SDK, held by its entry
    async with client:
        for body in bodies:
            try:
                await _send(api, client, body)
            except errors:
                pass  # an HTTP error is an answer too: the sink has recorded its body
    return replies


def replay_all(api: str, bodies: Sequence[RequestBody]) -> list[Reply]:
    """Replay several request bodies, in order, to one stand-in (lesson 22)."""

    async def main() -> list[Reply]:
        return await areplay(api, bodies)

    return run_sync(main)


def replay(api: str, body: RequestBody) -> Reply:
    """Replay one request body to a fresh stand-in of ``api``; the reply may be an HTTP 400 (lesson 22)."""
    return replay_all(api, [body])[0]
