"""The file service of part one: ``read_text_file``, its opener, path rules and stdio server (lessons 02-04).

``ENTRY`` declares it: one server definition (:func:`~lessons_lib.services.files.service.build_server`),
built on the workspace or on any folder the loop is given (lesson 05).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from lessons_lib.core.example import SERVICE_NAME
from lessons_lib.core.plugins.serviceregistry import ServiceEntry

if TYPE_CHECKING:
    from mcp.server import Server


def on_folder(root: Path | None, name: str = SERVICE_NAME) -> Server:
    """The file service on ``root`` (None: the workspace), its tool declared under service ``name``."""
    from lessons_lib.services.files.service import build_server

    return build_server(root, name)


def server(name: str = SERVICE_NAME) -> Server:
    """The file service on the workspace."""
    return on_folder(None, name)


ENTRY = ServiceEntry("files", "read_text_file over one folder", "02-05", server, folder=on_folder)
