"""The MCP services the course ships, found by their folders: one entry per ``lessons_lib/services/<name>/``.

Standard library only. Each service's ``__init__`` defines ``ENTRY``, a :class:`ServiceEntry`
holding its one server definition as objects: a fresh server under a service name, and, for the
file service, a server on any folder. The loop serves a folder with the service that serves
folders (lesson 05), lesson 11's workbench builds the services its cases name (lesson 11), and
lesson 62 serves each one over HTTP. Another service is one folder and nothing else; one outside
the package is named in ``LESSONS_LIB_SERVICES``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from lessons_lib.core.plugins.discover import entries

PACKAGE: Final = "lessons_lib.services"
PLUGINS_VARIABLE: Final = "LESSONS_LIB_SERVICES"


@dataclass(frozen=True)
class ServiceEntry:
    """One MCP service: its name, its lessons and its one server definition."""

    name: str
    title: str
    lessons: str
    server: Callable[..., object]
    """``server(name)``: a fresh server of this service, its tools declared under ``name``;
    ``server()`` uses the service's own name for itself."""
    folder: Callable[[Path | None, str], object] | None = None
    """``folder(root, name)``: a server of this service on the folder ``root`` (None: its default);
    set by the service that serves folders (the file service)."""


def service_entries() -> list[ServiceEntry]:
    """Every service: the package's own folders by name, then those named in ``LESSONS_LIB_SERVICES``."""
    return entries(PACKAGE, PLUGINS_VARIABLE, ServiceEntry)


def service_for(name: str) -> ServiceEntry:
    """The service called ``name``; any other name is the file service under that name (lesson 11's
    workbench renames it)."""
    known = service_entries()
    return next((e for e in known if e.name == name), None) or folder_service()


def folder_service() -> ServiceEntry:
    """The service that serves a folder (the file service)."""
    found = [e for e in service_entries() if e.folder is not None]
    if len(found) != 1:
        raise ValueError(f"exactly one service must serve folders; found {len(found)}")
    return found[0]


def serve_folder(root: Path | None, name: str) -> object:
    """A server of the service that serves folders, on ``root``, its tools declared under ``name``."""
    folder = folder_service().folder
    assert folder is not None  # folder_service() found it so
    return folder(root, name)
