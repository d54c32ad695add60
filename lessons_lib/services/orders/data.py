"""The order desk's data in SQLite (standard library only). Introduced in lesson 30.

The database is built from ``data/orders/seed.sql`` into a fresh file (a temporary folder
or a path you give); the file itself is never committed. Every function takes an open
connection from :func:`connect`, so a service (the MCP order desk, an HTTP order API) and a
test can share one file. Rows come back as plain dicts with fixed keys; times are fixed ISO
strings from the seed or from :func:`next_timestamp` (deterministic, never the wall clock).

    path = create_database()              # a fresh file in a temporary folder
    with connect(path) as conn:
        fetch_order(conn, "O-1042")       # {"order_id": "O-1042", "status": "shipped", ...}
"""

from __future__ import annotations

import atexit
import shutil
import sqlite3
import tempfile
from datetime import datetime, timedelta
from pathlib import Path
from typing import Final, TypedDict

from lessons_lib.core.paths import DATA_DIR
from lessons_lib.services.orders.idempotency import IdempotencyConflict as IdempotencyConflict  # raised here
from lessons_lib.services.orders.idempotency import replay_or_conflict

SEED_SQL: Final[Path] = DATA_DIR / "orders" / "seed.sql"
DB_NAME: Final = "orders.sqlite3"
ORDER_STATUSES: Final = ("pending", "paid", "shipped", "delivered", "cancelled")
REGIONS: Final = ("north", "east", "south", "west")
POLICY_TOPICS: Final = ("delay", "damage", "lost", "address_change", "return")
INVESTIGATION_REASONS: Final = ("delayed", "damaged", "lost", "wrong_item")
CLOCK_START: Final = "2026-08-09T10:00:00Z"
"""Investigations created by a run get this time plus one minute per row already stored."""


class OrderRow(TypedDict):
    order_id: str
    customer_id: str
    status: str
    region: str
    item: str
    total_cents: int
    waybill_no: str | None
    version: int
    updated_at: str


class ShipmentRow(TypedDict):
    waybill_no: str
    order_id: str
    carrier: str
    status: str
    last_event: str
    updated_at: str


class PolicyRow(TypedDict):
    policy_id: str
    topic: str
    region: str
    title: str
    body: str
    version: int
    updated_at: str


class PolicyPage(TypedDict):
    items: list[PolicyRow]
    page: int
    page_size: int
    total: int
    truncated: bool
    next_page: int | None


class InvestigationRow(TypedDict):
    investigation_id: int
    order_id: str
    reason: str
    note: str
    idempotency_key: str | None
    status: str
    created_at: str


