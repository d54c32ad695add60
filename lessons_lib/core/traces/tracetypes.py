"""The types of the trace format ``lessons_lib.trace/1`` and its one shape check. Lesson 03.

The runtime form stays plain JSON (dicts and lists): these TypedDicts only name its keys, so
a trace read from a file, built by the host or edited by a sabotage is the same object. The
format itself is described in :mod:`lessons_lib.core.traces.trace`. :func:`check_trace` is the one
place where a trace's shape is judged; every loader calls it and refuses a malformed trace
with one line (``ValueError``). Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal, NotRequired, TypeAlias, TypedDict, cast

from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.plugins.apiregistry import names

FORMAT: Final = "lessons_lib.trace/1"

Channel: TypeAlias = Literal["mcp", "model"]
CHANNELS: Final[tuple[Channel, ...]] = ("mcp", "model")
Status: TypeAlias = Literal["running", "answered", "stopped", "error"]
STATUSES: Final[tuple[Status, ...]] = ("running", "answered", "stopped", "error")


class ModelInfo(TypedDict):
    """Which model answered: ``mode`` offline/live, the model ``name``, a human ``label``."""

    mode: str
    name: str
    label: str
    api: NotRequired[str]
    """Which model API the run spoke (a name of ``core.plugins.apiregistry``); absent: the reference API."""


class ToolEntry(TypedDict):
    """One declared tool: the model-side ``alias`` and the ``service`` + original ``name`` it maps to."""

    alias: str
    service: str
    name: str


class HttpEnvelope(TypedDict):
    """The HTTP exchange that carried one MCP frame (lesson 60): its own layer, beside the frame.

    ``method`` and ``status`` of the request and its answer, the answer's ``content_type``,
    ``stream`` how the answer came (``json``, ``sse`` or ``none`` for 202 Accepted), ``headers`` the
    MCP headers (``mcp-protocol-version``, ``mcp-method``, ``mcp-name``, ``mcp-session-id``) sent with
    a request frame or received with a reply frame. A session id is kept as ``(session id)``: the
    value changes every run, its presence is what a lesson shows. Never a URL, a port or a time.
    """

    method: str
    status: int
    content_type: str
    stream: str
    headers: dict[str, str]


HTTP_STREAMS: Final = ("json", "sse", "none")

Event = TypedDict(
    "Event",
    {
        "seq": int,
        "channel": Channel,
        "from": str,
        "to": str,
        "label": str,
        "body": JSONObject,
        "http": NotRequired[HttpEnvelope],
    },
)
"""One message as sent or received: ``body`` is the wire JSON (never headers, never keys); over
HTTP, ``http`` is the envelope that carried it (an MCP event of a stdio or in-process run has none)."""


class CallRecord(TypedDict):
    """The application's record of one tool call: call id -> alias -> service, tool -> MCP id.

    ``service``/``tool`` are None when the alias was unknown; ``mcp_id`` is None when the call
    never reached a service (bad JSON, unknown alias).
    """

    call_id: str | None
    alias: str | None
    service: str | None
    tool: str | None
    mcp_id: int | str | None
    attempts: NotRequired[list[int | str | None]]
    """The JSON-RPC id of every try when the tool layer may retry (``Policy.tool_retries``)."""
    filled: NotRequired[list[str]]
    """Argument fields the application's call layer filled itself (``Policy.calls``, lesson 32)."""
    round: NotRequired[int]
    """The ledger fields (lesson 31), written when the order desk's run ends:"""
    arguments: NotRequired[str]
    status: NotRequired[str]
    result: NotRequired[str]


class Outcome(TypedDict):
    """How the run ended: ``reason`` one English line for programs, ``text`` the same in Chinese."""

    status: Status
    reason: str
    text: NotRequired[str]


class TraceData(TypedDict):
    format: str
    task: str
    model: ModelInfo
    tools: list[ToolEntry]
    events: list[Event]
    links: list[CallRecord]
    answer: str | None
    outcome: Outcome


"""A whole trace as JSON (``Trace.to_dict()``)."""


