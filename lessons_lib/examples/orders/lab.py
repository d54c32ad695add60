"""The order desk's scenarios, its ledger table and the row counts of lesson 32. Lessons 30-33.

Each scenario is a task plus the knobs that make it happen (the desk's delays and faults,
the stand-in's quirks, the application's guards, the user's answer to a confirmation). The
offline stand-in plays them deterministically; ``live=True`` sends the same task and the
same tools to a real model (whose moves are then its own).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Final

from lessons_lib.checks.ledger import LedgerRow, ledger
from lessons_lib.core.display import Displayable
from lessons_lib.core.htmltable import Cell, CellValue, breakable_code, code, html_table, pre
from lessons_lib.core.trace import Trace

TRACK: Final = "订单 O-1042 现在到哪了？北区的延误政策是什么？"
THREE: Final = "订单 O-1042 和 O-1043 是什么状态？延误政策是什么？"
INVESTIGATE: Final = "订单 O-1042 延误三天了，请帮我创建延误调查单。"
TWO_WRITES: Final = "订单 O-1042 延误三天了，外包装还破损了，请帮我创建调查单。"


@dataclass(frozen=True)
class OrderScenario:
    """One named run of the order desk: what the user asks and what is set up around it."""

    name: str
    title: str
    task: str
    options: dict[str, Any] = field(default_factory=dict)


def _scenarios() -> dict[str, OrderScenario]:
    from lessons_lib.examples.orders.guards import Guards
    from lessons_lib.examples.orders.standin import Quirks

    slow = {"desk": {"delays": {"get_order": 0.2, "search_delivery_policy": 0.2, "track_shipment": 0.2}}}
    listed = [
        OrderScenario("parallel", "一轮两个并行调用，随后一个依赖调用", TRACK),
        OrderScenario("sequential", "关掉并行：每轮只提一个调用", TRACK, {"parallel": False}),
        OrderScenario("investigate", "写操作：先确认，用户同意后才建单", INVESTIGATE, {"confirm": True}),
        OrderScenario("declined", "写操作：用户拒绝，什么也没写", INVESTIGATE, {"confirm": False}),
        OrderScenario(
            "two_writes",
            "一轮里两个写同一张订单的调用：应用只放行第一个，第二个作为冲突退回",
            TWO_WRITES,
            {"confirm": True},
        ),
        OrderScenario(
            "retry",
            "两层重试：工具层重发同一调用，模型层重问得到新 call_id，幂等键让库里只有一条",
            INVESTIGATE,
            {
                "confirm": True,
                "quirks": Quirks(fail_http_after_write=1),
                "desk": {"flaky": {"create_investigation": 1}},
            },
        ),
        OrderScenario(
            "retry_no_key",
            "同样的重试，但工具不声明幂等键：库里多出一条",
            INVESTIGATE,
            {"confirm": True, "quirks": Quirks(fail_http_after_write=1), "desk": {"idempotency_key": False}},
        ),
        OrderScenario("missing_id", "没有订单号：先问用户，不猜", "我的订单到哪了？"),
        OrderScenario(
            "invented_id",
            "替身故意编造订单号：订单台的检查仍然挡住",
            "我的订单到哪了？",
            {"quirks": Quirks(invent_order_id=True)},
        ),
        OrderScenario(
            "bad_json",
            "arguments 不是合法 JSON：作为工具错误退回，模型改正后重发",
            "订单 O-1042 是什么状态？",
            {"quirks": Quirks(bad_json_once=True)},
        ),
        OrderScenario(
            "hostile", "订单号里夹带 SQL：订单台按模式拒绝，数据库不变", "查询订单 O-1042'OR'1'='1 的状态。"
        ),
        OrderScenario(
            "timeout",
            "物流查询超时：应用按单个工具的时限放弃，模型给出兜底答复",
            "订单 O-1042 现在到哪了？",
            {
                "desk": {"delays": {"track_shipment": 1.0}},
                "guards": Guards(timeouts={"orders__track_shipment": 0.2}),
            },
        ),
        OrderScenario(
            "fault",
            "工具内部抛异常：变成 isError，不会让应用崩溃",
            "北区的延误政策是什么？",
            {"desk": {"faults": frozenset({"search_delivery_policy"})}},
        ),
        OrderScenario(
            "loop",
            "替身反复重试同一个失败调用：轮次上限截断，应用给出兜底答复",
            "订单 O-9999 是什么状态？",
            {"quirks": Quirks(repeat_forever=True), "guards": Guards(max_rounds=3)},
        ),
        OrderScenario("three_parallel", "一轮三个调用，每个处理 200 ms，并行执行", THREE, slow),
    ]
    return {s.name: s for s in listed}


def scenario_names() -> list[str]:
    """The names ``run --example orders --scenario`` accepts, in teaching order."""
    return list(_scenarios())


def scenario(name: str) -> OrderScenario:
    """One scenario by name; an unknown name raises ValueError listing the known ones."""
    found = _scenarios().get(name)
    if found is None:
        raise ValueError(f"unknown scenario {name!r}; choose one of: {', '.join(scenario_names())}")
    return found


def run_scenario(
    name: str, *, live: bool = False, db_path: str | Path | None = None, **overrides: Any
) -> Any:
    """Run a scenario (offline by default) on a fresh database and return its ``OrdersRun``."""
    from lessons_lib.examples.orders.run import run_orders

    chosen = scenario(name)
    options = {**chosen.options, **overrides}
    return run_orders(chosen.task, live=live, db_path=db_path, **options)


@dataclass(frozen=True, repr=False)
class LedgerTable(Displayable):
    """The call ledger as a table (lesson 31): one row per call, in the order proposed."""

    rows: tuple[LedgerRow, ...]

    HEADERS: ClassVar[tuple[str, ...]] = (
        "轮次",
        "call_id",
        "别名",
        "规范化参数",
        "状态",
        "JSON-RPC id",
        "结果位置",
    )

    def _cells(self) -> list[tuple[str, ...]]:
        return [
            (
                str(r.round),
                r.call_id,
                r.alias,
                r.arguments,
                r.status,
                ",".join(map(str, r.mcp_ids)) or "-",
                r.result,
            )
            for r in self.rows
        ]

    def text(self) -> str:
        lines = [" | ".join(self.HEADERS)]
        lines += [" | ".join(c) for c in self._cells()]
        return "\n".join(lines)

    def repr_args(self) -> str:
        return f"{len(self.rows)} calls"

    def html(self) -> str:
        # ids, aliases and arguments may wrap after , : . / = _ - (never inside a word) and the
        # JSON-RPC id shares a column with where its result is, so the ledger fits the 568 px
        # output column of a 1,000 px window (issue 25); lesson 31 reads those two together
        rows = [
            [
                code(cells[0]),
                code(cells[1]),  # the call_id stays whole: it is what the reader matches
                *(breakable_code(c) for c in cells[2:5]),
                code(f"{cells[5]} → {cells[6]}", nowrap=False),
            ]
            for cells in self._cells()
        ]
        headers: tuple[CellValue, ...] = (
            Cell(self.HEADERS[0], nowrap=True),
            *self.HEADERS[1:5],
            f"{self.HEADERS[5]} / {self.HEADERS[6]}",
        )
        return html_table(
            headers, rows, css_class="lessons-ledger", style="border-collapse:collapse;font-size:12px"
        )


def ledger_table(trace: Trace | dict[str, Any]) -> LedgerTable:
    """The ledger of a run's trace as a displayable table (lesson 31)."""
    return LedgerTable(tuple(ledger(trace)))


