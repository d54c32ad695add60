"""The change table of lesson 09: one row per field of two runs, and deterministic text helpers.

``ChangeTable`` holds the rows (``.df`` gives a pandas DataFrame), filters them (``changed()``,
``key()``) and displays them as a CJK-aligned text table and as HTML; long values are cut in
the middle the same way every time (``abbreviate``). Built by ``lessons_lib.lab.whatif``.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from lessons_lib.core.display import Displayable
from lessons_lib.core.glossary import KINDS, SHORT_ZH, STEP_ZH, Kind, Step
from lessons_lib.core.htmltable import Cell, code, html_table
from lessons_lib.views.textwidth import shorten, text_table

if TYPE_CHECKING:
    import pandas as pd


class _Absent:
    """Marks a field that one of the two runs does not have."""

    def __repr__(self) -> str:
        return "—"


ABSENT: Final = _Absent()
KEY_VIEW: Final = "关键字段"


@dataclass(frozen=True)
class ChangeRow:
    """One field in both runs."""

    step: Step
    message: str
    path: str
    kind: Kind
    before: object
    after: object
    changed: bool
    note: str = ""


def same_value(a: object, b: object) -> bool:
    """Equal as JSON (so 20 and 20.0, or 1 and true, count as different); ABSENT only equals itself."""
    if a is ABSENT or b is ABSENT:
        return a is b
    return json.dumps(a, sort_keys=True, ensure_ascii=False) == json.dumps(
        b, sort_keys=True, ensure_ascii=False
    )


class ChangeTable(Displayable):
    """One row per field of every message in two runs (``.df`` is a pandas DataFrame). Lesson 09."""

    COLUMNS: Final = ("step", "message", "path", "kind", "before", "after", "changed")

    def __init__(
        self, rows: Sequence[ChangeRow], labels: tuple[str, str] = ("改前", "改后"), view: str = "全部字段"
    ) -> None:
        self.rows = list(rows)
        self.labels = labels
        self.view = view

    # -------------------------------------------------------------- data
    @property
    def df(self) -> pd.DataFrame:
        """The table as a DataFrame (values unabbreviated; a missing field is ``ABSENT``)."""
        import pandas as pd

        return pd.DataFrame(
            [[getattr(r, c) for c in self.COLUMNS] for r in self.rows], columns=list(self.COLUMNS)
        )

    def changed(self) -> ChangeTable:
        """Only the rows whose value differs between the two runs."""
        return ChangeTable([r for r in self.rows if r.changed], self.labels, "只看改变的字段")

    def key(self) -> ChangeTable:
        """Only the key fields of the lesson (task, rule, alias, values, result, answer)."""
        return ChangeTable([r for r in self.rows if r.note], self.labels, KEY_VIEW)

    def row(self, message: str, path: str) -> ChangeRow:
        for r in self.rows:
            if r.message == message and r.path == path:
                return r
        raise KeyError(
            f"no field {path!r} in message {message!r}; messages: {sorted({r.message for r in self.rows})}"
        )

    def changed_paths(self, message: str) -> list[str]:
        """Paths of the changed fields of one message that exist in the second run."""
        return [r.path for r in self.rows if r.message == message and r.changed and r.after is not ABSENT]

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[ChangeRow]:
        return iter(self.rows)

    # -------------------------------------------------------------- display
    def title(self) -> str:
        n = sum(r.changed for r in self.rows)
        return (
            f"对照（{self.view}）：{self.labels[0]} → {self.labels[1]}，{len(self.rows)} 个字段，{n} 个改变"
        )

    def _cells(self, r: ChangeRow) -> list[str]:
        note = [r.note] if self.view == KEY_VIEW else []
        return [
            STEP_ZH[r.step],
            r.message,
            r.path,
            *note,
            SHORT_ZH[r.kind],
            abbreviate(r.before),
            abbreviate(r.after),
            "改变" if r.changed else "不变",
        ]

    def headers(self) -> list[str]:
        note = ["看什么"] if self.view == KEY_VIEW else []
        return ["步骤", "消息", "字段路径", *note, "种类", self.labels[0], self.labels[1], "变化"]

    def text(self) -> str:
        return self.title() + "\n" + text_table(self.headers(), [self._cells(r) for r in self.rows])

    def html(self) -> str:
        body = []
        wrap = self.view == KEY_VIEW  # the note (what to look at) wraps; the rest stays on one line
        for r in self.rows:
            *lead, kind, before, after, verdict = self._cells(r)
            bar = f"border-left:4px solid {KINDS[r.kind].colour}"
            body.append(
                [
                    Cell(lead[0], nowrap=True),
                    Cell(lead[1], nowrap=True),
                    code(lead[2]),
                    *(Cell(x, nowrap=not wrap) for x in lead[3:]),
                    Cell(kind, nowrap=True, style=bar),
                    *(
                        Cell(c, code=True, title=full_text(v), style="max-width:16em")
                        for v, c in ((r.before, before), (r.after, after))
                    ),
                    Cell(verdict, nowrap=True),
                ]
            )
        changed = ["font-weight:bold;background:#FFF3B0" if r.changed else "" for r in self.rows]
        table = html_table(
            self.headers(),
            body,
            style="font-size:13px;border-collapse:collapse",
            row_styles=changed,
            head_nowrap=True,
        )
        return f'<div class="lessons-whatif"><p><b>{html.escape(self.title())}</b></p>{table}</div>'

    def repr_args(self) -> str:
        changed = sum(r.changed for r in self.rows)
        return f"{self.labels[0]!r} -> {self.labels[1]!r}, rows={len(self.rows)}, changed={changed}"


# ------------------------------------------------------------------ deterministic text helpers
def full_text(value: object) -> str:
    """A value as one string: strings as they are, everything else as compact JSON; ABSENT as —."""
    if value is ABSENT:
        return "—"
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def abbreviate(value: object, width: int = 52) -> str:
    """Short, deterministic display text: strings quoted, newlines as ⏎, long text cut in the middle.

    ``width`` counts terminal columns (a Chinese character takes two); a multi-line string
    gets its line count, e.g. ``"01 项目笔记…的配对域。"〔20 行〕``.
    """
    if value is ABSENT:
        return "—"
    if not isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    flat = value.replace("\n", "⏎")
    suffix = f"〔{value.count(chr(10)) + 1} 行〕" if "\n" in value else ""
    return f'"{shorten(flat, width, tail=min(12, width // 3))}"{suffix}'
