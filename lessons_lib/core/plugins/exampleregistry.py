"""The examples, found by their folders: one entry per ``lessons_lib/examples/<name>/``. Lesson 30.

Standard library only. Each example's ``__init__`` defines ``ENTRY``, an :class:`ExampleEntry`
holding its parts as objects: its lessons, what ``python -m lessons_lib run --example NAME``
calls, its commands (:class:`Command`: the dispatcher's table and lesson 10's cheat sheet), its
public names (:class:`Public`: the facade ``lessons_lib.NAME``), the names other examples may use,
and the services it stands on. An ``__init__`` stays cheap: its functions import the example's
modules when called, so the facade imports an example's module only when one of its names is
asked for. The kernel finds the entries (:func:`~lessons_lib.core.plugins.discover.entries`: the
package's folders, then the packages named in ``LESSONS_LIB_EXAMPLES``) and never names one.
An unknown name is a one-line ``ValueError``, never a default.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Final

from lessons_lib.core.plugins.discover import entries
from lessons_lib.core.plugins.serviceregistry import ServiceEntry

PACKAGE: Final = "lessons_lib.examples"
PLUGINS_VARIABLE: Final = "LESSONS_LIB_EXAMPLES"

Main = Callable[[Sequence[str]], "int | None"]
"""A command: the arguments after its name -> the exit code (None: 0)."""


@dataclass(frozen=True)
class Command:
    """One command of ``python -m lessons_lib``: its function, ``--help`` line and cheat-sheet row."""

    name: str
    main: Main
    help: str
    """One line for ``--help`` (lower case, no final stop)."""
    example: str
    """The cheat sheet's example: the arguments after ``python -m lessons_lib`` (lesson 10)."""
    lesson: str
    """The lesson that introduces it (two digits)."""
    order: int
    """Its place in ``--help`` and the cheat sheet, among the kernel's (10, 20, ...) and the examples'."""
    what: str = ""
    """The cheat sheet's words when the catalogue has no ``cheatsheet.cmd.<name>`` (empty: ``help``)."""


@dataclass(frozen=True)
class Public:
    """Names that one module of an example defines, given to the facade or to other examples.

    ``module`` imports that module when called (an example's ``__init__`` defines it with a local
    import); ``renamed`` maps a public name to the module's own name for it.
    """

    module: Callable[[], ModuleType]
    names: tuple[str, ...]
    renamed: Mapping[str, str] = field(default_factory=dict)

    def own_name(self, public: str) -> str:
        """The module's own name for ``public``."""
        return self.renamed.get(public, public)

    def load(self, public: str) -> object:
        """The object ``public`` names, its module imported on first use."""
        return getattr(self.module(), self.own_name(public))


def public(module: Callable[[], ModuleType], *names: str, **renamed: str) -> Public:
    """``Public(module, names)``: ``public(loader, "a", "b", shown_as="own_name")``."""
    return Public(module, (*names, *renamed), dict(renamed))


@dataclass(frozen=True)
class ExampleEntry:
    """One example: its lessons, run, commands, public names, shared names and services."""

    name: str
    title: str
    lessons: str
    run: Main | None = None
    """What ``run --example NAME ARGS`` calls with ``ARGS``; None: the example has no run."""
    commands: tuple[Command, ...] = ()
    public: tuple[Public, ...] = ()
    """The facade's names (``lessons_lib.NAME``)."""
    shared: tuple[Public, ...] = ()
    """Further names other examples may use through :meth:`get` (never the facade's)."""
    services: tuple[ServiceEntry, ...] = ()
    """The MCP services the example stands on."""

    def public_names(self) -> list[str]:
        return [n for part in self.public for n in part.names]

    def get(self, name: str) -> Any:
        """One of the example's public or shared names, for another example (lessons 50-52)."""
        for part in (*self.public, *self.shared):
            if name in part.names:
                return part.load(name)
        raise ValueError(f"the example '{self.name}' shares no name '{name}'")


def example_entries() -> list[ExampleEntry]:
    """Every example (the package's folders and those named in ``LESSONS_LIB_EXAMPLES``), by lessons."""
    found = entries(PACKAGE, PLUGINS_VARIABLE, ExampleEntry)
    return sorted(found, key=lambda e: e.lessons)


def example_names() -> list[str]:
    """Every example's name, in the order of its lessons."""
    return [e.name for e in example_entries()]


def example_entry(name: str) -> ExampleEntry:
    """The entry of example ``name``; an unknown name is a one-line ``ValueError``."""
    known = example_entries()
    for entry in known:
        if entry.name == name:
            return entry
    raise ValueError(f"unknown example '{name}'; known: {', '.join(e.name for e in known)}")


def public_parts() -> dict[str, Public]:
    """Every example's public name -> the part that defines it (the facade's example names)."""
    found: dict[str, Public] = {}
    for entry in example_entries():
        for part in entry.public:
            for name in part.names:
                if name in found:
                    raise ValueError(f"the public name '{name}' is given by two examples")
                found[name] = part
    return found
