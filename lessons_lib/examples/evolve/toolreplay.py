"""Replay recorded order-desk tasks against another tool version and compare. Lesson 50.

A replay compares what matters (seed 001), never the answer's wording: which tools were
called, in which order, with which arguments, and how the run ended (the outcome, the error
codes the desk answered, the rows written). The baseline is recorded once from ``orders@1``
into ``data/evolve/replay_orders@1.json`` by :func:`write_baseline`; a test proves that
recording it again changes nothing.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import TYPE_CHECKING, Final, TypedDict

from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.messages import t
from lessons_lib.core.paths import DATA_DIR
from lessons_lib.examples.orders import ENTRY as ORDERS
from lessons_lib.views.rowtable import RowTable

if TYPE_CHECKING:
    from lessons_lib.examples.evolve.toolversions import ReleaseRecord, ToolVersion
    from lessons_lib.examples.orders.run import OrdersRun

REPLAY_TASKS: Final = ("parallel", "investigate", "declined", "missing_id", "hostile")
"""Scenarios of lessons 30-33 that the replay runs (their tasks and options, lab/orders.py)."""
BASELINE: Final = DATA_DIR / "evolve" / "replay_orders@1.json"


class Ending(TypedDict):
    """How a run ended: the trace's outcome, the error codes the desk answered, the rows written."""

    status: str
    errors: list[str]
    rows_written: int


class RunSummary(TypedDict):
    """What a replay compares in one run: [tool, arguments as JSON text] in order, and the ending."""

    calls: list[list[str]]
    ended: Ending


class TaskSummary(RunSummary):
    """A run's summary with the task it ran."""

    task: str


class Baseline(TypedDict):
    """The recorded baseline: the version it ran, that version's release record, each task's summary."""

    version: str
    record: ReleaseRecord
    runs: dict[str, TaskSummary]


def summary(run: OrdersRun) -> RunSummary:
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


def _code(body: JSONObject) -> str | None:
    result = body.get("result", {})
    structured = result.get("structuredContent") if isinstance(result, dict) else None
    error = structured.get("error") if isinstance(structured, dict) else None
    return str(error.get("code")) if isinstance(error, dict) else None


@functools.cache
def _seeded_rows() -> int:
    from contextlib import closing

    import lessons_lib.services.orders.data as od

    with closing(od.connect(od.create_database())) as conn:
        return od.count_investigations(conn, None)


def run_tasks(version: ToolVersion, names: tuple[str, ...] = REPLAY_TASKS) -> dict[str, TaskSummary]:
    """Run each named scenario against ``version`` (offline) and summarise it (lesson 50)."""
    from lessons_lib.examples.evolve.toolversions import run_version

    found = {}
    for name in names:
        chosen = ORDERS.get("scenario")(name)
        done = summary(run_version(chosen.task, version, **chosen.options))
        found[name] = TaskSummary(task=chosen.task, calls=done["calls"], ended=done["ended"])
    return found


def write_baseline(path: Path = BASELINE) -> Baseline:
    """Record the baseline from ``orders@1`` (``python -m lessons_lib tool-replay --record``)."""
    from lessons_lib.examples.evolve.toolversions import DESK_V1

    data = Baseline(version=DESK_V1.name, record=DESK_V1.record(), runs=run_tasks(DESK_V1))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8", newline="\n")
    return data


def load_baseline(path: Path = BASELINE) -> Baseline:
    """The recorded baseline (lesson 50)."""
    loaded: Baseline = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def compare(before: RunSummary, after: RunSummary) -> list[str]:
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


def _ended(ended: Ending) -> str:
    errors = t("toolreplay.list").join(ended["errors"]) or t("toolreplay.none")
    return t("toolreplay.ended", status=ended["status"], errors=errors, rows=ended["rows_written"])


def same_or_changed(same: bool) -> str:
    """The replay table's word for one compared part: same or changed (lesson 50)."""
    return t("toolreplay.same") if same else t("toolreplay.changed")


def replay_version(version: ToolVersion, baseline: Baseline | None = None) -> RowTable:
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
