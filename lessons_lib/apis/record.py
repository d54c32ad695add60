"""The fixtures of the two newer APIs: ``data/chat/`` and ``data/anthropic/``. Lesson 20.

Introduced in lesson 20. ``python -m lessons_lib record`` writes them next to part one's: for
each API one offline run with head 20 through that API's real SDK and stand-in, and every
file cut from its trace (never typed by hand): the four model messages, the MCP pair, the
round trip (``lessons_lib.roundtrip/1`` with ``"api"``) and the trace itself. The MCP pair is
the same bytes in all three folders: only the model side differs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from lessons_lib.core.traces.trace import Trace, dump_json

API_DIRS: Final = ("chat", "anthropic")
FILES: Final = (
    "request_1.json",
    "response_1.json",
    "request_2.json",
    "response_2.json",
    "mcp_request.json",
    "mcp_response.json",
    "roundtrip.json",
    "trace.json",
)


def api_fixtures(trace: Trace, api: str) -> dict[str, object]:
    """File name -> JSON object for one API's run (each only written out as JSON)."""
    from lessons_lib.checks.attachments import roundtrip_from_trace

    mcp_request, mcp_response = trace.mcp_pair("tools/call")
    data = trace.to_dict()
    roundtrip = roundtrip_from_trace(data)
    roundtrip = {
        "format": roundtrip["format"],
        "api": api,
        **{k: v for k, v in roundtrip.items() if k != "format"},
    }
    files: dict[str, object] = {name: trace.body(name[:-5], channel="model") for name in FILES[:4]}
    files.update({"mcp_request.json": mcp_request, "mcp_response.json": mcp_response})
    files.update({"roundtrip.json": roundtrip, "trace.json": data})
    return files


def record_api_fixtures(out: Path) -> list[Path]:
    """Run each newer API offline with head 20 and write its files into ``out/<api>/``."""
    from lessons_lib.engine.host import run_chain

    written = []
    for api in API_DIRS:
        trace = run_chain(api=api)
        if trace.outcome.get("status") != "answered":
            raise RuntimeError(
                f"the {api} recording run did not reach an answer: {trace.outcome.get('reason')}"
            )
        (out / api).mkdir(parents=True, exist_ok=True)
        for name, obj in api_fixtures(trace, api).items():
            path = out / api / name
            path.write_text(dump_json(obj), encoding="utf-8")
            written.append(path)
    return written
