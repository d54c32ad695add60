"""One idempotency rule for the order desk's one write, in every way it is reached (lessons 32, 40-41).

The desk over MCP (lesson 30), the HTTP order API (lesson 40) and the direct function (lesson 41)
all store an investigation through :func:`~lessons_lib.services.orders.data.insert_investigation`,
which asks this module what a reused key means. An idempotency key names one business intent
(the tool-design article: 同一业务意图的写操作仍应复用业务幂等键), so:

- the same key with an identical payload (order, reason, note) is **replayed**: the first row
  comes back and nothing is written;
- the same key with any other payload is a **conflict**, refused: a new intent needs a new key;
- two creates racing with one key give one row; the loser is answered by the same two rules
  (replayed if its payload is identical, a conflict if not), because the database's UNIQUE
  constraint on the key decides who was first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

PAYLOAD: Final = ("order_id", "reason", "note")
"""What one intent is made of: a reused key must carry exactly these values again."""


class IdempotencyConflict(ValueError):
    """The key was used before for a different payload (another order, reason or note)."""


def replay_or_conflict(first: Mapping[str, object], key: str, payload: Mapping[str, object]) -> None:
    """Return if ``payload`` is the one stored under ``key`` (a replay); else :class:`IdempotencyConflict`."""
    differs = [field for field in PAYLOAD if first[field] != payload[field]]
    if differs:
        raise IdempotencyConflict(
            f"idempotency key {key!r} already names investigation {first['investigation_id']}, made with"
            f" another {' and '.join(differs)}; nothing was written: send the same values again to read it"
            " back, or use a new key for a new intent"
        )


__all__ = ["PAYLOAD", "IdempotencyConflict", "replay_or_conflict"]
