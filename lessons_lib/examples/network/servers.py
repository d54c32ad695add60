"""The servers the course serves over HTTP, one per example: what ``conformance`` and lesson 62 test.

Each is built as ``serve`` builds it (the order desk on a fresh database), so the suite checks the
same server definition a learner runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lessons_lib.engine.http.serve import HttpServable


def servers() -> dict[str, Callable[[], HttpServable]]:
    """Each example's server builder: ``files``, ``orders``, ``notes``."""
    from lessons_lib.core.paths import WORKSPACE_DIR
    from lessons_lib.services.files.service import build_server
    from lessons_lib.services.notes.server import build_server as notes_server
    from lessons_lib.services.orders.service import fresh_server

    return {
        "files": lambda: build_server(WORKSPACE_DIR),
        "orders": lambda: fresh_server(),
        "notes": lambda: notes_server(WORKSPACE_DIR),
    }
