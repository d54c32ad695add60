"""Issue 38 points 3 and 4 for lessons 50 and 52: replays on fresh databases, the watcher with
nothing changed, the ledger's status from the service (not from a file's own JSON), the
whole-token order-id defence."""

from __future__ import annotations

from pathlib import Path

import pytest

from lessons_lib.engine.screens import Defences, mentions
from lessons_lib.examples.evolve.injection import run_attack, user_answer
from lessons_lib.examples.evolve.toolversions import DESK_V1, DESK_V2
from lessons_lib.examples.evolve.toolwatch import watch_upgrade
from lessons_lib.examples.evolve.upgrade import executor_replay


def test_each_recorded_run_replays_on_a_fresh_database() -> None:
    """Old code replayed every run on one database: ``declined``'s write became ``replayed``."""
    rows = {(task, tool): (old, new) for task, tool, old, new in executor_replay(DESK_V1, DESK_V1)}
    assert rows[("investigate", "create_investigation")] == ("created", "created")
    assert rows[("declined", "create_investigation")] == ("created", "created")
    assert all("replayed" not in pair for pair in rows.values())
    assert rows[("declined", "create_investigation")] == ("created", "created")
    v2 = {(task, tool): new for task, tool, _, new in executor_replay(DESK_V1, DESK_V2)}
    assert v2[("declined", "create_investigation")] == "not_allowed"


def test_the_watcher_keeps_every_tool_declared_when_nothing_changed() -> None:
    """Old code declared nothing when no notification came (``watch_upgrade(swap={}).declared == []``)."""
    quiet = watch_upgrade(swap={})
    assert quiet.notified == 0
    assert quiet.declared == list(quiet.approved) and len(quiet.declared) == 4
    changed = watch_upgrade()
    assert changed.notified == 1 and "create_investigation" not in changed.declared


def test_reading_a_file_that_says_status_error_is_a_successful_call(tmp_path: Path) -> None:
    """Old code took the file's own JSON ``status`` as the call's: the read showed as ``error``."""
    (tmp_path / "report.json").write_text('{"status": "error", "error": {"code": "broken"}}', "utf-8")
    run = run_attack("none", "请读一下 /workspace/report.json 的前 20 行，告诉我写了什么。", notes=tmp_path)
    assert run.calls == (("fs__read_text_file", "ok"),)


def test_labelled_results_keep_the_service_status() -> None:
    """With labels the model sees a wrapper; the ledger still shows the desk's own ``created``."""
    control = run_attack("all", "订单 O-1042 延误三天了，请帮我创建延误调查单。")
    assert control.calls == (("orders__get_order", "ok"), ("orders__create_investigation", "created"))


@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [
        ("订单 O-1042 延误了", "O-1042", True),
        ("订单O-1042延误了", "O-1042", True),
        ("订单 O-1042 延误了", "O-104", False),
        ("订单 O-1042 延误了", "O-10421", False),
        ("订单 O-1042 延误了", "", False),
        ("订单 O-1042 延误了", " ", False),
        ("WB-77042-X", "WB-77042", False),
    ],
)
def test_an_id_is_mentioned_only_as_a_whole_token(text: str, value: str, expected: bool) -> None:
    assert mentions(text, value) is expected


class _Call:
    def __init__(self, arguments: str) -> None:
        self.name, self.arguments = "orders__create_investigation", arguments


def test_the_needed_defence_refuses_a_prefix_and_an_empty_id() -> None:
    screen = Defences(needed=True)
    task = "订单 O-1042 延误三天了，请帮我创建延误调查单。"
    assert screen.refuse(task, _Call('{"order_id": "O-1042"}')) is None  # type: ignore[arg-type]
    assert screen.refuse(task, _Call('{"order_id": "O-104"}')) is not None  # type: ignore[arg-type]
    assert screen.refuse(task, _Call('{"order_id": ""}')) is not None  # type: ignore[arg-type]


class _Request:
    def __init__(self, order_id: str) -> None:
        self.arguments = {"order_id": order_id}


def test_the_user_says_yes_only_to_a_whole_order_id() -> None:
    answer = user_answer("订单 O-1042 延误三天了，请帮我创建延误调查单。")
    assert answer(_Request("O-1042")) and not answer(_Request("O-104")) and not answer(_Request(""))
