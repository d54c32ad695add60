"""The order desk's SQLite data (lesson 30): built from data/orders/seed.sql, deterministic."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from lessons_lib.services.orders import data as od


@pytest.fixture()
def conn(tmp_path: Path) -> sqlite3.Connection:
    return od.connect(od.create_database(tmp_path / "orders.sqlite3"))


def test_two_fresh_databases_hold_the_same_rows(tmp_path: Path) -> None:
    first = od.connect(od.create_database(tmp_path / "a.sqlite3"))
    second = od.connect(od.create_database())
    assert od.dump(first) == od.dump(second)
    sql = od.SEED_SQL.read_text(encoding="utf-8").upper()
    assert "CURRENT_TIMESTAMP" not in sql and "('NOW')" not in sql


def test_an_existing_file_is_never_overwritten_silently(tmp_path: Path) -> None:
    path = od.create_database(tmp_path / "orders.sqlite3")
    with pytest.raises(FileExistsError, match="replace=True"):
        od.create_database(path)
    assert od.create_database(path, replace=True) == path
    with pytest.raises(FileNotFoundError, match="create_database"):
        od.connect(tmp_path / "missing.sqlite3")


def test_a_temporary_database_is_removed_when_python_exits() -> None:
    code = "from lessons_lib.services.orders import data as od; print(od.create_database())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    made = Path(out.stdout.strip())
    assert made.name == od.DB_NAME
    assert not made.parent.exists(), "create_database() left its temporary folder behind"


def test_the_seed_order_carries_its_evidence(conn: sqlite3.Connection) -> None:
    order = od.fetch_order(conn, "O-1042")
    assert order is not None
    assert (order["status"], order["version"], order["updated_at"]) == ("shipped", 3, "2026-08-06T11:20:00Z")
    assert order["waybill_no"] == "WB-77042"
    shipment = od.fetch_shipment(conn, "WB-77042")
    assert shipment is not None and shipment["order_id"] == "O-1042"


def test_sql_in_an_order_id_is_only_a_value(conn: sqlite3.Connection) -> None:
    before = od.dump(conn)
    assert od.fetch_order(conn, "O-1042' OR '1'='1") is None
    assert od.fetch_order(conn, "O-1; DROP TABLE orders; --") is None
    assert od.dump(conn) == before


def test_policy_pages_say_when_rows_remain(conn: sqlite3.Connection) -> None:
    first = od.search_policies(conn, "delay", "north", page=1, page_size=2)
    assert [p["policy_id"] for p in first["items"]] == ["P-02", "P-01"]
    assert (first["total"], first["truncated"], first["next_page"]) == (3, True, 2)
    last = od.search_policies(conn, "delay", "north", page=2, page_size=2)
    assert [p["policy_id"] for p in last["items"]] == ["P-03"]
    assert (last["truncated"], last["next_page"]) == (False, None)
    assert all(p["region"] in ("all", "north") for p in first["items"] + last["items"])


def test_the_idempotency_key_keeps_one_row(conn: sqlite3.Connection) -> None:
    start = od.count_investigations(conn)
    row, created = od.insert_investigation(conn, "O-1042", "delayed", "滞留", "k-1")
    again, created_again = od.insert_investigation(conn, "O-1042", "delayed", "滞留", "k-1")
    assert (created, created_again) == (True, False)
    assert again == row
    assert row["created_at"] == "2026-08-09T10:01:00Z"
    assert od.count_investigations(conn) == start + 1
    with pytest.raises(od.IdempotencyConflict, match="new key"):
        od.insert_investigation(conn, "O-1042", "lost", "滞留", "k-1")


def test_without_a_key_every_call_writes_a_row(conn: sqlite3.Connection) -> None:
    start = od.count_investigations(conn, "O-1042")
    od.insert_investigation(conn, "O-1042", "delayed", "滞留", None)
    od.insert_investigation(conn, "O-1042", "delayed", "滞留", None)
    assert od.count_investigations(conn, "O-1042") == start + 2


def test_the_database_itself_refuses_values_outside_its_rules(conn: sqlite3.Connection) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        od.insert_investigation(conn, "O-1042", "bored", "x", None)
    with pytest.raises(sqlite3.IntegrityError):
        od.insert_investigation(conn, "O-9999", "delayed", "x", None)
    od.set_access(conn, "C-001", "revoked")
    assert od.customer_access(conn, "C-001") == "revoked"
    assert od.customer_access(conn, "C-999") is None
