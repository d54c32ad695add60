"""The environment check of lesson 00: is everything the course needs in place?

:func:`environment_check` prints only what is stable on every correctly installed machine:
each requirement's *range* with a tick (never the exact installed version, which changes with
patch upgrades), the diagram renderer, offline or live mode, and the example file's line
count under its repository-relative name (never the absolute path). A failing row says what
is wrong and what to do; only then does it show the version or path it found.
"""

from __future__ import annotations

import html
import re
import sys
from dataclasses import dataclass
from typing import Final

from lessons_lib.core.display import Displayable
from lessons_lib.core.htmltable import html_table, status
from lessons_lib.core.messages import t

PYTHON_MIN: Final = (3, 11)

REQUIREMENTS: Final[tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...]] = (
    ("mcp", (2, 3), (3,)),
    ("openai", (3, 51), (4,)),
    ("jsonschema", (4, 23), (5,)),
    ("pandas", (2, 2), (4,)),
    ("ipywidgets", (8, 1), (9,)),
    ("graphviz", (0, 20), (1,)),
)
"""(distribution, lowest version, first version not allowed): the ranges in pyproject.toml."""

NOTES_NAME: Final = "data/workspace/notes.txt"
MIN_NOTES_LINES: Final = 21  # the example reads the first 20 lines, so the file needs more
_OK: Final = "✓"
_BAD: Final = "✗"


@dataclass(frozen=True)
class Row:
    """One line of the check: what, the stable detail, and whether it is fine."""

    item: str
    detail: str
    ok: bool


@dataclass(frozen=True, repr=False)
class EnvReport(Displayable):
    """The result of :func:`environment_check`, displayable as text and as an HTML table."""

    rows: tuple[Row, ...]

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.rows)

    def verdict(self) -> str:
        if self.ok:
            return t("envcheck.ready")
        bad = t("sep.list").join(r.item for r in self.rows if not r.ok)
        return t("envcheck.not_ready", items=bad, mark=_BAD)

    def text(self) -> str:
        lines = [t("envcheck.title", mark=_OK)]
        lines += [
            t("envcheck.line", mark=_OK if r.ok else _BAD, item=r.item, detail=r.detail) for r in self.rows
        ]
        lines.append(self.verdict())
        return "\n".join(lines)

    def html(self) -> str:
        rows = [(status("pass" if r.ok else "fail", ""), r.item, r.detail) for r in self.rows]
        table = html_table(
            ("", t("envcheck.item"), t("envcheck.detail")), rows, nowrap=(1,), css_class="lessons-envcheck"
        )
        return f"{table}<p>{html.escape(self.verdict())}</p>"

    def repr_args(self) -> str:
        return f"ok={self.ok}, rows={len(self.rows)}"


def _spell(version: tuple[int, ...]) -> str:
    return ".".join(str(n) for n in version)


def _numeric(version: str) -> tuple[int, ...]:
    """Leading numeric release parts: '2.3.0rc1' -> (2, 3, 0)."""
    parts = []
    for piece in version.split("."):
        match = re.match(r"\d+", piece)
        if match is None:
            break
        parts.append(int(match.group(0)))
        if match.group(0) != piece:
            break
    return tuple(parts)


def in_range(version: str, low: tuple[int, ...], high: tuple[int, ...]) -> bool:
    """True if ``low <= version < high`` (numeric release parts only)."""
    found = _numeric(version)
    return bool(found) and low <= found < high


def _python_row(version: tuple[int, int]) -> Row:
    wanted = f">={_spell(PYTHON_MIN)}"
    if version >= PYTHON_MIN:
        return Row("Python", wanted, True)
    return Row("Python", t("envcheck.python_old", found=_spell(version), wanted=wanted), False)


def _package_row(name: str, low: tuple[int, ...], high: tuple[int, ...]) -> Row:
    from importlib import metadata

    wanted = f">={_spell(low)},<{_spell(high)}"
    try:
        found = metadata.version(name)
    except metadata.PackageNotFoundError:
        return Row(name, t("envcheck.missing", wanted=wanted, fix=t("envcheck.fix")), False)
    if in_range(found, low, high):
        return Row(name, wanted, True)
    return Row(name, t("envcheck.wrong", found=found, wanted=wanted, fix=t("envcheck.fix")), False)


def _renderer_row() -> Row:
    from lessons_lib.views.dot import install_hint, renderer_name

    name = renderer_name()
    if name == "dot":
        return Row(t("envcheck.renderer"), t("envcheck.system_dot"), True)
    if name == "graphviz-pure":
        return Row(t("envcheck.renderer"), t("envcheck.pip_dot"), True)
    return Row(t("envcheck.renderer"), install_hint(), False)


def _mode_row() -> Row:
    from lessons_lib.engine.models import live_status

    return Row(t("envcheck.model"), live_status(), True)


def _data_row() -> Row:
    from lessons_lib.core.paths import WORKSPACE_DIR

    notes = WORKSPACE_DIR / "notes.txt"
    try:
        text = notes.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return Row(
            t("envcheck.data"),
            t("envcheck.no_data", name=NOTES_NAME, looked=notes),
            False,
        )
    count = len(text.splitlines())
    if count < MIN_NOTES_LINES:
        return Row(
            t("envcheck.data"),
            t("envcheck.short_data", name=NOTES_NAME, n=count, need=MIN_NOTES_LINES),
            False,
        )
    return Row(t("envcheck.data"), t("envcheck.data_lines", name=NOTES_NAME, n=count), True)


def environment_check() -> EnvReport:
    """Check Python, the packages, the renderer, the model mode and the data (lesson 00)."""
    rows = [_python_row((sys.version_info[0], sys.version_info[1]))]
    rows += [_package_row(name, low, high) for name, low, high in REQUIREMENTS]
    rows += [_renderer_row(), _mode_row(), _data_row()]
    return EnvReport(tuple(rows))
