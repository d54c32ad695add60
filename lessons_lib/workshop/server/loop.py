"""Plug a learner's ``search_notes`` server into the course's application loop. Lesson 12.

``run_chain(services={"notes": notes_service(build)})`` builds the learner's server over the
course's ``data/workspace`` for the loop (the loop takes a factory ``name -> low-level Server``;
an ``MCPServer`` is unwrapped as the SDK's own in-memory transport does). The SDK's log setup,
which ``MCPServer()`` performs, is undone so it does not reach the notebook. A builder that still
holds a starter blank is refused with one line, so the run ends with that line, not a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from lessons_lib.core.messages import t
from lessons_lib.core.paths import WORKSPACE_DIR

if TYPE_CHECKING:
    from mcp.server import Server

    from lessons_lib.engine.execute import ServerFactory


def notes_service(build: Callable[[Path], object], root: Path | None = None) -> ServerFactory:
    """A service factory for :func:`~lessons_lib.engine.host.run_chain` from ``build(root)``. Lesson 12."""
    from lessons_lib.checks.checker import has_blank, unfinished_word
    from lessons_lib.workshop.server.probe import lowlevel, quiet_logging

    def factory(name: str) -> Server:
        if has_blank(build):
            raise ValueError(t("server_loop.factory.1", UNFINISHED=unfinished_word()))
        with quiet_logging():
            return lowlevel(build(root or WORKSPACE_DIR))

    return factory
