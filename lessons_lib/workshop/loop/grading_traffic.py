"""The traffic of one lesson-11 run, as the trusted side recorded it. Introduced in lesson 11.

A :class:`RunRecord` is plain data: the ``lessons_lib.trace/1`` events recorded by the stand-in's
transport and the services' framed transports, whether the stand-in's request cap was hit, and
the two things the learner's side claims (what the loop returned, an exception it raised).
:func:`rounds` reads the events as model rounds: each request, its response, the calls in it, and
the ``tools/call`` exchanges the application made before its next request.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Final

from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, objects

Routes = dict[str, tuple[str, JSONObject]]
"""Alias -> (service, the tool as the grader's own ``tools/list`` gives it)."""

FUNCTION_CALL: Final = "function_call"
OUTPUT: Final = "function_call_output"


@dataclass(frozen=True)
class RunRecord:
    """What the judge reads: trusted traffic, plus the learner side's two claims (lesson 11).

    ``events``: trace/1 events in arrival order, recorded outside the learner's reach;
    ``runaway``: the stand-in's request cap was hit; ``answer``: what the loop returned;
    ``raised``: one line naming an exception the loop raised. ``answer`` is checked against the
    traffic, ``raised`` can only make a run fail: neither is believed on its own.
    """

    events: tuple[JSONObject, ...]
    runaway: bool = False
    answer: object = None
    raised: str | None = None

    def to_dict(self) -> JSONObject:
        """JSON-ready (for a pipe between processes); ``answer`` becomes a string or None."""
        answer = self.answer if isinstance(self.answer, str) or self.answer is None else repr(self.answer)
        return {"events": list(self.events), "runaway": self.runaway, "answer": answer, "raised": self.raised}

    @classmethod
    def from_dict(cls, data: JSONObject) -> RunRecord:
        """The record back from :meth:`to_dict` (bad shapes become an empty, failing record)."""
        raised = data.get("raised")
        return cls(
            tuple(objects(data.get("events"))),
            data.get("runaway") is True,
            data.get("answer"),
            raised if isinstance(raised, str) else None,
        )


@dataclass(frozen=True)
class Exchange:
    """One ``tools/call`` the application sent: service, request frame, reply frame (or None)."""

    service: str
    request: JSONObject
    reply: JSONObject | None

    @property
    def name(self) -> JSON:
        return get_in(self.request, "params", "name")

    @property
    def arguments(self) -> JSON:
        return get_in(self.request, "params", "arguments")


@dataclass
class Round:
    """One model round: request ``n``, its response, its calls, and what was executed after it."""

    n: int
    request: JSONObject
    response: JSONObject | None = None
    ok: bool = False
    sent: list[Exchange] = field(default_factory=list)

    @property
    def calls(self) -> list[JSONObject]:
        return [i for i in objects(get_in(self.response, "output")) if i.get("type") == FUNCTION_CALL]

    @property
    def text(self) -> str:
        """The response's text, as the SDK's ``output_text`` joins it."""
        parts = [
            c.get("text")
            for i in objects(get_in(self.response, "output"))
            if i.get("type") == "message"
            for c in objects(i.get("content"))
            if c.get("type") == "output_text"
        ]
        return "".join(p for p in parts if isinstance(p, str))


def rounds(record: RunRecord) -> list[Round]:
    """The model rounds of the run, each with the ``tools/call`` exchanges made before the next."""
    found: list[Round] = []
    pending: dict[tuple[str, str], Exchange] = {}
    for event in record.events:
        body = event.get("body")
        if not isinstance(body, dict):
            continue
        if event.get("channel") == "model":
            label = str(event.get("label", ""))
            if label.startswith("request_"):
                found.append(Round(len(found) + 1, body))
            elif found:
                found[-1].response, found[-1].ok = body, label.startswith("response_")
            continue
        service = str(event.get("to") if event.get("from") == "application" else event.get("from"))
        key = (service, json.dumps(body.get("id")))
        if event.get("from") == "application" and body.get("method") == "tools/call" and found:
            exchange = Exchange(service, body, None)
            found[-1].sent.append(exchange)
            pending[key] = exchange
        elif event.get("from") != "application" and "method" not in body and key in pending:
            old = pending.pop(key)
            where = next(r for r in found if old in r.sent)
            where.sent[where.sent.index(old)] = Exchange(old.service, old.request, body)
    return found


def requests_sent(record: RunRecord) -> list[tuple[str, JSONObject]]:
    """Every JSON-RPC request the application sent, as (service, frame), in order."""
    return [
        (str(e.get("to")), body)
        for e in record.events
        if e.get("channel") == "mcp" and e.get("from") == "application"
        for body in [e.get("body")]
        if isinstance(body, dict) and "method" in body and "id" in body
    ]


def input_items(request: JSONObject) -> list[JSONObject] | None:
    """The request's ``input`` as items (a bare string is one user message), None if neither."""
    value = request.get("input")
    if isinstance(value, str):
        return [{"role": "user", "content": value}]
    if isinstance(value, list) and all(isinstance(v, dict) for v in value):
        return objects(value)
    return None


def user_text(item: JSONObject) -> str | None:
    """The text of a user message item (string content or ``input_text`` parts), else None."""
    if item.get("role") != "user" or item.get("type", "message") != "message":
        return None
    content = item.get("content")
    if isinstance(content, str):
        return content
    parts = [c.get("text") for c in objects(content) if c.get("type") == "input_text"]
    return "".join(p for p in parts if isinstance(p, str)) if parts else None


def parsed_arguments(arguments: JSON) -> JSONObject | None:
    """A call's arguments text parsed to an object, or None when it is not a JSON object."""
    try:
        value = json.loads(arguments) if isinstance(arguments, str) else None
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
