"""The servers the course serves over HTTP, one per service: what ``conformance`` and lesson 62 test.

Each is built as ``serve`` builds it (the order desk on a fresh database), so the suite checks the
same server definition a learner runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from lessons_lib.engine.http.serve import HttpServable


def servers() -> dict[str, Callable[[], HttpServable]]:
    """Each service's server builder, by its name (``files``, ``notes``, ``orders``), from its entry."""
    from lessons_lib.examples.network import ENTRY

    return {s.name: cast("Callable[[], HttpServable]", s.server) for s in ENTRY.services}
