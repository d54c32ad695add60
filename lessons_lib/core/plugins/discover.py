"""Finding the plug-ins: each folder of a plug-in package that declares an ``ENTRY``. Lessons 20 and 30.

Standard library only. A plug-in is a package whose ``__init__`` defines ``ENTRY`` (an
``ApiEntry``, an ``ExampleEntry`` or a ``ServiceEntry``). The kernel finds the package's own
plug-ins by listing the folders of ``lessons_lib/apis``, ``lessons_lib/examples`` and
``lessons_lib/services`` (:func:`pkgutil.iter_modules`, no list of names anywhere), then the
packages named in an environment variable (comma-separated import names), so a plug-in
outside the package is one folder on ``sys.path`` and nothing else. The packages are imported
by computed name on first use: no kernel module imports a plug-in by a name written in it.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from collections.abc import Iterator
from typing import TypeVar

T = TypeVar("T")

_cache: dict[tuple[str, str, str], tuple[object, ...]] = {}


def _own_folders(package: str) -> Iterator[str]:
    root = importlib.import_module(package)
    for info in sorted(pkgutil.iter_modules(root.__path__), key=lambda i: i.name):
        if info.ispkg and not info.name.startswith("_"):
            yield f"{package}.{info.name}"


def named_in(variable: str) -> list[str]:
    """The import names listed in the environment variable ``variable`` (comma-separated)."""
    return [m.strip() for m in os.environ.get(variable, "").split(",") if m.strip()]


def entries(package: str, variable: str, kind: type[T]) -> list[T]:
    """Every ``ENTRY`` of type ``kind``: the folders of ``package`` by name, then those named in
    ``variable``. A named package that cannot be imported or has no such entry, and two entries
    with one name, are a one-line ``ValueError`` saying which; a folder of ``package`` without an
    entry is not a plug-in of this kind."""
    key = (package, variable, os.environ.get(variable, ""))
    if key not in _cache:
        found: list[object] = []
        where: dict[str, str] = {}  # an entry's name -> the package that declared it

        def add(entry: object, module: str) -> None:
            name = getattr(entry, "name", None)
            if isinstance(name, str) and name in where:
                raise ValueError(f"two plug-ins are called '{name}': {where[name]} and {module}")
            if isinstance(name, str):
                where[name] = module
            found.append(entry)

        for name in _own_folders(package):
            entry = getattr(importlib.import_module(name), "ENTRY", None)
            if isinstance(entry, kind):
                add(entry, name)
        for name in named_in(variable):
            try:
                module = importlib.import_module(name)
            except ImportError as exc:
                raise ValueError(f"{variable} names '{name}', which cannot be imported: {exc}") from None
            entry = getattr(module, "ENTRY", None)
            if not isinstance(entry, kind):
                raise ValueError(f"{variable} names '{name}', which defines no ENTRY of type {kind.__name__}")
            add(entry, name)
        _cache[key] = tuple(found)
    return [e for e in _cache[key] if isinstance(e, kind)]
