"""The reference ``search_notes`` server of lesson 12, and its noisy twin.

``ENTRY`` declares it: one server definition (:func:`~lessons_lib.services.notes.server.build_server`)
on the workspace, the server lesson 62 checks with the conformance suite.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lessons_lib.core.plugins.serviceregistry import ServiceEntry

if TYPE_CHECKING:
    from mcp.server import MCPServer


def server(name: str = "notes") -> MCPServer:
    """The notes server on the workspace (the SDK's high-level server names itself ``notes``)."""
    from lessons_lib.core.paths import WORKSPACE_DIR
    from lessons_lib.services.notes.server import build_server

    return build_server(WORKSPACE_DIR)


ENTRY = ServiceEntry("notes", "search_notes over one folder (lesson 12's reference)", "12", server)
