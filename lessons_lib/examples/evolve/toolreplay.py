"""Replay recorded order-desk tasks against another tool version and compare. Lesson 50.

A replay compares what matters (the tool-design article), never the answer's wording: which tools were
called, in which order, with which arguments, and how the run ended (the outcome, the error
codes the desk answered, the rows written). The baseline is recorded once from ``orders@1``
into ``data/evolve/replay_orders@1.json`` by :func:`write_baseline`; a test proves that
recording it again changes nothing.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, Final

from lessons_lib.core.messages import t
from lessons_lib.core.paths import DATA_DIR
from lessons_lib.views.rowtable import RowTable

REPLAY_TASKS: Final = ("parallel", "investigate", "declined", "missing_id", "hostile")
"""Scenarios of lessons 30-33 that the replay runs (their tasks and options, lab/orders.py)."""
BASELINE: Final = DATA_DIR / "evolve" / "replay_orders@1.json"


def summary(run: Any) -> dict[str, Any]:
    """What a replay compares in one run: calls in order (tool, arguments) and how it ended."""
    from lessons_lib.checks.ledger import ledger

    rows = ledger(run.trace)
    replies = [e["body"] for e in run.trace.find("tools/call", "mcp") if "result" in e["body"]]
    codes = [_code(body) for body in replies]
    return {
        "calls": [[r.alias.split("__", 1)[-1], r.arguments] for r in rows],
        "ended": {
            "status": run.trace.outcome["status"] if run.trace.outcome else "none",
            "errors": [c for c in codes if c],
            "rows_written": run.rows() - _seeded_rows(),
        },
    }


def _code(body: Any) -> str | None:
    result = body.get("result", {})
    structured = result.get("structuredContent") if isinstance(result, dict) else None
    error = structured.get("error") if isinstance(structured, dict) else None
    return str(error.get("code")) if isinstance(error, dict) else None


@functools.cache
def _seeded_rows() -> int:
    from contextlib import closing

    from lessons_lib.services.orders import data as od

    with closing(od.connect(od.create_database())) as conn:
        return od.count_investigations(conn, None)


def run_tasks(version: Any, names: tuple[str, ...] = REPLAY_TASKS) -> dict[str, dict[str, Any]]:
    """Run each named scenario against ``version`` (offline) and summarise it (lesson 50)."""
    from lessons_lib.examples.evolve.toolversions import run_version
    from lessons_lib.examples.orders.lab import scenario

    found = {}
    for name in names:
        chosen = scenario(name)
        found[name] = {"task": chosen.task, **summary(run_version(chosen.task, version, **chosen.options))}
    return found


def write_baseline(path: Path = BASELINE) -> dict[str, Any]:
    """Record the baseline from ``orders@1`` (``python -m lessons_lib tool-replay --record``)."""
    from lessons_lib.examples.evolve.toolversions import DESK_V1

    data = {"version": DESK_V1.name, "record": DESK_V1.record(), "runs": run_tasks(DESK_V1)}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8", newline="\n")
    return data


def load_baseline(path: Path = BASELINE) -> dict[str, Any]:
    """The recorded baseline (lesson 50)."""
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def compare(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What changed between two summaries, one short line each in the current language ([] = the same)."""
    changes = []
    tools_before = [c[0] for c in before["calls"]]
    tools_after = [c[0] for c in after["calls"]]
    if tools_before != tools_after:
        changes.append(t("toolreplay.tools_changed", before=_tools(tools_before), after=_tools(tools_after)))
    elif before["calls"] != after["calls"]:
        changes.append(t("toolreplay.arguments_changed"))
    if before["ended"] != after["ended"]:
        b, a = before["ended"], after["ended"]
        changes.append(t("toolreplay.ending_changed", before=_ended(b), after=_ended(a)))
    return changes


def _tools(names: list[str]) -> str:
    return " → ".join(names) or t("toolreplay.none")


def _ended(ended: dict[str, Any]) -> str:
    errors = t("toolreplay.list").join(ended["errors"]) or t("toolreplay.none")
    return t("toolreplay.ended", status=ended["status"], errors=errors, rows=ended["rows_written"])


def same_or_changed(same: bool) -> str:
    """The replay table's word for one compared part: same or changed (lesson 50)."""
    return t("toolreplay.same") if same else t("toolreplay.changed")


def replay_version(version: Any, baseline: dict[str, Any] | None = None) -> RowTable:
    """Replay the baseline's tasks against ``version``; one row per task (lesson 50)."""
    recorded = baseline or load_baseline()
    now = run_tasks(version, tuple(recorded["runs"]))
    rows = []
    for name, before in recorded["runs"].items():
        after = now[name]
        changes = compare(before, after)
        same_tools = [c[0] for c in before["calls"]] == [c[0] for c in after["calls"]]
        rows.append(
            (
                name,
                same_or_changed(same_tools),
                same_or_changed(before["calls"] == after["calls"]),
                same_or_changed(before["ended"] == after["ended"]),
                t("status.pass") if not changes else t("status.fail"),
                t("toolreplay.join").join(changes) or "—",
            )
        )
    note = t("toolreplay.note", baseline=recorded["version"], version=version.name)
    headers = ("task", "tools", "arguments", "ending", "verdict", "changes")
    return RowTable(tuple(t(f"toolreplay.{h}") for h in headers), tuple(rows), note)
