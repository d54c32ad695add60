"""The order desk's business rules, one copy for every way in (lessons 30 and 40).

The MCP desk (:mod:`lessons_lib.services.orders.service`), the HTTP order API
(:mod:`lessons_lib.examples.openapi.app`) and the direct function of lesson 40 all decide here:
the session's access, which orders the session may see (another customer's order reads as
missing: nobody learns that it exists), which orders may be investigated, and what an
idempotency key may replay. A refusal is a :class:`DeskError` with one of the desk's codes;
:data:`HTTP_STATUS` says how the HTTP API answers each.
"""

from __future__ import annotations

import sqlite3
from typing import Final

import lessons_lib.services.orders.data as od
from lessons_lib.core.echo import short
from lessons_lib.services.orders.idempotency import IdempotencyConflict

SESSION_CUSTOMER: Final = "C-001"
"""The trusted session the desk answers for (the customer signed in to the application)."""

INVESTIGABLE: Final = ("shipped", "delivered")

HTTP_STATUS: Final = {
    "invalid_arguments": 400,
    "permission_revoked": 403,
    "not_found": 404,
    "not_allowed": 409,
    "conflict": 409,
    "internal": 500,
}
"""The HTTP status the order API answers for each of the desk's error codes (lesson 40)."""


class DeskError(Exception):
    """A refused call: an error code from ERROR_CODES and a message saying what to do."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def check_session(conn: sqlite3.Connection, customer_id: str) -> None:
    """Refuse a session whose customer may no longer use the desk."""
    if od.customer_access(conn, customer_id) != "active":
        raise DeskError(
            "permission_revoked",
            f"this session ({customer_id}) may no longer use the order desk; ask a human agent",
        )


def visible_order(conn: sqlite3.Connection, order_id: str, customer_id: str) -> od.OrderRow:
    """The session's own order, or ``not_found`` (also for another customer's order)."""
    order = od.fetch_order(conn, order_id)
    if order is None or order["customer_id"] != customer_id:
        raise DeskError(
            "not_found", f"no order {short(order_id)} in this session; check the number with the user"
        )
    return order


def investigable(order: od.OrderRow) -> od.OrderRow:
    """The order if an investigation may be opened for it, else ``not_allowed``."""
    if order["status"] not in INVESTIGABLE:
        raise DeskError(
            "not_allowed",
            f"order {order['order_id']} is {order['status']}: only shipped or delivered orders"
            " can be investigated",
        )
    return order


def open_investigation(
    conn: sqlite3.Connection,
    customer_id: str,
    order_id: str,
    reason: str,
    note: str,
    key: str | None,
) -> tuple[od.OrderRow, od.InvestigationRow, bool]:
    """Check every rule, then write (or replay): (order, investigation row, created).

    A reused key follows :mod:`~lessons_lib.services.orders.idempotency` (replayed or conflict).
    """
    check_session(conn, customer_id)
    order = investigable(visible_order(conn, order_id, customer_id))
    try:
        row, created = od.insert_investigation(conn, order["order_id"], reason, note, key)
    except IdempotencyConflict as conflict:
        raise DeskError("conflict", str(conflict)) from None
    return order, row, created
