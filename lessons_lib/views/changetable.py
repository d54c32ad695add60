"""The change table of lesson 09: one row per field of two runs, and deterministic text helpers.

``ChangeTable`` holds the rows (``.df`` gives a pandas DataFrame), filters them (``changed()``,
``key()``), counts them by message and kind (``counts()``, from ``changecounts``) and displays
them as a CJK-aligned text table and as HTML. Every view keeps the whole comparison it was cut
from, so its caption names what was compared and how a part relates to the whole. Long values
are cut in the middle the same way every time (``abbreviate``). Built by
``lessons_lib.examples.files.whatif``.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from lessons_lib.core.display import Displayable
from lessons_lib.core.glossary import KINDS, Kind, Step, kind_short
from lessons_lib.core.htmltable import Cell, breakable_code, html_table, soft_breaks
from lessons_lib.core.messages import t
from lessons_lib.views.changecounts import ChangeCounts, MessageRef, scope_text
from lessons_lib.views.textwidth import shorten, text_table, wrapped

if TYPE_CHECKING:
    import pandas as pd


class _Absent:
    """Marks a field that one of the two runs does not have."""

    def __repr__(self) -> str:
        return "—"


ABSENT: Final = _Absent()
ALL_VIEW: Final = "all"
KEY_VIEW: Final = "key"
CHANGED_VIEW: Final = "changed"
"""The three views of a table; :func:`view_name` names one in the current language (``全部字段``)."""


def view_name(view: str) -> str:
    """A view's name in the current language (``关键字段`` / ``key fields``); another text as it is."""
    return t(f"changetable.view_{view}") if view in (ALL_VIEW, KEY_VIEW, CHANGED_VIEW) else view


def run_labels() -> tuple[str, str]:
    """The default names of the two runs compared (``改前``, ``改后``), in the current language."""
    return t("changetable.before"), t("changetable.after")


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


TEXT_VALUE_WIDTH: Final = 24
"""Columns a before/after value takes in the text/plain fallback (the HTML keeps 52)."""


