"""Two versions side by side, seed 001's acceptance rows 服务升级 and 权限撤销, the watch table. Lesson 50.

The acceptance rows test the model's choice and the executor's refusals separately (seed 001):
replaying recorded tasks through the whole loop shows what the model now chooses; sending the
recorded calls straight to the new desk (no model) shows what the executor now refuses.
"""

from __future__ import annotations

import json
from contextlib import closing
from typing import TYPE_CHECKING

from lessons_lib.core.messages import catalogue, t
from lessons_lib.examples.orders import ENTRY as ORDERS
from lessons_lib.views.rowtable import RowTable

if TYPE_CHECKING:
    from lessons_lib.examples.evolve.toolreplay import Baseline
    from lessons_lib.examples.evolve.toolversions import ReleaseRecord, ToolVersion
    from lessons_lib.examples.evolve.toolwatch import WatchResult
    from lessons_lib.services.orders.tools import JSONDict


def release_table(old: ToolVersion, new: ToolVersion) -> RowTable:
    """Each part of two release records with its fingerprint, and what differs (lesson 50)."""
    from lessons_lib.examples.evolve.toolversions import RELEASE_PARTS

    a, b = old.record(), new.record()
    rows = []
    for part in RELEASE_PARTS:
        same = a["fingerprints"][part] == b["fingerprints"][part]
        change = t("upgrade.same") if same else _what(a, b, part)
        rows.append((t(f"upgrade.part.{part}"), a["fingerprints"][part], b["fingerprints"][part], change))
    headers = (t("upgrade.part"), old.name, new.name, t("upgrade.change"))
    return RowTable(headers, tuple(rows), t("upgrade.release.note"))


def _what(a: ReleaseRecord, b: ReleaseRecord, part: str) -> str:
    before, after = a.get(part), b.get(part)
    if isinstance(before, dict) and isinstance(after, dict) and part in ("description", "schema"):
        tools = [name for name in before if before[name] != after.get(name)]
        return t("upgrade.changed_tools", tools=t("upgrade.list").join(tools))

    def show(value: object) -> str:
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)

    return t("upgrade.changed_value", before=show(before), after=show(after))


def executor_replay(
    old: ToolVersion, new: ToolVersion, baseline: Baseline | None = None
) -> list[tuple[str, str, str, str]]:
    """Every recorded call sent straight to each version's desk (no model), each on a fresh database.

    Returns (task, tool, status under ``old``, status under ``new``): the executor's side alone.
    """
    import lessons_lib.services.orders.data as od
    from lessons_lib.examples.evolve.toolreplay import load_baseline
    from lessons_lib.examples.evolve.toolversions import VersionedDesk

    recorded = baseline or load_baseline()
    found = []
    for name, run in recorded["runs"].items():
        # each recorded run starts from the seed data, as it did when it was recorded: a write
        # of an earlier run must not turn this run's write into ``replayed``
        desks = [VersionedDesk(od.create_database(), version=v) for v in (old, new)]
        for tool, arguments in run["calls"]:
            # the model's arguments + the call layer's key
            sent = ORDERS.get("with_key")(tool, json.loads(arguments))
            got = [_status(desk.call(tool, sent)[0]) for desk in desks]
            found.append((name, tool, got[0], got[1]))
    return found


def _status(result: JSONDict) -> str:
    return str((result.get("error") or {}).get("code") or result.get("status"))


def acceptance_rows(old: ToolVersion, new: ToolVersion, replayed: RowTable | None = None) -> RowTable:
    """服务升级 (choice; executor) and 权限撤销 (executor; whole loop) against ``new`` (lesson 50).

    ``replayed`` is :func:`~lessons_lib.examples.evolve.toolreplay.replay_version`'s table for
    ``new`` when it has already been run (the lesson shares that run).
    """
    import lessons_lib.services.orders.data as od
    from lessons_lib.examples.evolve.toolreplay import load_baseline, replay_version, same_or_changed
    from lessons_lib.examples.evolve.toolversions import VersionedDesk, run_version

    baseline = load_baseline()
    table = replayed or replay_version(new, baseline)
    moved = [r[0] for r in table.rows if r[1] != same_or_changed(True)]
    rows = [_row("choice", moved)]
    changed = [
        f"{task}/{tool}: {a} → {b}" for task, tool, a, b in executor_replay(old, new, baseline) if a != b
    ]
    rows.append(_row("executor", changed))
    path = od.create_database()
    with closing(od.connect(path)) as conn:
        before = od.count_investigations(conn)
        od.set_access(conn, "C-001", "revoked")
    result, _ = VersionedDesk(path, version=new).call("get_order", {"order_id": "O-1042"})
    code = _status(result)
    rows.append(_row("revoked_executor", [] if code == "permission_revoked" else [code]))
    run = run_version(ORDERS.get("TRACK"), new, db_path=path)
    told = t("orders_standin.revoked_reason") in (run.trace.answer or "")  # the refusal, in the user's words
    written = run.rows() - before
    problem = t("upgrade.revoked_loop.problem", answer=run.trace.answer, rows=written)
    rows.append(_row("revoked_loop", [] if told and written == 0 else [problem]))
    headers = tuple(t(f"upgrade.acceptance.{h}") for h in ("case", "expect", "verdict", "actual"))
    return RowTable(headers, tuple(rows), t("upgrade.acceptance.note", new=new.name, old=old.name))


def _row(case: str, problems: list[str]) -> tuple[str, str, str, str]:
    """One acceptance row; ``upgrade.<case>.label`` (if any) names what the problems are."""
    verdict = t("status.pass") if not problems else t("status.fail")
    got = t("upgrade.join").join(problems)
    if f"upgrade.{case}.label" in catalogue():
        got = t("upgrade.labelled", label=t(f"upgrade.{case}.label"), problems=got)
    else:
        got = t("upgrade.unlabelled", problems=got)
    actual = got if problems else t("upgrade.as_expected")
    return (t(f"upgrade.{case}.case"), t(f"upgrade.{case}.expect"), verdict, actual)


def watch_table(result: WatchResult) -> RowTable:
    """The second ``tools/list`` against the approvals: which tool may still be declared (lesson 50)."""
    rows = tuple(
        (
            name,
            result.approved.get(name, "—"),
            t(f"upgrade.watch.{state}"),
            t("upgrade.watch.declare") if state == "approved" else t("upgrade.watch.hold"),
        )
        for name, state in result.states
    )
    headers = tuple(t(f"upgrade.watch.{h}") for h in ("tool", "fingerprint", "state", "action"))
    return RowTable(headers, rows)
