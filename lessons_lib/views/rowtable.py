"""A plain table of text rows with a caption, for lessons 50-52 (text and HTML, left-aligned).

Cells whose whole text is a verdict word (``通过``, ``不通过``...) show as that verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

from lessons_lib.core.display import Displayable
from lessons_lib.core.htmltable import html_table


@dataclass(frozen=True, repr=False)
class RowTable(Displayable):
    """Headers, rows of strings and an optional note under the table (lessons 50-52)."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""

    def text(self) -> str:
        lines = [" | ".join(self.headers)] + [" | ".join(r) for r in self.rows]
        return "\n".join(lines + ([self.note] if self.note else []))

    def repr_args(self) -> str:
        return f"{len(self.rows)} rows"

    def html(self) -> str:
        from html import escape

        note = f"<p>{escape(self.note)}</p>" if self.note else ""
        return html_table(self.headers, self.rows, css_class="lessons-rows") + note

    def column(self, header: str) -> list[str]:
        """One column's cells, by its header (tests and checkers read the table this way)."""
        n = self.headers.index(header)
        return [r[n] for r in self.rows]
