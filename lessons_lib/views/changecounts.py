"""What a what-if compares and how many of its fields changed, by message and by kind. Lesson 09.

One definition of the count for every cell of lessons 09 and 10: a change table compares every
leaf field of the same messages of two runs. The messages are numbered as lesson 05 numbers
the trace (from 1, in order); the three items the application derives from them (the parsed
``arguments``, the lines read, the answer) carry the number of the message they are read from.
:func:`scope_text` says this in one sentence that every caption quotes, and
:class:`ChangeCounts` splits the same total by message and by kind, so the parts add up.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from lessons_lib.core.display import Displayable
from lessons_lib.core.glossary import KINDS, Kind, kind_short
from lessons_lib.core.htmltable import html_table
from lessons_lib.core.messages import language, t
from lessons_lib.views.textwidth import text_table, wrapped


@dataclass(frozen=True)
class MessageRef:
    """One compared message: its name, what it is, its number in the trace (or its source's)."""

    name: str
    about: str
    number: int | None = None
    """Position in the trace, from 1 (lesson 05's numbering); None for a derived item."""
    source: int | None = None
    """For a derived item: the number of the message it is read from."""

    def label(self) -> str:
        """``第 6 条消息 request_1（第一次模型请求）`` or ``“读出的行”（由第 9 条消息推出）``."""
        if self.number is not None:
            return t("counts.ref.label", number=self.number, name=self.name, about=self.about)
        return t("counts.ref.derived", name=self.name, source=self.source)

    def short(self) -> str:
        """The table cell: ``request_1（第 6 条）`` or ``读出的行 ← 第 9 条``."""
        if self.number is not None:
            return t("counts.ref.short", name=self.name, number=self.number)
        return t("counts.ref.short_derived", name=self.name, source=self.source)


class _Row(Protocol):
    @property
    def message(self) -> str: ...
    @property
    def kind(self) -> Kind: ...
    @property
    def changed(self) -> bool: ...


def _numbers(numbers: Sequence[int]) -> str:
    """``5–11`` for a run of numbers, else ``5、7、9``."""
    ns = sorted(numbers)
    if len(ns) > 2 and ns == list(range(ns[0], ns[-1] + 1)):
        return f"{ns[0]}–{ns[-1]}"
    return t("sep.list").join(map(str, ns))


def _spaced(text: str) -> str:
    """A space before a Latin word after Chinese (``是 tools/list``); always one in English."""
    return f" {text}" if text[:1].isascii() or language() == "en" else text


def scope_text(messages: Sequence[MessageRef], rows: Sequence[_Row], *, full: bool = True) -> str:
    """The one sentence that defines the comparison (which messages, which fields, how many);
    ``full=False``: "the same scope as above" with the two numbers only (lesson 09 says it once)."""
    if not full:
        return t("p1b.scope_as_above", total=len(rows), changed=sum(r.changed for r in rows))
    real = [m for m in messages if m.number is not None]
    derived = [m for m in messages if m.number is None]
    parts = []
    if real:
        numbers = _numbers([m.number for m in real if m.number])
        first, last = _spaced(real[0].about), _spaced(real[-1].about)
        parts.append(t("counts.scope.real", numbers=numbers, count=len(real), first=first, last=last))
    if derived:
        names = t("sep.list").join(m.name for m in derived)
        parts.append(t("counts.scope.derived", count=len(derived), names=names))
    skipped = ""
    if real and real[0].number and real[0].number > 1:
        skipped = t("counts.scope.skipped", before=_numbers(list(range(1, real[0].number))))
    changed = sum(r.changed for r in rows)
    return t("counts.scope", parts=t("sep.and").join(parts), total=len(rows), changed=changed) + skipped


class ChangeCounts(Displayable):
    """Fields compared and changed, one row per message, one column per kind. Lesson 09.

    Every cell reads ``changed/compared``; the rows and the columns add up to the same total that
    the change tables' captions give (``compare_head(20, 5).counts()``).
    """

    def __init__(
        self,
        rows: Sequence[_Row],
        messages: Sequence[MessageRef],
        labels: tuple[str, str],
        *,
        scope: bool = True,
    ) -> None:
        self.rows = list(rows)
        self.scope = scope
        self.messages = list(messages)
        self.labels = labels
        self.kinds: list[Kind] = [k for k in KINDS if any(r.kind == k for r in self.rows)]

    def count(self, message: str | None = None, kind: Kind | None = None) -> tuple[int, int]:
        """(changed, compared) over the rows of one message and/or one kind (None: all)."""
        picked = [
            r
            for r in self.rows
            if (message is None or r.message == message) and (kind is None or r.kind == kind)
        ]
        return sum(r.changed for r in picked), len(picked)

    def changed_groups(self) -> list[tuple[MessageRef, list[tuple[Kind, int]]]]:
        """Each message with a change, in chain order, with (kind, how many changed) per kind."""
        groups = []
        for m in self.messages:
            kinds = [(k, n) for k in self.kinds if (n := self.count(m.name, k)[0])]
            if kinds:
                groups.append((m, kinds))
        return groups

    def changed_line(self) -> str:
        """The changed fields by message and kind, e.g. ``message 6 request_1 (…): 1 value``."""
        changed, total = self.count()
        rule_changed, rules = self.count(kind="rule")
        rule = t("counts.rule", total=rules, changed=rule_changed)
        if not changed:
            return t("counts.none_changed", total=total, rule=rule)
        groups = t("sep.semicolon").join(
            t(
                "counts.group",
                message=m.label(),
                kinds=t("sep.list").join(t("counts.kind_n", kind=kind_short(k), n=n) for k, n in kinds),
            )
            for m, kinds in self.changed_groups()
        )
        return t("counts.changed", total=total, changed=changed, groups=groups, rule=rule)

    def kind_line(self, kind: Kind) -> str:
        """Where the fields of one kind sit and how many of them changed (lessons 09, 10)."""
        changed, n = self.count(kind=kind)
        total = len(self.rows)
        where = t("sep.list").join(
            t("counts.where_item", message=m.short(), n=self.count(m.name, kind)[1])
            for m in self.messages
            if self.count(m.name, kind)[1]
        )
        where = where or t("counts.where_none")
        return t("counts.kind_line", kind=kind_short(kind), total=total, n=n, where=where, changed=changed)

    def title(self) -> str:
        changed, total = self.count()
        before, after = self.labels
        return t("counts.title", before=before, after=after, total=total, changed=changed)

    def headers(self) -> list[str]:
        return [t("counts.message"), *(kind_short(k) for k in self.kinds), t("counts.total")]

    def cells(self) -> list[list[str]]:
        def cell(message: str | None, kind: Kind | None) -> str:
            changed, n = self.count(message, kind)
            return f"{changed}/{n}" if n else "—"

        body = [
            [m.short(), *(cell(m.name, k) for k in self.kinds), cell(m.name, None)] for m in self.messages
        ]
        return [*body, [t("counts.total"), *(cell(None, k) for k in self.kinds), cell(None, None)]]

    def caption(self) -> str:
        return scope_text(self.messages, self.rows, full=self.scope) + t("counts.caption")

    def text(self) -> str:
        table = text_table(self.headers(), self.cells())
        prose = (self.title(), self.caption(), table, self.changed_line(), self.kind_line("rule"))
        return "\n".join(p if p is table else wrapped(p) for p in prose) + "\n"

    def html(self) -> str:
        cells = self.cells()
        bold = ["font-weight:bold" if i == len(cells) - 1 else "" for i in range(len(cells))]
        table = html_table(
            self.headers(),
            cells,
            nowrap=range(1, len(self.kinds) + 2),
            style="font-size:13px;border-collapse:collapse",
            row_styles=bold,
            head_nowrap=True,
        )
        return (
            f'<div class="lessons-counts"><p><b>{html.escape(self.title())}</b></p>'
            f"<p>{html.escape(self.caption())}</p>{table}<p>{html.escape(self.changed_line())}</p>"
            f"<p>{html.escape(self.kind_line('rule'))}</p></div>"
        )

    def repr_args(self) -> str:
        changed, total = self.count()
        return f"{self.labels[0]!r} -> {self.labels[1]!r}, fields={total}, changed={changed}"


__all__ = ["ChangeCounts", "MessageRef", "scope_text"]
