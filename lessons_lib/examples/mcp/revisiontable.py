"""The same ``tools/call`` under three MCP revisions, field by field (lesson 43).

One row per leaf field of the request and of its answer, one column per revision: the value,
or — where that revision has no such field. Each row carries the field's kind (规则, 值, 结果,
标识, 封装) and a verdict: 不变 (the same in all three), 改变, or 新增/缺少. The lesson's point
reads off the table: the value and the result are the same in every revision, only envelopes
and identifiers come and go.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from lessons_lib.core.display import Displayable
from lessons_lib.core.fieldkinds.kinds import walk
from lessons_lib.core.fieldpath import format_path
from lessons_lib.core.glossary import KINDS, Kind, kind_short
from lessons_lib.core.htmltable import CellValue, breakable_code, html_table
from lessons_lib.core.jsonvalue import JSON, JSONObject
from lessons_lib.core.messages import LANGUAGES, t, text_in
from lessons_lib.views.changetable import ABSENT, abbreviate, same_value
from lessons_lib.views.textwidth import text_table

SAME: Final = "same"
CHANGED: Final = "changed"
PARTIAL: Final = "partial"
"""The verdicts, as keys; shown in the current language (``不变`` / ``same``...)."""
VERDICTS: Final = (SAME, CHANGED, PARTIAL)


def verdict_word(verdict: str) -> str:
    """A verdict as shown in the table, in the current language."""
    return t(f"revisiontable.verdict.{verdict}")


def _verdict_key(verdict: str) -> str:
    """The key of a verdict given as a key or as its word in either language (``"不变"``)."""
    for key in VERDICTS:
        if verdict == key or verdict in (text_in(lang, f"revisiontable.verdict.{key}") for lang in LANGUAGES):
            return key
    return verdict


def _headers(revisions: Sequence[str]) -> list[str]:
    heads = [t(f"revisiontable.head.{h}") for h in ("message", "field", "kind")]
    return [*heads, *revisions, t("revisiontable.head.verdict")]


class _Run(Protocol):
    revision: str

    def frame(self, label: str) -> JSONObject: ...

    @property
    def call(self) -> JSONObject: ...

    @property
    def answer(self) -> JSONObject: ...


@dataclass(frozen=True)
class RevisionRow:
    """One field across the revisions."""

    message: str  # "declaration", "request" or "answer" (shown in the current language)
    path: str
    kind: Kind
    values: tuple[object, ...]
    """The field's JSON value in each revision, or ``ABSENT`` where that revision has no such field."""
    verdict: str


def _leaves(message: JSONObject, mtype: str) -> dict[str, tuple[Kind, JSON]]:
    found: dict[str, tuple[Kind, JSON]] = {}
    for f in walk(message, mtype):
        if f.path and not (isinstance(f.value, dict | list) and f.value):
            found[format_path(f.path)] = (f.kind, f.value)
    return found


class RevisionTable(Displayable):
    """Rows of :class:`RevisionRow`; text and HTML views with the kinds' colours (lesson 43)."""

    def __init__(self, revisions: Sequence[str], rows: Sequence[RevisionRow]) -> None:
        self.revisions, self.rows = tuple(revisions), list(rows)

    def where(self, verdict: str) -> list[RevisionRow]:
        """The rows with this verdict: a key (``SAME``) or its word in either language (``"不变"``)."""
        key = _verdict_key(verdict)
        return [r for r in self.rows if r.verdict == key]

    def kinds_with(self, verdict: str) -> set[str]:
        """Which kinds have at least one row with this verdict."""
        return {r.kind for r in self.where(verdict)}

    def text(self) -> str:
        body = [
            [
                t(f"revisiontable.message.{r.message}"),
                r.path,
                kind_short(r.kind),
                *(abbreviate(v, 28) for v in r.values),
                verdict_word(r.verdict),
            ]
            for r in self.rows
        ]
        return text_table(_headers(self.revisions), body)

    def html(self) -> str:
        body: list[list[CellValue]] = []
        for r in self.rows:
            # long paths and values may break anywhere, so the table fits a 1,000 px window
            values: list[CellValue] = [breakable_code(abbreviate(v, 28)) for v in r.values]
            body.append(
                [
                    t(f"revisiontable.message.{r.message}"),
                    breakable_code(r.path),
                    kind_short(r.kind),
                    *values,
                    verdict_word(r.verdict),
                ]
            )
        bars = [f"border-left:6px solid {KINDS[r.kind].colour}" for r in self.rows]
        return html_table(
            _headers(self.revisions),
            body,
            nowrap=(0, 2),
            style="border-collapse:collapse;font-size:12px",
            row_styles=bars,
        )

    def repr_args(self) -> str:
        return f"{', '.join(self.revisions)}, rows={len(self.rows)}"


def revision_table(runs: Mapping[str, _Run]) -> RevisionTable:
    """Compare the ``tools/call`` request and its answer of each run (lesson 43)."""
    revisions = list(runs)
    rows: list[RevisionRow] = []
    for message, pick, mtype in (
        ("declaration", lambda r: r.frame("tools/list result"), "mcp_response/tools/list"),
        ("request", lambda r: r.call, "mcp_request/tools/call"),
        ("answer", lambda r: r.answer, "mcp_response/tools/call"),
    ):
        per = [_leaves(pick(runs[rev]), mtype) for rev in revisions]
        paths = list(dict.fromkeys(p for leaves in per for p in leaves))
        for path in paths:
            values = tuple(leaves[path][1] if path in leaves else ABSENT for leaves in per)
            kind = next(leaves[path][0] for leaves in per if path in leaves)
            if any(v is ABSENT for v in values):
                verdict = PARTIAL
            elif all(same_value(values[0], v) for v in values[1:]):
                verdict = SAME
            else:
                verdict = CHANGED
            rows.append(RevisionRow(message, path, kind, values, verdict))
    return RevisionTable(revisions, rows)
