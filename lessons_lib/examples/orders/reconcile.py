"""A write whose answer never came: look its idempotency key up, and tell the server to stop.

Introduced in lesson 32. When a ``create_investigation`` times out, the application does not
know whether the row was written. Two things are safe: ask the desk's own record by the
intent's key (:func:`lookup_key`) before deciding to send it again, and tell the MCP server the
request is no longer awaited (:func:`cancel_notice`, the protocol's ``notifications/cancelled``,
built with the ``mcp`` SDK's own types). The lookup reads the run's SQLite file directly: the
course's desk has no read-by-key tool, so this is the operator's view, not the model's.
"""

from __future__ import annotations

from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import lessons_lib.services.orders.data as od
from lessons_lib.core.display import Displayable
from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.messages import t
from lessons_lib.services.orders.words import value_word


@dataclass(frozen=True, repr=False)
class KeyLookup(Displayable):
    """What the desk's record says about one idempotency key (lesson 32)."""

    key: str
    rows: tuple[JSONObject, ...]

    @property
    def written(self) -> bool:
        return bool(self.rows)

    def text(self) -> str:
        if not self.rows:
            return t("orders_reconcile.missing", key=self.key)
        row = self.rows[0]
        return t(
            "orders_reconcile.written",
            key=self.key,
            investigation_id=row["investigation_id"],
            order_id=row["order_id"],
            reason=value_word(row["reason"]),
        )

    def repr_args(self) -> str:
        return f"{self.key!r}, written={self.written}"


def lookup_key(db_path: str | Path, key: str) -> KeyLookup:
    """The investigation rows stored under ``key`` in an order database (lesson 32)."""
    with closing(od.connect(db_path)) as conn:
        found = conn.execute(
            "SELECT investigation_id, order_id, reason FROM investigations WHERE idempotency_key = ?",
            (key,),
        ).fetchall()
    return KeyLookup(key, tuple(dict(row) for row in found))


def cancel_notice(request_id: int | str, reason: str) -> JSONObject:
    """The JSON-RPC frame that tells an MCP server a request is no longer awaited (lesson 32)."""
    from mcp import types

    note = types.CancelledNotification(
        params=types.CancelledNotificationParams(request_id=request_id, reason=reason)
    )
    return {"jsonrpc": "2.0", **note.model_dump(by_alias=True, mode="json", exclude_none=True)}
