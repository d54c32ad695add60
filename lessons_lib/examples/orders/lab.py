"""The order desk's scenarios, its ledger table and the row counts of lesson 32. Lessons 30-33.

Each scenario is a task plus the knobs that make it happen (the desk's delays and faults,
the stand-in's quirks, the application's guards, the user's answer to a confirmation). The
offline stand-in plays them deterministically; ``live=True`` sends the same task and the
same tools to a real model (whose moves are then its own).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Final, Unpack

from lessons_lib.checks.ledger import LedgerRow, ledger
from lessons_lib.core.display import Displayable
from lessons_lib.core.htmltable import Cell, CellValue, breakable_code, code, html_table, pre
from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.messages import t
from lessons_lib.core.traces.trace import Trace
from lessons_lib.services.orders.wiretext import (
    EXECUTE_SQL_DESCRIPTION,
    HOSTILE,
    INVESTIGATE,
    NO_ID,
    POLICY,
    STATUS,
    THREE,
    TWO_WRITES,
    UNKNOWN,
    WHERE,
)

if TYPE_CHECKING:
    from lessons_lib.examples.orders.run import OrdersRun, RunOptions

TRACK: Final = "订单 O-1042 现在到哪了？北区的延误政策是什么？"
"""A user's task (Chinese in both editions, like the others in ``wiretext.py``); defined here
because other modules import it from here."""


def _no_options() -> RunOptions:
    return {}


@dataclass(frozen=True)
class OrderScenario:
    """One named run of the order desk: what the user asks and what is set up around it."""

    name: str
    title_key: str
    """The catalogue key of what the scenario shows (``orders_lab.scenario.<name>``)."""
    task: str
    options: RunOptions = field(default_factory=_no_options)
    """The knobs :func:`~lessons_lib.examples.orders.run.run_orders` takes for this scenario."""

    @property
    def title(self) -> str:
        """What the scenario shows, in the current language."""
        return t(self.title_key)


def _scenarios() -> dict[str, OrderScenario]:
    from lessons_lib.examples.orders.guards import Guards
    from lessons_lib.services.orders.standin import Quirks

    slow: RunOptions = {
        "desk": {"delays": {"get_order": 0.2, "search_delivery_policy": 0.2, "track_shipment": 0.2}}
    }
    listed = [
        OrderScenario("parallel", "orders_lab.scenario.parallel", TRACK),
        OrderScenario("sequential", "orders_lab.scenario.sequential", TRACK, {"parallel": False}),
        OrderScenario("investigate", "orders_lab.scenario.investigate", INVESTIGATE, {"confirm": True}),
        OrderScenario("declined", "orders_lab.scenario.declined", INVESTIGATE, {"confirm": False}),
        OrderScenario(
            "two_writes",
            "orders_lab.scenario.two_writes",
            TWO_WRITES,
            {"confirm": True},
        ),
        OrderScenario(
            "retry",
            "orders_lab.scenario.retry",
            INVESTIGATE,
            {
                "confirm": True,
                "quirks": Quirks(fail_http_after_write=1),
                "desk": {"flaky": {"create_investigation": 1}},
            },
        ),
        OrderScenario(
            "retry_no_key",
            "orders_lab.scenario.retry_no_key",
            INVESTIGATE,
            {"confirm": True, "quirks": Quirks(fail_http_after_write=1), "desk": {"idempotency_key": False}},
        ),
        OrderScenario("missing_id", "orders_lab.scenario.missing_id", NO_ID),
        OrderScenario(
            "invented_id",
            "orders_lab.scenario.invented_id",
            NO_ID,
            {"quirks": Quirks(invent_order_id=True)},
        ),
        OrderScenario(
            "bad_json",
            "orders_lab.scenario.bad_json",
            STATUS,
            {"quirks": Quirks(bad_json_once=True)},
        ),
        OrderScenario("hostile", "orders_lab.scenario.hostile", HOSTILE),
        OrderScenario(
            "timeout",
            "orders_lab.scenario.timeout",
            WHERE,
            {
                "desk": {"delays": {"track_shipment": 1.0}},
                "guards": Guards(timeouts={"orders__track_shipment": 0.2}),
            },
        ),
        OrderScenario(
            "fault",
            "orders_lab.scenario.fault",
            POLICY,
            {"desk": {"faults": frozenset({"search_delivery_policy"})}},
        ),
        OrderScenario(
            "loop",
            "orders_lab.scenario.loop",
            UNKNOWN,
            {"quirks": Quirks(repeat_forever=True), "guards": Guards(max_rounds=3)},
        ),
        OrderScenario("three_parallel", "orders_lab.scenario.three_parallel", THREE, slow),
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


def run_scenario(name: str, **overrides: Unpack[RunOptions]) -> OrdersRun:
    """Run a scenario (offline by default) on a fresh database and return its ``OrdersRun``."""
    from lessons_lib.examples.orders.run import run_orders

    chosen = scenario(name)
    return run_orders(chosen.task, **(chosen.options | overrides))


@dataclass(frozen=True, repr=False)
class LedgerTable(Displayable):
    """The call ledger as a table (lesson 31): one row per call, in the order proposed."""

    rows: tuple[LedgerRow, ...]

    HEADER_KEYS: ClassVar[tuple[str, ...]] = tuple(
        f"orders_lab.ledger.{k}"
        for k in ("round", "call_id", "alias", "arguments", "status", "mcp_id", "result")
    )

    @property
    def headers(self) -> tuple[str, ...]:
        """The column headings in the current language."""
        return tuple(t(k) for k in self.HEADER_KEYS)

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
        lines = [" | ".join(self.headers)]
        lines += [" | ".join(c) for c in self._cells()]
        return "\n".join(lines)

    def repr_args(self) -> str:
        return f"{len(self.rows)} calls"

    def html(self) -> str:
        # ids, aliases and arguments may wrap after , : . / = _ - (never inside a word) and the
        # JSON-RPC id shares a column with where its result is, so the ledger fits the 568 px
        # output column of a 1,000 px window; lesson 31 reads those two together
        rows = [
            [
                code(cells[0]),
                code(cells[1]),  # the call_id stays whole: it is what the reader matches
                *(breakable_code(c) for c in cells[2:5]),
                code(f"{cells[5]} → {cells[6]}", nowrap=False),
            ]
            for cells in self._cells()
        ]
        names = self.headers
        headers: tuple[CellValue, ...] = (
            Cell(names[0], nowrap=True),
            *names[1:5],
            f"{names[5]} / {names[6]}",
        )
        return html_table(
            headers, rows, css_class="lessons-ledger", style="border-collapse:collapse;font-size:12px"
        )


def ledger_table(trace: Trace | JSONObject) -> LedgerTable:
    """The ledger of a run's trace as a displayable table (lesson 31)."""
    return LedgerTable(tuple(ledger(trace)))