class TraceShapeError(ValueError):
    """A trace that does not have the documented shape; the message is one line."""


# ------------------------------------------------------------------ the one shape check
def _kind(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null"}
    return names.get(type(value), "a number" if isinstance(value, int | float) else type(value).__name__)


def _need(ok: bool, where: str, expected: str, got: object) -> None:
    if not ok:
        raise TraceShapeError(f"not a valid trace: {where} should be {expected}, got {_kind(got)}")


def _obj(value: object, where: str) -> Mapping[str, object]:
    _need(isinstance(value, dict), where, "an object", value)
    return cast("Mapping[str, object]", value)


def _str(parent: Mapping[str, object], key: str, where: str, *, null: bool = False) -> None:
    value = parent.get(key)
    ok = isinstance(value, str) or (null and value is None)
    _need(ok and (key in parent), f"{where}.{key}", "a string" + (" or null" if null else ""), value)


def _list(parent: Mapping[str, object], key: str, where: str) -> list[object]:
    value = parent.get(key)
    _need(isinstance(value, list), f"{where}.{key}", "a list", value)
    return cast("list[object]", value)


def _one_of(value: object, allowed: tuple[str, ...], where: str) -> None:
    if value not in allowed:
        raise TraceShapeError(
            f"not a valid trace: {where} should be one of {', '.join(allowed)}, got {value!r}"
        )


def _check_http(value: object, where: str) -> None:
    envelope = _obj(value, where)
    for key in ("method", "content_type"):
        _str(envelope, key, where)
    status = envelope.get("status")
    _need(type(status) is int, f"{where}.status", "a whole number", status)
    _one_of(envelope.get("stream"), HTTP_STREAMS, f"{where}.stream")
    headers = _obj(envelope.get("headers"), f"{where}.headers")
    for name in headers:
        _str(headers, name, f"{where}.headers")


def check_trace(data: object) -> TraceData:
    """``data`` itself, typed, if it has the shape of a trace; else :class:`TraceShapeError`.

    Checks the envelope only (keys and their types); what the bodies say is the verifiers' job.
    """
    top = _obj(data, "the trace")
    if top.get("format") != FORMAT:
        raise TraceShapeError(f'not a trace: expected an object with "format": "{FORMAT}"')
    _str(top, "task", "trace")
    model = _obj(top.get("model"), "trace.model")
    for key in ("mode", "name", "label"):
        _str(model, key, "trace.model")
    if "api" in model:
        _one_of(model["api"], names(), "trace.model.api")
    for n, tool in enumerate(_list(top, "tools", "trace")):
        entry = _obj(tool, f"trace.tools[{n}]")
        for key in ("alias", "service", "name"):
            _str(entry, key, f"trace.tools[{n}]")
    for n, item in enumerate(_list(top, "events", "trace")):
        where = f"trace.events[{n}]"
        event = _obj(item, where)
        seq = event.get("seq")
        _need(isinstance(seq, int) and not isinstance(seq, bool), f"{where}.seq", "a whole number", seq)
        _one_of(event.get("channel"), CHANNELS, f"{where}.channel")
        for key in ("from", "to", "label"):
            _str(event, key, where)
        _obj(event.get("body"), f"{where}.body")
        if "http" in event:
            _check_http(event["http"], f"{where}.http")
    for n, item in enumerate(_list(top, "links", "trace")):
        where = f"trace.links[{n}]"
        link = _obj(item, where)
        for key in ("call_id", "alias", "service", "tool"):
            _str(link, key, where, null=True)
        mcp_id = link.get("mcp_id")
        ok = mcp_id is None or isinstance(mcp_id, str) or type(mcp_id) is int
        _need(ok and "mcp_id" in link, f"{where}.mcp_id", "a number, a string or null", mcp_id)
    _str(top, "answer", "trace", null=True)
    outcome = _obj(top.get("outcome"), "trace.outcome")
    _one_of(outcome.get("status"), STATUSES, "trace.outcome.status")
    _str(outcome, "reason", "trace.outcome")
    if "text" in outcome:
        _str(outcome, "text", "trace.outcome")
    return cast(TraceData, data)
