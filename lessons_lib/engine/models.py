"""Model clients for the application: the offline stand-in or a live endpoint, one code path.

Introduced in lesson 00. Both go through the same SDK client (see ``engine.adapters``); only the
HTTP transport differs. A recording wrapper keeps the JSON *bodies* the SDK sent and received (never
headers, never the key) so the trace shows the messages exactly.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import httpx2

from lessons_lib.core.example import MODEL_NAME
from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.messages import t
from lessons_lib.core.traces.tracetypes import ModelInfo
from lessons_lib.engine.redact import OFFLINE_KEY


def enable_live_hint() -> str:
    """How to turn the live model on, in the current language."""
    return t("models.enable_live")


MAX_REPLY_BYTES: Final = 8 * 1024 * 1024
"""The largest model reply the client accepts (decoded); a larger one is refused unread."""

BodySink = Callable[[str, JSONObject, int | None], None]
"""Called as ``sink("request" | "response", body, http_status)`` for each JSON body, and as
``sink("refused", {"reason": ...}, http_status)`` for a reply the client would not take."""


class RecordingTransport(httpx2.AsyncBaseTransport):
    """Wraps a transport and hands every JSON request and response body to a sink."""

    def __init__(
        self, inner: httpx2.AsyncBaseTransport, sink: BodySink, max_bytes: int = MAX_REPLY_BYTES
    ) -> None:
        self._inner = inner
        self._sink = sink
        self._max = max_bytes

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        sent = await request.aread()
        if sent:
            self._sink("request", _json_or_text(sent), None)
        response = await self._inner.handle_async_request(request)
        received = await self._capped(response)
        self._sink("response", _json_or_text(received), response.status_code)
        # The body is already decoded: drop the headers that described the encoded bytes.
        headers = [
            (k, v)
            for k, v in response.headers.items()
            if k.lower() not in {"content-encoding", "content-length"}
        ]
        return httpx2.Response(response.status_code, headers=headers, content=received, request=request)

    async def _capped(self, response: httpx2.Response) -> bytes:
        """The decoded body, read only up to the cap (announced or counted)."""
        announced = response.headers.get("content-length", "")
        chunks: list[bytes] = []
        size = int(announced) if announced.isdigit() else 0
        if size <= self._max:
            size = 0
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > self._max:
                    break
                chunks.append(chunk)
        if size > self._max:
            await response.aclose()
            reason = (
                f"the model API sent a reply of more than {self._max} bytes; "
                f"the client accepts at most {self._max} bytes (MAX_REPLY_BYTES) and read no further"
            )
            self._sink("refused", {"reason": reason}, response.status_code)
            raise ReplyRefused(reason)
        return b"".join(chunks)

    async def aclose(self) -> None:
        await self._inner.aclose()


class ReplyRefused(Exception):
    """The client would not take a reply (too large); the reason is one line."""


def _json_or_text(raw: bytes) -> JSONObject:
    try:
        value = json.loads(raw)
    except ValueError:
        return {"non_json_body": raw.decode("utf-8", "replace")[:2000]}
    return value if isinstance(value, dict) else {"json_body": value}


@dataclass(frozen=True)
class ModelSetting:
    """Which model the run talks to; ``key`` is never written anywhere."""

    mode: str
    name: str
    label: str
    base_url: str | None = None
    key: str = OFFLINE_KEY

    def public(self) -> ModelInfo:
        """What the trace may say about the model (no key, no address)."""
        return {"mode": self.mode, "name": self.name, "label": self.label}


def live_setting(model: str | None = None) -> ModelSetting | None:
    """The live setting from the environment, or None when ``OPENAI_API_KEY`` is not set."""
    key = os.environ.get("OPENAI_API_KEY", "").strip()
    if not key:
        return None
    name = model or os.environ.get("LESSONS_MODEL") or MODEL_NAME
    base = check_base_url(os.environ.get("OPENAI_BASE_URL", "").strip() or None)
    return ModelSetting("live", name, t("models.live_label"), base, key)


def check_base_url(url: str | None) -> str | None:
    """``OPENAI_BASE_URL`` if it is a usable http(s) URL; otherwise a one-line ValueError."""
    if url is None:
        return None
    try:
        parsed = httpx2.URL(url)
        port = parsed.port
        ok = parsed.scheme in {"http", "https"} and bool(parsed.host) and (port is None or 0 < port < 65536)
    except (httpx2.InvalidURL, ValueError, TypeError):
        ok = False
    if not ok:
        raise ValueError(
            f"OPENAI_BASE_URL={url!r} is not an http(s) URL like https://api.openai.com/v1; fix or unset it"
        )
    return url


def offline_setting(model: str | None = None) -> ModelSetting:
    return ModelSetting("offline", model or MODEL_NAME, t("models.offline_label"))


def live_status() -> str:
    """One deterministic line for lesson 00: offline, or live with which model (never the key)."""
    try:
        setting = live_setting()
    except ValueError as exc:
        return t("models.key_wrong", error=exc)
    if setting is None:
        return enable_live_hint()
    return t("models.key_found", name=setting.name)


def make_http_client(
    sink: BodySink, transport: httpx2.AsyncBaseTransport | None, timeout: float
) -> httpx2.AsyncClient:
    """The HTTP client every SDK of a run uses: bodies go to ``sink``; offline uses ``transport``."""
    inner = transport if transport is not None else httpx2.AsyncHTTPTransport()
    return httpx2.AsyncClient(transport=RecordingTransport(inner, sink), timeout=timeout)