def create_database(path: str | Path | None = None, *, replace: bool = False) -> Path:
    """Run the seed script into a new SQLite file and return its path (lesson 30).

    ``path=None`` makes a fresh temporary folder, removed when the Python process exits. An
    existing file is an error unless ``replace=True`` (then it is deleted first).
    """
    if path is None:
        folder = tempfile.mkdtemp(prefix="orders-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        target = Path(folder) / DB_NAME
    else:
        target = Path(path)
    if target.exists():
        if not replace:
            raise FileExistsError(f"{target} already exists: pass replace=True or another path")
        target.unlink()
    target.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(target)
    try:
        conn.executescript(SEED_SQL.read_text(encoding="utf-8"))
        conn.commit()
    finally:
        conn.close()
    return target


def connect(path: str | Path) -> sqlite3.Connection:
    """Open an existing order database (foreign keys on, rows by column name)."""
    target = Path(path)
    if not target.is_file():
        raise FileNotFoundError(f"no order database at {target}: create one with create_database()")
    conn = sqlite3.connect(target, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def fetch_order(conn: sqlite3.Connection, order_id: str) -> OrderRow | None:
    """One order by id, or None. Parameters are bound, never pasted into the SQL."""
    row = conn.execute(
        "SELECT order_id, customer_id, status, region, item, total_cents, waybill_no, version,"
        " updated_at FROM orders WHERE order_id = ?",
        (order_id,),
    ).fetchone()
    return None if row is None else OrderRow(**dict(row))  # type: ignore[typeddict-item]


def customer_access(conn: sqlite3.Connection, customer_id: str) -> str | None:
    """``'active'``, ``'revoked'``, or None for an unknown customer."""
    row = conn.execute("SELECT access FROM customers WHERE customer_id = ?", (customer_id,)).fetchone()
    return None if row is None else str(row["access"])


def set_access(conn: sqlite3.Connection, customer_id: str, access: str) -> None:
    """Grant or revoke a customer's access (the acceptance matrix's 'permission revoked')."""
    conn.execute("UPDATE customers SET access = ? WHERE customer_id = ?", (access, customer_id))
    conn.commit()


def fetch_shipment(conn: sqlite3.Connection, waybill_no: str) -> ShipmentRow | None:
    """One waybill by number, or None."""
    row = conn.execute(
        "SELECT waybill_no, order_id, carrier, status, last_event, updated_at FROM shipments"
        " WHERE waybill_no = ?",
        (waybill_no,),
    ).fetchone()
    return None if row is None else ShipmentRow(**dict(row))  # type: ignore[typeddict-item]


def search_policies(
    conn: sqlite3.Connection, topic: str, region: str | None = None, page: int = 1, page_size: int = 2
) -> PolicyPage:
    """Policies on ``topic`` for ``region`` (and those for 'all'), one page, newest first.

    ``truncated`` is True when rows remain after this page; ``next_page`` is then its number.
    """
    where, params = "topic = ?", [topic]
    if region is not None:
        where += " AND region IN ('all', ?)"
        params.append(region)
    total = int(conn.execute(f"SELECT count(*) FROM delivery_policies WHERE {where}", params).fetchone()[0])
    rows = conn.execute(
        "SELECT policy_id, topic, region, title, body, version, updated_at FROM delivery_policies"
        f" WHERE {where} ORDER BY updated_at DESC, policy_id LIMIT ? OFFSET ?",
        [*params, page_size, (page - 1) * page_size],
    ).fetchall()
    items = [PolicyRow(**dict(r)) for r in rows]  # type: ignore[typeddict-item]
    truncated = page * page_size < total
    return PolicyPage(
        items=items,
        page=page,
        page_size=page_size,
        total=total,
        truncated=truncated,
        next_page=page + 1 if truncated else None,
    )


def next_timestamp(conn: sqlite3.Connection) -> str:
    """The deterministic creation time of the next investigation (CLOCK_START + n minutes)."""
    count = count_investigations(conn)
    start = datetime.strptime(CLOCK_START, "%Y-%m-%dT%H:%M:%SZ")
    return (start + timedelta(minutes=count)).strftime("%Y-%m-%dT%H:%M:%SZ")


def fetch_investigation(conn: sqlite3.Connection, investigation_id: int) -> InvestigationRow | None:
    """One investigation by its row id, or None."""
    row = conn.execute(
        "SELECT investigation_id, order_id, reason, note, idempotency_key, status, created_at"
        " FROM investigations WHERE investigation_id = ?",
        (investigation_id,),
    ).fetchone()
    return None if row is None else InvestigationRow(**dict(row))  # type: ignore[typeddict-item]


def insert_investigation(
    conn: sqlite3.Connection,
    order_id: str,
    reason: str,
    note: str,
    idempotency_key: str | None,
) -> tuple[InvestigationRow, bool]:
    """Create an investigation; return ``(row, created)`` (lesson 32).

    A key already stored is answered by the one rule of
    :mod:`~lessons_lib.services.orders.idempotency`: the same payload comes back as the first
    row with ``created=False``, another payload raises :class:`IdempotencyConflict`. Without a
    key every call writes a new row.
    """
    if idempotency_key is not None:
        found = conn.execute(
            "SELECT investigation_id FROM investigations WHERE idempotency_key = ?", (idempotency_key,)
        ).fetchone()
        if found is not None:
            first = fetch_investigation(conn, int(found[0]))
            assert first is not None
            payload = {"order_id": order_id, "reason": reason, "note": note}
            replay_or_conflict(first, idempotency_key, payload)
            return first, False
    try:
        with conn:  # one transaction: the row and its time, or nothing
            cursor = conn.execute(
                "INSERT INTO investigations (order_id, reason, note, idempotency_key, status, created_at)"
                " VALUES (?, ?, ?, ?, 'open', ?)",
                (order_id, reason, note, idempotency_key, next_timestamp(conn)),
            )
    except sqlite3.IntegrityError:
        if idempotency_key is None:
            raise
        # another connection stored the same key between our look-up and our insert
        return insert_investigation(conn, order_id, reason, note, idempotency_key)
    created = fetch_investigation(conn, int(cursor.lastrowid or 0))
    assert created is not None
    return created, True


def count_investigations(conn: sqlite3.Connection, order_id: str | None = None) -> int:
    """How many investigation rows exist (for one order, or in all): lesson 32 counts them."""
    if order_id is None:
        return int(conn.execute("SELECT count(*) FROM investigations").fetchone()[0])
    return int(
        conn.execute("SELECT count(*) FROM investigations WHERE order_id = ?", (order_id,)).fetchone()[0]
    )


def dump(conn: sqlite3.Connection) -> str:
    """The whole database as SQL text (``iterdump``): equal dumps mean nothing changed."""
    return "\n".join(conn.iterdump())
