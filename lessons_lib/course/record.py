"""``python -m lessons_lib record``: write the fixtures in ``data/`` from one offline run.

Introduced in lesson 06. Every fixture is cut from the same recorded trace (head 20), so
re-recording is byte-identical and no message is typed by hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lessons_lib.checks.attachments import fragments_from_trace, roundtrip_from_trace
from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.messages import speaking, t
from lessons_lib.core.paths import DATA_DIR
from lessons_lib.core.traces.trace import Trace, dump_json

MESSAGE_FILES = (
    "request_1.json",
    "response_1.json",
    "request_2.json",
    "response_2.json",
    "mcp_request.json",
    "mcp_response.json",
)
ATTACHMENTS = ("field_fragments.json", "responses_roundtrip.json")
STANDALONE_DIR = DATA_DIR.parent / "examples"
"""The repository's ``examples/``: the source lesson's stand-alone checkers and attachments (lesson 07)."""
TRACE_FILE = "trace.json"
DIAGRAM_DIR = "diagrams"


def fixtures_from_trace(trace: Trace) -> JSONObject:
    """File name -> JSON object: the four model messages, the MCP pair, the attachments, the trace."""

    mcp_request, mcp_response = trace.mcp_pair("tools/call")
    files: dict[str, Any] = {
        "request_1.json": trace.body("request_1", channel="model"),
        "response_1.json": trace.body("response_1", channel="model"),
        "request_2.json": trace.body("request_2", channel="model"),
        "response_2.json": trace.body("response_2", channel="model"),
        "mcp_request.json": mcp_request,
        "mcp_response.json": mcp_response,
    }
    data = trace.to_dict()
    files["field_fragments.json"] = fragments_from_trace(data)
    files["responses_roundtrip.json"] = roundtrip_from_trace(data)
    files[TRACE_FILE] = data
    return files


def standalone_fixtures(trace: Trace) -> dict[str, JSONObject]:
    """The two attachments of ``examples/`` (lesson 07): those of ``data/``, their note naming
    the stand-alone scripts. Always in Chinese, like ``data/``, so re-recording is byte-identical."""
    data = trace.to_dict()
    with speaking("zh"):
        pieces = (
            ("field_fragments.json", fragments_from_trace(data), "fragments"),
            ("responses_roundtrip.json", roundtrip_from_trace(data), "roundtrip"),
        )
        return {name: {**obj, "note": t(f"p1b.standalone.note.{what}")} for name, obj, what in pieces}


def diagrams_from_trace(trace: Trace) -> dict[str, str]:
    """File name -> SVG text of the four course diagrams, the trace one drawn from this run."""
    from lessons_lib.views.diagrams import actors_diagram, chain_diagram, loop_diagram
    from lessons_lib.views.sequence import trace_diagram

    drawn = {
        "actors.svg": actors_diagram(),
        "loop.svg": loop_diagram(),
        "chain_execution.svg": chain_diagram("execution"),
        "trace.svg": trace_diagram(trace),
    }
    return {name: diagram.svg() for name, diagram in drawn.items()}


def record_fixtures(out: Path = DATA_DIR, examples: Path | None = None) -> list[Path]:
    """Run the chain offline with head 20 and write every fixture into ``out``; with ``examples``,
    also the stand-alone attachments (``standalone_fixtures``) into that folder."""
    from lessons_lib.engine.host import run_chain

    trace = run_chain()
    if trace.outcome.get("status") != "answered":
        raise RuntimeError(f"the recording run did not reach an answer: {trace.outcome.get('reason')}")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, obj in fixtures_from_trace(trace).items():
        path = out / name
        path.write_text(dump_json(obj), encoding="utf-8")
        written.append(path)
    if examples is not None:
        examples.mkdir(parents=True, exist_ok=True)
        for name, obj in standalone_fixtures(trace).items():
            (examples / name).write_text(dump_json(obj), encoding="utf-8")
            written.append(examples / name)
    (out / DIAGRAM_DIR).mkdir(exist_ok=True)
    for name, svg in diagrams_from_trace(trace).items():
        path = out / DIAGRAM_DIR / name
        path.write_text(svg, encoding="utf-8")
        written.append(path)
    from lessons_lib.apis.record import record_api_fixtures  # data/chat/, data/anthropic/ (lesson 20)

    return written + record_api_fixtures(out)


def load_fixture(name: str) -> Any:
    """One fixture from ``data/`` as a JSON object, e.g. ``load_fixture("request_1.json")``."""
    path = DATA_DIR / (name if name.endswith(".json") else f"{name}.json")
    return json.loads(path.read_text(encoding="utf-8"))
