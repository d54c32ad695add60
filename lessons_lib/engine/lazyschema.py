"""``import jsonschema`` without building rfc3987-syntax's grammars up front (for speed).

jsonschema's ``_format`` module imports ``rfc3987_syntax`` at import time for two format
checkers, ``iri`` and ``iri-reference``; importing ``rfc3987_syntax`` builds about 38 Lark
parsers, 1 to 3 s of CPU on a 2-core machine (python-jsonschema/jsonschema#1428; Jupyter's
``jupyter-events`` installs it). Most lessons validate with jsonschema and none checks those
formats, yet each lesson's kernel paid for them.

:func:`install` (called by ``import lessons_lib``) adds a finder that acts once, on the first
``import jsonschema`` of the process: jsonschema loads with ``rfc3987_syntax`` held back, then
the same two checkers are registered on the same format checkers, through jsonschema's own
``_checks_drafts``, calling the same ``rfc3987_syntax.is_valid_syntax``, imported when a
format checker first meets an ``iri``. So every check gives the same verdict; only the
moment the grammars are built moves. Nothing happens when jsonschema is already imported,
when ``rfc3987`` is installed (jsonschema then uses it, never ``rfc3987_syntax``) or when
``rfc3987_syntax`` is missing. Hand-written: no library defers a dependency's own import.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

HELD_BACK = "rfc3987_syntax"


class _Finder(importlib.abc.MetaPathFinder):
    """Finds ``jsonschema`` once, with a loader that holds ``rfc3987_syntax`` back."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "jsonschema":
            return None
        uninstall()
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None or not _worth_it():
            return spec
        spec.loader = _Loader(spec.loader)
        return spec


class _Loader(importlib.abc.Loader):
    """The real loader, run with ``rfc3987_syntax`` unimportable; then the lazy checkers."""

    def __init__(self, real: Any) -> None:
        self.real = real

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.real.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        module.__loader__ = self.real  # resources and reloads go to the real loader
        if module.__spec__ is not None:
            module.__spec__.loader = self.real
        sys.modules[HELD_BACK] = None  # type: ignore[assignment]  # import -> ImportError
        try:
            self.real.exec_module(module)
        finally:
            if HELD_BACK in sys.modules and sys.modules[HELD_BACK] is None:
                del sys.modules[HELD_BACK]
        _register_lazy_checkers()


def _worth_it() -> bool:
    """True when jsonschema would import ``rfc3987_syntax`` (installed, no ``rfc3987``)."""
    if HELD_BACK in sys.modules:
        return False
    try:
        return importlib.util.find_spec("rfc3987") is None and importlib.util.find_spec(HELD_BACK) is not None
    except (ImportError, ValueError):
        return False


def _register_lazy_checkers() -> None:
    """``iri`` and ``iri-reference`` as jsonschema registers them, the grammar loaded on use."""
    fmt = importlib.import_module("jsonschema._format")

    def valid(rule: str, instance: object) -> bool:
        if not isinstance(instance, str):
            return True
        from rfc3987_syntax import is_valid_syntax

        return bool(is_valid_syntax(rule, instance))

    for name, rule in (("iri", "iri"), ("iri-reference", "iri_reference")):
        fmt._checks_drafts(draft7=name, draft201909=name, draft202012=name, raises=ValueError)(
            lambda instance, rule=rule: valid(rule, instance)
        )


_FINDER = _Finder()


def install() -> None:
    """Defer the grammars of the process's first ``import jsonschema`` (idempotent)."""
    if "jsonschema" not in sys.modules and _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


def uninstall() -> None:
    """Remove the finder (it also removes itself when jsonschema is first imported)."""
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
