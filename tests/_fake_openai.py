"""A small OpenAI-compatible HTTP server for the live-path tests (no paid key, no network).

It listens on 127.0.0.1 (random port) in a thread and answers ``POST /v1/responses`` from a
script: each reply is ``(status, json_body)``, a :class:`Raw` reply (any bytes, optionally
streamed in chunks with a pause, or an endless stream), or ``HANG`` (hold the connection and
never answer, until the server is closed). It records every request body and Authorization
header.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Final

HANG: Final = "hang"
FAKE_SECRET: Final = "Qz7rTn4WbX9kLm2PvS8dHc5JfY3gNa6E"
"""32 characters that must never appear in a trace, a printout or a saved file."""
FAKE_KEY: Final = "sk-test-" + FAKE_SECRET


@dataclass(frozen=True)
class Raw:
    """A reply of raw bytes: ``body`` sent ``repeat`` times (``None``: until the client leaves),
    ``pause`` seconds between chunks; ``length`` is the Content-Length header (None: no header)."""

    body: bytes
    status: int = 200
    content_type: str = "application/json"
    repeat: int | None = 1
    pause: float = 0.0
    length: int | None = -1  # -1: the real length of body * repeat


Reply = tuple[int, dict[str, Any]] | Raw | str
Script = Sequence[Reply] | Callable[[int, dict[str, Any]], Reply]


def response_body(n: int, output: list[dict[str, Any]], model: str = "gpt-4.1") -> dict[str, Any]:
    """A complete Response object (the fields the official description requires)."""
    return {
        "id": f"resp_fake_{n:03d}",
        "object": "response",
        "created_at": 1700000000 + n,
        "status": "completed",
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "max_output_tokens": None,
        "model": model,
        "output": output,
        "parallel_tool_calls": True,
        "previous_response_id": None,
        "reasoning": {"effort": None, "summary": None},
        "store": False,
        "temperature": 1.0,
        "text": {"format": {"type": "text"}},
        "tool_choice": "auto",
        "tools": [],
        "top_p": 1.0,
        "truncation": "disabled",
        "metadata": {},
        "usage": {
            "input_tokens": 10,
            "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
            "output_tokens": 5,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 15,
        },
    }


def function_call(n: int, arguments: str, name: str = "fs__read_text_file") -> tuple[int, dict[str, Any]]:
    item = {
        "type": "function_call",
        "id": f"fc_fake_{n:03d}",
        "call_id": f"call_fake_{n:03d}",
        "name": name,
        "arguments": arguments,
        "status": "completed",
    }
    return 200, response_body(n, [item])


def message(n: int, text: str) -> tuple[int, dict[str, Any]]:
    item = {
        "type": "message",
        "id": f"msg_fake_{n:03d}",
        "status": "completed",
        "role": "assistant",
        "content": [{"type": "output_text", "text": text, "annotations": [], "logprobs": []}],
    }
    return 200, response_body(n, [item])


def api_error(
    status: int, text: str, kind: str = "invalid_request_error", code: str | None = None
) -> tuple[int, dict[str, Any]]:
    return status, {"error": {"message": text, "type": kind, "param": None, "code": code}}


class FakeOpenAI:
    """``with FakeOpenAI([...]) as api:`` then point ``OPENAI_BASE_URL`` at ``api.base_url``."""

    def __init__(self, script: Script) -> None:
        self._script = script
        self.bodies: list[dict[str, Any]] = []
        self.paths: list[str] = []
        self.authorizations: list[str] = []
        self._release = threading.Event()
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = {"non_json": raw.decode("utf-8", "replace")}
                reply = fake._record(self.path, self.headers.get("Authorization", ""), body)
                if isinstance(reply, str):  # HANG
                    fake._release.wait(30)
                    self.close_connection = True
                    return
                if isinstance(reply, Raw):
                    self._raw(reply)
                    return
                status, payload = reply
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _raw(self, raw: Raw) -> None:
                self.send_response(raw.status)
                self.send_header("Content-Type", raw.content_type)
                length = len(raw.body) * raw.repeat if raw.length == -1 and raw.repeat else raw.length
                if length is not None and length >= 0:
                    self.send_header("Content-Length", str(length))
                self.close_connection = True
                self.end_headers()
                sent = 0
                try:
                    while (raw.repeat is None or sent < raw.repeat) and not fake._release.is_set():
                        self.wfile.write(raw.body)
                        sent += 1
                        if raw.pause:
                            self.wfile.flush()
                            time.sleep(raw.pause)
                except OSError:  # the client hung up: what a capped client does
                    return

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def _record(self, path: str, authorization: str, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.paths.append(path)
            self.authorizations.append(authorization)
            self.bodies.append(body)
            n = len(self.bodies)
        if callable(self._script):
            return self._script(n, body)
        if n > len(self._script):
            return api_error(500, f"the fake API has no reply scripted for request {n}", "server_error")
        return self._script[n - 1]

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._release.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)
