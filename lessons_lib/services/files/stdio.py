"""The file service over stdio, answering every malformed frame. Introduced in lesson 04.

stdout carries only JSON-RPC frames; every log line goes to stderr. The SDK's stdio transport
drops or blurs some malformed requests, so two checks are written here (JSON-RPC 2.0 asks for
an answer to each): a request whose ``id`` is not a string or an integer (null, an object, a
fraction) is answered ``-32600`` with ``"id": null`` instead of being taken for a notification;
a ``tools/call`` whose ``name`` or ``arguments`` has the wrong type is answered ``-32602`` with
the field named in ``data``; a line that is not JSON, or not JSON-RPC, gets ``-32700`` or
``-32600``. A line past the bounds of :mod:`lessons_lib.core.bounds` (longer than
``MAX_LINE_BYTES``, nested deeper than ``MAX_JSON_DEPTH``) is answered ``-32600`` with
``"id": null`` before any parser recurses into it, and the server goes on. The front end
(``python -m lessons_lib serve``) is :mod:`lessons_lib.examples.files.cli_serve`.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterable, AsyncIterator
from io import TextIOWrapper
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from lessons_lib.core.bounds import MAX_LINE_BYTES, BoundsError, parse_json
from lessons_lib.core.paths import LOGICAL_ROOT

if TYPE_CHECKING:
    from anyio.abc import ObjectReceiveStream, ObjectSendStream
    from mcp.server import Server
    from mcp.shared.message import SessionMessage
    from mcp_types import ErrorData

READY: Final = f"serve: read_text_file ready on stdio, {LOGICAL_ROOT} -> the --root folder"
"""The one line on stderr that says the server is reading stdin (tests wait for it)."""


def serve(root: Path, server: Server | None = None, ready: str = READY) -> None:
    """Serve ``read_text_file`` over ``root`` (or any low-level ``server``) on stdio until stdin closes."""
    import anyio
    from mcp.server.stdio import stdio_server

    from lessons_lib.services.files.service import build_server

    server = server if server is not None else build_server(root)

    async def run() -> None:
        stdin = anyio.wrap_file(TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
        checked = CheckedLines(stdin)
        async with stdio_server(stdin=checked) as (read, write):  # type: ignore[arg-type]  # only iterated
            checked.answer = write
            passed_send, passed_read = anyio.create_memory_object_stream["SessionMessage | Exception"](0)
            print(ready, file=sys.stderr, flush=True)
            async with anyio.create_task_group() as tg:
                tg.start_soon(answer_bad_lines, read, passed_send, write)
                await server.run(passed_read, write, server.create_initialization_options())
                tg.cancel_scope.cancel()

    anyio.run(run)


class CheckedLines:
    """stdin as lines for the SDK's reader; a request it would misread is answered here."""

    def __init__(self, lines: AsyncIterable[str]) -> None:
        self._lines = lines
        self.answer: ObjectSendStream[SessionMessage] | None = None

    def __aiter__(self) -> AsyncIterator[str]:
        return self._checked()

    async def _checked(self) -> AsyncIterator[str]:
        async for line in self._lines:
            problem = frame_problem(line)
            if problem is None or self.answer is None:
                yield line
            else:
                await self.answer.send(_error_message(*problem))


def frame_problem(line: str) -> tuple[object, ErrorData] | None:
    """(reply id, error) for a request the SDK would drop or answer vaguely; else None."""
    from mcp_types import INVALID_PARAMS, INVALID_REQUEST, ErrorData

    if len(line) > MAX_LINE_BYTES:  # characters: never fewer than the bytes' count / 4
        message = f"Invalid Request: the line is longer than {MAX_LINE_BYTES} characters"
        return None, ErrorData(code=INVALID_REQUEST, message=message, data={"limit": "size"})
    try:
        frame: Any = parse_json(line, what="the line")
    except BoundsError as exc:
        return None, ErrorData(
            code=INVALID_REQUEST, message=f"Invalid Request: {exc}", data={"limit": "depth"}
        )
    except ValueError:
        return None  # the SDK's reader reports it; answer_bad_lines answers -32700
    if not isinstance(frame, dict) or not isinstance(frame.get("method"), str) or "id" not in frame:
        return None
    rid = frame["id"]
    if isinstance(rid, bool) or not isinstance(rid, str | int):
        message = f"Invalid Request: 'id' must be a string or an integer, got {_kind(rid)}"
        return None, ErrorData(code=INVALID_REQUEST, message=message, data={"field": "id"})
    if frame["method"] != "tools/call":
        return None
    params = frame.get("params")
    checks = [
        ("params", isinstance(params, dict), "an object"),
        ("params.name", isinstance(params, dict) and isinstance(params.get("name"), str), "a string"),
        (
            "params.arguments",
            isinstance(params, dict) and isinstance(params.get("arguments", {}), dict),
            "an object",
        ),
    ]
    for field, ok, expected in checks:
        if not ok:
            got = _kind(_get(frame, field))
            message = f"Invalid params: '{field}' must be {expected}, got {got}"
            return rid, ErrorData(code=INVALID_PARAMS, message=message, data={"field": field})
    return None


def _get(frame: dict[str, object], dotted: str) -> object:
    value: object = frame
    for key in dotted.split("."):
        value = value.get(key, _MISSING) if isinstance(value, dict) else _MISSING
    return value


_MISSING: Final = object()


def _kind(value: object) -> str:
    if value is _MISSING:
        return "nothing (missing)"
    names = {type(None): "null", bool: "true/false", str: "a string", dict: "an object", list: "a list"}
    return names.get(type(value), "a fraction" if isinstance(value, float) else "a number")


def _error_message(rid: object, error: ErrorData) -> SessionMessage:
    from mcp.shared.message import SessionMessage
    from mcp_types import JSONRPCError

    reply_id = rid if isinstance(rid, str | int) and not isinstance(rid, bool) else None
    return SessionMessage(JSONRPCError(jsonrpc="2.0", id=reply_id, error=error))


async def answer_bad_lines(
    read: ObjectReceiveStream[SessionMessage | Exception],
    good: ObjectSendStream[SessionMessage | Exception],
    write: ObjectSendStream[SessionMessage],
) -> None:
    """Pass frames on; answer a line that is not a JSON-RPC message with a JSON-RPC error.

    The SDK's stdio transport only logs such a line at debug level, so the client would wait
    forever; JSON-RPC 2.0 asks for ``-32700 Parse error`` (or ``-32600``) with ``"id": null``.
    """
    from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData

    async with good:
        async for item in read:
            if not isinstance(item, Exception):
                await good.send(item)
                continue
            errors = getattr(item, "errors", None)
            found = errors() if callable(errors) else []
            if found and found[0].get("type") == "json_invalid":
                error = ErrorData(code=PARSE_ERROR, message="Parse error: the line is not JSON")
            else:
                error = ErrorData(code=INVALID_REQUEST, message="Invalid Request: not a JSON-RPC 2.0 message")
            await write.send(_error_message(None, error))