class ChangeTable(Displayable):
    """One row per field of every message in two runs (``.df`` is a pandas DataFrame). Lesson 09.

    ``messages`` names the compared messages in chain order; ``whole`` is the full comparison
    a filtered view (``changed()``, ``key()``) was cut from, so the caption can say so.
    """

    COLUMNS: Final = ("step", "message", "path", "kind", "before", "after", "changed")

    def __init__(
        self,
        rows: Sequence[ChangeRow],
        labels: tuple[str, str] | None = None,
        view: str = ALL_VIEW,
        *,
        messages: Sequence[MessageRef] = (),
        whole: Sequence[ChangeRow] | None = None,
        scope: bool = True,
    ) -> None:
        self.rows = list(rows)
        self.scope = scope
        self.labels = run_labels() if labels is None else labels
        self.view = view
        known = {m.name for m in messages}
        extra = [MessageRef(n, n) for n in dict.fromkeys(r.message for r in self.rows) if n not in known]
        self.messages = [*messages, *extra]
        self.whole = self.rows if whole is None else list(whole)

    def _part(self, rows: list[ChangeRow], view: str, scope: bool) -> ChangeTable:
        return ChangeTable(rows, self.labels, view, messages=self.messages, whole=self.whole, scope=scope)

    # -------------------------------------------------------------- data
    @property
    def df(self) -> pd.DataFrame:
        """The table as a DataFrame (values unabbreviated; a missing field is ``ABSENT``)."""
        import pandas as pd

        return pd.DataFrame(
            [[getattr(r, c) for c in self.COLUMNS] for r in self.rows], columns=list(self.COLUMNS)
        )

    def changed(self, *, scope: bool = True) -> ChangeTable:
        """Only the rows whose value differs between the two runs; ``scope=False`` shortens the
        caption to "same scope as above" (lesson 09 defines the scope once)."""
        return self._part([r for r in self.rows if r.changed], CHANGED_VIEW, scope)

    def key(self, *, scope: bool = True) -> ChangeTable:
        """Only the key fields of the lesson (task, rule, alias, values, result, answer)."""
        return self._part([r for r in self.rows if r.note], KEY_VIEW, scope)

    def counts(self, *, scope: bool = True) -> ChangeCounts:
        """The whole comparison counted by message and kind (the parts add up to the total)."""
        return ChangeCounts(self.whole, self.messages, self.labels, scope=scope)

    def message_ref(self, name: str) -> MessageRef:
        return next(m for m in self.messages if m.name == name)

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
        """What this table shows, counted against the whole comparison."""
        pair = f"{self.labels[0]} → {self.labels[1]}"
        total, changed = len(self.whole), sum(r.changed for r in self.whole)
        if self.view == CHANGED_VIEW:
            return t("changetable.title_changed", view=view_name(CHANGED_VIEW), pair=pair, total=total,
                     changed=changed)  # fmt: skip
        if self.view != KEY_VIEW:
            return t(
                "changetable.title_all", view=view_name(self.view), pair=pair, total=total, changed=changed
            )
        shown = sum(r.changed for r in self.rows)
        title = t("changetable.title_key", view=view_name(KEY_VIEW), pair=pair, total=total, n=len(self.rows),
                  shown=shown)  # fmt: skip
        missing = [r for r in self.whole if r.changed and r not in self.rows]
        if missing:
            where = t("sep.list").join(
                self.message_ref(n).short() for n in dict.fromkeys(r.message for r in missing)
            )
            title += t("changetable.title_missing", n=len(missing), where=where, view=view_name(CHANGED_VIEW))
        return title

    def caption(self) -> str:
        """The one definition of the comparison (``changecounts.scope_text``), or its short form."""
        return scope_text(self.messages, self.whole, full=self.scope)

    def _words(self) -> dict[str, str]:
        """The words every row repeats, looked up once per drawing: kind names, changed / same."""
        words = {str(k): kind_short(k) for k in KINDS}
        return words | {"changed": t("changetable.changed"), "same": t("changetable.same")}

    def _cells(self, r: ChangeRow, words: dict[str, str], value_width: int = 52) -> list[str]:
        note = [r.note] if self.view == KEY_VIEW else []
        return [
            self.message_ref(r.message).short(),
            r.path,
            *note,
            words[r.kind],
            abbreviate(r.before, value_width),
            abbreviate(r.after, value_width),
            words["changed" if r.changed else "same"],
        ]

    def headers(self) -> list[str]:
        note = [t("changetable.col_note")] if self.view == KEY_VIEW else []
        head = [t("changetable.col_message"), t("changetable.col_path"), *note, t("changetable.col_kind")]
        return [*head, self.labels[0], self.labels[1], t("changetable.col_change")]

    def text(self) -> str:
        words = self._words()
        rows = [self._cells(r, words, TEXT_VALUE_WIDTH) for r in self.rows]
        table = text_table(self.headers(), rows)
        return f"{wrapped(self.title())}\n{wrapped(self.caption())}\n{table}"

    def html(self) -> str:
        body = []
        wrap = self.view == KEY_VIEW  # the note (what to look at) wraps; the rest stays on one line
        words = self._words()
        for r in self.rows:
            *lead, kind, before, after, verdict = self._cells(r, words)
            bar = f"border-left:4px solid {KINDS[r.kind].colour}"
            body.append(
                [
                    Cell(lead[0]),  # the message and its number: Chinese, may wrap between characters
                    breakable_code(lead[1]),  # a long path wraps after . or _ (so it fits a 1,000 px window)
                    *(Cell(x, nowrap=not wrap) for x in lead[2:]),
                    Cell(kind, nowrap=True, style=bar),
                    *(
                        Cell(markup=soft_breaks(c), code=True, title=full_text(v), style="max-width:16em")
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
        return (
            f'<div class="lessons-whatif"><p><b>{html.escape(self.title())}</b></p>'
            f"<p>{html.escape(self.caption())}</p>{table}</div>"
        )

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
    suffix = t("changetable.lines", n=value.count(chr(10)) + 1) if "\n" in value else ""
    return f'"{shorten(flat, width, tail=min(12, width // 3))}"{suffix}'
