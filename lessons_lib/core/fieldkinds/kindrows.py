"""What a kind table and a shape detector are made of, for the kernel and every API. Lesson 03.

A table row is ``(pattern, kind)`` or ``(pattern, kind, "text")``: the first row of a message
type's table whose pattern matches a field's path gives the field's kind (``core.kindtables``).
``deep`` and ``at`` build rows; the kind constants spell the kinds. A ``Detector`` says which
message type a JSON value is from its shape (``core.msgtype``), and its ``tier`` says where it
is tried among the other APIs' detectors (see ``lessons_lib.core.plugins.apiregistry``). Standard
library only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, Literal, NamedTuple

if TYPE_CHECKING:
    from lessons_lib.core.jsonvalue import JSON

Row = tuple[str, str] | tuple[str, str, str]
"""(pattern, kind) or (pattern, kind, "text"): the row holds only when the value is text."""

R: Final = "rule"
SET: Final = "setting"  # request settings: how this request is handled, not how arguments are filled
V: Final = "value"
S: Final = "result"
ID: Final = "identifier"
E: Final = "envelope"
NEST: Final = "nest"  # the subtree is a message of its own: classify it by its own shape


def deep(name: str, kind: str) -> list[Row]:
    """A field and everything under it."""
    return [(name, kind), (f"{name}.**", kind)]


def at(prefix: str, rows: Sequence[Row]) -> list[Row]:
    """Rows re-rooted at ``prefix`` (``""`` is the prefix itself, ``[...]`` an index of it)."""
    out: list[Row] = []
    for row in rows:
        pat = row[0]
        full = prefix if not pat else prefix + pat if pat.startswith("[") else f"{prefix}.{pat}"
        out.append((full, *row[1:]))
    return out


Tier = Literal["marked", "narrow", "broad", "part"]
TIERS: Final[tuple[Tier, ...]] = ("marked", "narrow", "broad", "part")
"""The order in which the APIs' detectors are tried, tier by tier (the registry's order within one):

``marked``: a whole message with a mark no other shape has (``object: "chat.completion"``,
``type: "message"`` with a ``stop_reason``); ``narrow``: a whole message told by fields that a
broad test would also accept (a ``messages`` request with Anthropic's ``max_tokens``);
``broad``: a whole message told by a general shape (any ``messages`` list); ``part``: a part
of a message (a declared tool, a call, a content block)."""


class Detector(NamedTuple):
    """One message type's shape test and its tier (``TIERS``)."""

    name: str
    tier: Tier
    test: Callable[[JSON], bool]
