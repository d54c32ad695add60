"""Lesson 50: versions, replay, field changes, the list_changed watch and fingerprints."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from lessons_lib.examples.evolve.toolreplay import BASELINE, load_baseline, replay_version, write_baseline
from lessons_lib.examples.evolve.toolversions import DESK_V1, DESK_V1_1, DESK_V2


def _only(name: str) -> dict[str, Any]:
    baseline = load_baseline()
    return {**baseline, "runs": {name: baseline["runs"][name]}}


def test_replay_flags_a_description_change_that_moves_the_choice() -> None:
    moved = replay_version(DESK_V1_1, _only("parallel"))
    assert moved.column("工具与顺序") == ["变了"] and moved.column("判定") == ["不通过"]
    assert "track_shipment 变成" in moved.column("变化")[0]
    # every field is the same: only the description's fingerprint moved
    a, b = DESK_V1.record()["fingerprints"], DESK_V1_1.record()["fingerprints"]
    assert [k for k in a if a[k] != b[k]] == ["description"]


def test_replay_of_the_same_version_passes() -> None:
    same = replay_version(DESK_V1, _only("parallel"))
    assert same.column("判定") == ["通过"]


def test_the_baseline_regenerates_unchanged(tmp_path: Path) -> None:
    again = tmp_path / "baseline.json"
    write_baseline(again)
    assert again.read_bytes() == BASELINE.read_bytes()


def test_a_policy_change_shows_in_the_executor_not_in_the_choice() -> None:
    from lessons_lib.examples.evolve.upgrade import executor_replay

    changed = [(t, tool, a, b) for t, tool, a, b in executor_replay(DESK_V1, DESK_V2) if a != b]
    assert changed and all(tool == "create_investigation" and b == "not_allowed" for _, tool, _, b in changed)


def test_field_changes_strict_and_lax() -> None:
    from lessons_lib.examples.evolve.fieldcompat import field_changes

    table = {r[0]: r for r in field_changes().rows}
    added = table["结果新增可选字段 promised_by"]
    assert added[2].startswith("拒绝") and added[3] == "接受"
    renamed = table["结果字段 waybill_no 改名为 tracking_no"]
    assert renamed[2].startswith("拒绝") and renamed[3] == "接受" and "None" in renamed[4]
    assert table["输入新增可选字段 include_history（默认 false）"][2:4] == ("接受", "接受")
    assert table["输入新增必填字段 channel"][3].startswith("拒绝")


def test_the_fingerprint_catches_a_definition_changed_after_approval() -> None:
    from lessons_lib.engine.specs import mcp_errors
    from lessons_lib.examples.evolve.toolwatch import watch_upgrade

    watch = watch_upgrade()
    assert watch.notified == 1
    assert (
        mcp_errors(
            "2025-11-25", "ToolListChangedNotification", watch.frame("notifications/tools/list_changed")
        )
        == []
    )
    assert dict(watch.states)["create_investigation"] == "changed"
    assert "create_investigation" not in watch.declared and "get_order" in watch.declared


def test_an_unchanged_relisting_keeps_every_approval() -> None:
    from lessons_lib.examples.evolve.toolwatch import watch_upgrade
    from lessons_lib.services.orders.tools import CREATE_INVESTIGATION

    watch = watch_upgrade({"create_investigation": CREATE_INVESTIGATION["description"]})
    assert watch.notified == 1 and {s for _, s in watch.states} == {"approved"}


def test_fingerprint_ignores_key_order_and_sees_every_field() -> None:
    from lessons_lib.examples.evolve.toolwatch import FINGERPRINT_FIELDS, fingerprint

    tool = {
        "name": "t",
        "title": "T",
        "description": "d",
        "inputSchema": {"type": "object"},
        "annotations": {},
    }
    assert fingerprint(dict(reversed(list(tool.items())))) == fingerprint(tool)
    for key in FINGERPRINT_FIELDS:
        changed = copy.deepcopy(tool)
        changed[key] = "other"
        assert fingerprint(changed) != fingerprint(tool), key


def test_fingerprint_exercise_checker() -> None:
    import hashlib
    import json

    from lessons_lib.course.exercises.evolve import check_fingerprint
    from lessons_lib.examples.evolve.toolwatch import fingerprint

    assert check_fingerprint(...).text().startswith("还没有完成")
    assert check_fingerprint(fingerprint).passed
    assert not check_fingerprint(lambda t: hashlib.sha256(json.dumps(t).encode()).hexdigest()).passed
    assert not check_fingerprint(lambda t: t["name"]).passed
    assert not check_fingerprint(42).passed


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["--version", "orders@1", "--task", "parallel"], 0),
        (["--version", "orders@1.1", "--task", "parallel"], 1),
        (["--version", "orders@9"], 2),
        (["--task", "nope"], 2),
    ],
)
def test_cli_tool_replay(args: list[str], code: int, capsys: pytest.CaptureFixture[str]) -> None:
    from lessons_lib.cli import main

    assert main(["tool-replay", *args]) == code
