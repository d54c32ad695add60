"""The trace: every message of one run, in order, as plain JSON. Introduced in lesson 03.

Format ``lessons_lib.trace/1`` (a JSON object; key order as written here)::

    {
      "format": "lessons_lib.trace/1",
      "task": "请读取 /workspace/notes.txt 的前 20 行。",
      "model": {"mode": "offline" | "live", "name": "gpt-4.1", "label": "...",
                "api": "responses" | "chat" | "anthropic"},   # api absent = "responses"
      "tools": [{"alias": "fs__read_text_file", "service": "fs", "name": "read_text_file"}],
      "events": [
        {"seq": 0, "channel": "mcp", "from": "application", "to": "fs",
         "label": "initialize", "body": {...JSON-RPC frame as on the wire...}},
        ...
        {"seq": 5, "channel": "model", "from": "application", "to": "model",
         "label": "request_1", "body": {...POST /v1/responses body...}},
        {"seq": 6, "channel": "model", "from": "model", "to": "application",
         "label": "response_1", "body": {...Response object...}},
        {"seq": 7, "channel": "mcp", "from": "application", "to": "fs",
         "label": "tools/call", "body": {"jsonrpc": "2.0", "id": 3, "method": "tools/call", ...}},
        {"seq": 8, "channel": "mcp", "from": "fs", "to": "application",
         "label": "tools/call", "body": {"jsonrpc": "2.0", "id": 3, "result": {...}}},
        ...
      ],
      "links": [{"call_id": "call_...", "alias": "fs__read_text_file", "service": "fs",
                 "tool": "read_text_file", "mcp_id": 3}],
      "answer": "..." | null,
      "outcome": {"status": "answered" | "stopped" | "error", "reason": "..."}
    }

Model events are labelled ``request_N`` / ``response_N`` for round N; MCP events carry the
JSON-RPC method (a response carries the method of the request it answers). A link with
``mcp_id: null`` is a call that never reached a service (bad JSON, unknown alias).
Bodies only: never HTTP headers, never keys. The keys' types are in
:mod:`lessons_lib.core.traces.tracetypes` (checked by ``check_trace`` wherever a trace is loaded); the
questions every reader asks of a trace are in :mod:`lessons_lib.core.traces.queries`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from lessons_lib.core.jsonvalue import JSON, JSONObject
from lessons_lib.core.traces import queries
from lessons_lib.core.traces.tracetypes import (
    FORMAT,
    CallRecord,
    Channel,
    Event,
    ModelInfo,
    Outcome,
    ToolEntry,
    TraceData,
    check_trace,
)


def dump_json(obj: object) -> str:
    """The one JSON spelling used for traces and fixtures: UTF-8, 2-space indent, final newline."""
    return json.dumps(obj, ensure_ascii=False, indent=2) + "\n"


def _running() -> Outcome:
    return {"status": "running", "reason": ""}


@dataclass
class Trace:
    """An ordered record of one run of the chain (plain JSON inside: see ``to_dict``)."""

    task: str
    model: ModelInfo
    tools: list[ToolEntry] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    links: list[CallRecord] = field(default_factory=list)
    answer: str | None = None
    outcome: Outcome = field(default_factory=_running)

    def add(self, channel: Channel, sender: str, receiver: str, label: str, body: JSONObject) -> None:
        """Append one message; ``seq`` is its position, so ids stay deterministic."""
        self.events.append(
            {
                "seq": len(self.events),
                "channel": channel,
                "from": sender,
                "to": receiver,
                "label": label,
                "body": body,
            }
        )

    def find(self, label: str, channel: Channel | None = None) -> list[Event]:
        """All events with this label (and channel), in order."""
        return [
            e for e in self.events if e["label"] == label and (channel is None or e["channel"] == channel)
        ]

    def body(self, label: str, index: int = 0, channel: Channel | None = None) -> JSONObject | None:
        """The body of the index-th event with this label, or None if there is none."""
        found = self.find(label, channel)
        return found[index]["body"] if len(found) > index else None

    def mcp_pair(self, method: str = "tools/call", index: int = 0) -> tuple[JSONObject, JSONObject | None]:
        """The index-th MCP request of ``method`` and its reply (same service, same JSON-RPC id).

        Each service numbers its own requests, so an id alone does not identify a reply.
        """
        exchange = queries.mcp_exchanges(self, method)[index]
        return exchange.request, exchange.reply

    def to_dict(self) -> TraceData:
        return {
            "format": FORMAT,
            "task": self.task,
            "model": self.model,
            "tools": self.tools,
            "events": self.events,
            "links": self.links,
            "answer": self.answer,
            "outcome": self.outcome,
        }

    def to_json(self) -> str:
        return dump_json(self.to_dict())

    @classmethod
    def from_dict(cls, data: JSON | object) -> Trace:
        """Rebuild a trace; raises ``TraceShapeError`` (a ValueError) with one line if the shape is wrong."""
        checked = check_trace(data)
        return cls(
            task=checked["task"],
            model=checked["model"],
            tools=list(checked["tools"]),
            events=list(checked["events"]),
            links=list(checked["links"]),
            answer=checked["answer"],
            outcome=checked["outcome"],
        )

    def __repr__(self) -> str:
        return (
            f"Trace(task={self.task!r}, model={self.model.get('mode')!r}, events={len(self.events)}, "
            f"outcome={self.outcome.get('status')!r})"
        )


def event_number(event: Event | JSONObject) -> str:
    """How lessons number a message: ``[01]`` for seq 0, the same in text and diagrams."""
    seq = event.get("seq")
    return f"[{seq + 1:02d}]" if isinstance(seq, int) else "[??]"


def load_trace(path: str | Path) -> Trace:
    """Read a trace file; raises ValueError (one line, with the reason) for a missing or malformed file."""
    from lessons_lib.core.bounds import load_json_file

    return Trace.from_dict(load_json_file(path))


__all__ = ["Trace", "dump_json", "event_number", "load_trace"]
