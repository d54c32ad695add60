"""Two versions side by side, seed 001's acceptance rows 服务升级 and 权限撤销, the watch table. Lesson 50.

The acceptance rows test the model's choice and the executor's refusals separately (seed 001):
replaying recorded tasks through the whole loop shows what the model now chooses; sending the
recorded calls straight to the new desk (no model) shows what the executor now refuses.
"""

from __future__ import annotations

import json
from contextlib import closing
from typing import Any

from lessons_lib.examples.evolve.rowtable import RowTable

PARTS = (("description", "说明"), ("schema", "Schema"), ("implementation", "实现"), ("policy", "权限策略"))


def release_table(old: Any, new: Any) -> RowTable:
    """Each part of two release records with its fingerprint, and what differs (lesson 50)."""
    a, b = old.record(), new.record()
    rows = []
    for part, zh in PARTS:
        same = a["fingerprints"][part] == b["fingerprints"][part]
        rows.append(
            (zh, a["fingerprints"][part], b["fingerprints"][part], "相同" if same else _what(a, b, part))
        )
    return RowTable(
        ("部分", old.name, new.name, "变化"), tuple(rows), "指纹：该部分规范 JSON 的 sha256 前 12 位。"
    )


def _what(a: dict[str, Any], b: dict[str, Any], part: str) -> str:
    before, after = a[part], b[part]
    if isinstance(before, dict) and part in ("description", "schema"):
        tools = [name for name in before if before[name] != after.get(name)]
        return "变了：" + "、".join(tools)

    def show(value: Any) -> str:
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)

    return f"变了：{show(before)} → {show(after)}"


def executor_replay(
    old: Any, new: Any, baseline: dict[str, Any] | None = None
) -> list[tuple[str, str, str, str]]:
    """Every recorded call sent straight to each version's desk (no model), each on a fresh database.

    Returns (task, tool, status under ``old``, status under ``new``): the executor's side alone.
    """
    from lessons_lib.examples.evolve.toolreplay import load_baseline
    from lessons_lib.examples.evolve.toolversions import VersionedDesk
    from lessons_lib.examples.orders import data as od
    from lessons_lib.examples.orders.calllayer import with_key

    recorded = baseline or load_baseline()
    desks = [VersionedDesk(od.create_database(), version=v) for v in (old, new)]
    found = []
    for name, run in recorded["runs"].items():
        for tool, arguments in run["calls"]:
            sent = with_key(tool, json.loads(arguments))  # the model's arguments + the call layer's key
            got = [_status(desk.call(tool, sent)[0]) for desk in desks]
            found.append((name, tool, got[0], got[1]))
    return found


def _status(result: dict[str, Any]) -> str:
    return str((result.get("error") or {}).get("code") or result.get("status"))


def acceptance_rows(old: Any, new: Any, replayed: RowTable | None = None) -> RowTable:
    """服务升级 (choice; executor) and 权限撤销 (executor; whole loop) against ``new`` (lesson 50).

    ``replayed`` is :func:`~lessons_lib.examples.evolve.toolreplay.replay_version`'s table for
    ``new`` when it has already been run (the lesson shares that run).
    """
    from lessons_lib.examples.evolve.toolreplay import load_baseline, replay_version
    from lessons_lib.examples.evolve.toolversions import VersionedDesk, run_version
    from lessons_lib.examples.orders import data as od
    from lessons_lib.examples.orders.lab import TRACK

    baseline = load_baseline()
    table = replayed or replay_version(new, baseline)
    moved = [r[0] for r in table.rows if r[1] != "相同"]
    rows = [_row("服务升级：模型的选择", "回放已录制任务，工具与顺序不变", moved, "选择变了的任务")]
    changed = [
        f"{task}/{tool}: {a} → {b}" for task, tool, a, b in executor_replay(old, new, baseline) if a != b
    ]
    rows.append(_row("服务升级：执行器", "已录制的调用直接发给新服务，判定不变", changed, "判定变了的调用"))
    path = od.create_database()
    with closing(od.connect(path)) as conn:
        before = od.count_investigations(conn)
        od.set_access(conn, "C-001", "revoked")
    result, _ = VersionedDesk(path, version=new).call("get_order", {"order_id": "O-1042"})
    code = _status(result)
    rows.append(
        _row(
            "权限撤销：执行器",
            "会话被撤销后 get_order 被拒绝",
            [] if code == "permission_revoked" else [code],
            "",
        )
    )
    run = run_version(TRACK, new, db_path=path)
    told = "may no longer use the order desk" in (run.trace.answer or "")
    problems = (
        [] if told and run.rows() == before else [f"答复：{run.trace.answer}；写入 {run.rows() - before} 行"]
    )
    rows.append(_row("权限撤销：整条链路", "模型如实转告被拒，没有写入", problems, ""))
    return RowTable(
        ("验收用例", "应当", "判定", "实际"), tuple(rows), f"被测版本：{new.name}；基线：{old.name}"
    )


def _row(case: str, expect: str, problems: list[str], label: str) -> tuple[str, str, str, str]:
    got = "；".join(problems)
    return (case, expect, "通过" if not problems else "不通过", f"{label}：{got}" if problems else "符合")


def watch_table(result: Any) -> RowTable:
    """The second ``tools/list`` against the approvals: which tool may still be declared (lesson 50)."""
    zh = {"approved": "与批准时一致", "changed": "批准后被改过", "new": "新出现", "removed": "已移除"}
    rows = tuple(
        (
            name,
            result.approved.get(name, "—"),
            zh[state],
            "声明给模型" if state == "approved" else "扣下，等人重新批准",
        )
        for name, state in result.states
    )
    return RowTable(("工具", "批准时的指纹", "重新列出后", "应用怎么做"), rows)