def run_order_scenario(name: str, **options: Unpack[RunOptions]) -> OrdersRun:
    """The facade's name for :func:`run_scenario` (lessons 31-33)."""
    return run_scenario(name, **options)


@dataclass(frozen=True, repr=False)
class ScenarioTable(Displayable):
    """The scenarios ``run --example orders --scenario`` knows, as a table."""

    scenarios: tuple[OrderScenario, ...]

    def text(self) -> str:
        return "\n".join(
            t("orders_lab.scenario_line", name=s.name, title=s.title, task=s.task) for s in self.scenarios
        )

    def repr_args(self) -> str:
        return f"{len(self.scenarios)} scenarios"

    def html(self) -> str:
        rows = [(code(s.name), s.title, s.task) for s in self.scenarios]
        heads = tuple(t(f"orders_lab.scenarios.{k}") for k in ("name", "shows", "task"))
        return html_table(heads, rows)


def order_scenarios() -> ScenarioTable:
    """Every order-desk scenario with what it shows (lesson 31)."""
    return ScenarioTable(tuple(_scenarios().values()))


EXECUTE_SQL_TOOL: Final[JSONObject] = {
    "name": "execute_sql",
    "description": EXECUTE_SQL_DESCRIPTION,
    "input": {"type": "object", "properties": {"sql": {"type": "string"}}, "required": ["sql"]},
}
"""The tool the tool-design article and the tool-calling SOP warn against, only to compare (lesson 30)."""


@dataclass(frozen=True, repr=False)
class SqlDemo(Displayable):
    """What one ``execute_sql`` call did to a throwaway database."""

    sql: str
    tables_before: tuple[str, ...]
    tables_after: tuple[str, ...]
    error: str | None

    def text(self) -> str:
        lost = sorted(set(self.tables_before) - set(self.tables_after))
        lines = [
            t("orders_lab.sql.got", sql=self.sql),
            t("orders_lab.sql.before", tables=", ".join(self.tables_before)),
            t("orders_lab.sql.after", tables=", ".join(self.tables_after)),
        ]
        lines.append(
            t("orders_lab.sql.lost", tables=", ".join(lost) or t("orders_lab.sql.none"))
            + (t("orders_lab.sql.error", error=self.error) if self.error else "")
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
    import lessons_lib.services.orders.data as od

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