def run_order_scenario(name: str, **options: Any) -> Any:
    """The facade's name for :func:`run_scenario` (lessons 31-33)."""
    return run_scenario(name, **options)


@dataclass(frozen=True, repr=False)
class ScenarioTable(Displayable):
    """The scenarios ``run --example orders --scenario`` knows, as a table."""

    scenarios: tuple[OrderScenario, ...]

    def text(self) -> str:
        return "\n".join(f"{s.name}：{s.title}（任务：{s.task}）" for s in self.scenarios)

    def repr_args(self) -> str:
        return f"{len(self.scenarios)} scenarios"

    def html(self) -> str:
        rows = [(code(s.name), s.title, s.task) for s in self.scenarios]
        return html_table(("场景", "演示什么", "用户任务"), rows)


def order_scenarios() -> ScenarioTable:
    """Every order-desk scenario with what it shows (lesson 31)."""
    return ScenarioTable(tuple(_scenarios().values()))


EXECUTE_SQL_TOOL: Final[dict[str, Any]] = {
    "name": "execute_sql",
    "description": "在订单数据库上执行任意 SQL 语句并返回结果。",
    "input": {"type": "object", "properties": {"sql": {"type": "string"}}, "required": ["sql"]},
}
"""The tool seed 001 and seed 003 warn against, declared only to be compared (lesson 30)."""


@dataclass(frozen=True, repr=False)
class SqlDemo(Displayable):
    """What one ``execute_sql`` call did to a throwaway database."""

    sql: str
    tables_before: tuple[str, ...]
    tables_after: tuple[str, ...]
    error: str | None

    def text(self) -> str:
        lost = sorted(set(self.tables_before) - set(self.tables_after))
        lines = [f"execute_sql 收到：{self.sql}", f"执行前的表：{', '.join(self.tables_before)}"]
        lines.append(f"执行后的表：{', '.join(self.tables_after)}")
        lines.append(
            f"消失的表：{', '.join(lost) or '无'}" + (f"；数据库报错：{self.error}" if self.error else "")
        )
        return "\n".join(lines)

    def repr_args(self) -> str:
        return repr(self.sql[:40])

    def html(self) -> str:
        return pre(self.text())


def execute_sql_demo(sql: str) -> SqlDemo:
    """Run ``sql`` the way an ``execute_sql`` tool would, on a fresh throwaway database (lesson 30).

    The schema ``{"sql": {"type": "string"}}`` accepts any text, so nothing stands between the
    model's string and the database: the rule cannot say which statements are allowed.
    """
    from lessons_lib.examples.orders import data as od

    path = od.create_database()
    conn = sqlite3.connect(path)
    try:
        before = _tables(conn)
        error = None
        try:
            conn.executescript(sql)
        except sqlite3.Error as exc:
            error = str(exc)
        return SqlDemo(sql, before, _tables(conn), error)
    finally:
        conn.close()


def _tables(conn: sqlite3.Connection) -> tuple[str, ...]:
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    )
    return tuple(str(r[0]) for r in rows)
