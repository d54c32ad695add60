"""Helpers for the verifier tests: the recorded trace, pure edits of it, and JSON path tools."""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from typing import Any

from lessons_lib.checks.attachments import fragments_from_trace, roundtrip_from_trace
from lessons_lib.checks.evidence import mcp_exchange, model_body, output_items
from lessons_lib.core.example import FAILURE_PREFIX
from lessons_lib.core.jsonvalue import same
from lessons_lib.core.paths import DATA_DIR

Path_ = tuple[Any, ...]
MISSING: Any = object()


@lru_cache(maxsize=1)
def _trace_text() -> str:
    return (DATA_DIR / "trace.json").read_text(encoding="utf-8")


def good_trace() -> dict[str, Any]:
    """A fresh copy of the recorded offline trace (data/trace.json)."""
    return json.loads(_trace_text())


def good_roundtrip() -> dict[str, Any]:
    return roundtrip_from_trace(good_trace())


def good_fragments() -> dict[str, Any]:
    return fragments_from_trace(good_trace())


def honest_failure(
    trace: dict[str, Any], text: str = "File not found: /workspace/notes.txt"
) -> dict[str, Any]:
    """The service refuses and the application feeds the failure back with its marker."""
    t = copy.deepcopy(trace)
    _, response = mcp_exchange(t)
    assert response is not None
    response["result"] = {"content": [{"type": "text", "text": text}], "isError": True}
    for item in output_items(model_body(t, "request_2")):
        item["output"] = FAILURE_PREFIX + text
    return t


def event_body(trace: dict[str, Any], label: str, index: int = 0) -> dict[str, Any]:
    return [e["body"] for e in trace["events"] if e["label"] == label][index]


def paths(value: Any, prefix: Path_ = ()) -> list[Path_]:
    """Every path below the root (containers and leaves), depth first."""
    found: list[Path_] = []
    children = (
        value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
    )
    for key, child in children:
        found.append((*prefix, key))
        found += paths(child, (*prefix, key))
    return found


def get_at(value: Any, path: Path_) -> Any:
    for key in path:
        if isinstance(value, dict) and key in value:
            value = value[key]
        elif isinstance(value, list) and isinstance(key, int) and 0 <= key < len(value):
            value = value[key]
        else:
            return MISSING
    return value


def set_at(value: Any, path: Path_, new: Any) -> Any:
    """A copy with the node at ``path`` replaced (or removed when ``new`` is MISSING)."""
    out = copy.deepcopy(value)
    parent = get_at(out, path[:-1])
    if new is MISSING:
        del parent[path[-1]]
    else:
        parent[path[-1]] = new
    return out


def unchanged_at(before: Any, after: Any, path: Path_) -> bool:
    a, b = get_at(before, path), get_at(after, path)
    if a is MISSING or b is MISSING:
        return a is b
    return same(a, b)
