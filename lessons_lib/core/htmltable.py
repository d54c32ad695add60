"""One HTML table for every home-made table of the course, read left to right. Lesson 07.

JupyterLab's stylesheet right-aligns table cells (``.jp-RenderedHTMLCommon td {text-align:
right}``) and its output area breaks ``<pre>`` text anywhere (``word-break: break-all``). An
inline style beats a stylesheet, so every ``th`` and ``td`` made here carries its own
``text-align:left``, top alignment and wrapping rules: text wraps between words (and between
Chinese characters, as Chinese does), never inside an English word; short identifiers and
codes never wrap, and long paths, aliases and JSON (``soft_breaks``) wrap only after
``, : . / = _ -``, so a table fits the 568 px output column of a 1,000 px window.
A verdict cell carries its status (``glossary.STATUSES``): a mark and a word on a pale
background in dark ink, so colour is never the only signal. No library renders the course's
own objects, so this is written by hand; standard library only.
"""

from __future__ import annotations

import html
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

from lessons_lib.core.glossary import STATUSES, Status, status_word
from lessons_lib.core.messages import LANGUAGES, text_in

CELL_STYLE: Final = (
    "text-align:left;vertical-align:top;padding:.2em .6em;word-break:normal;overflow-wrap:normal"
)
"""Every cell's inline style: left, top, whole words (JupyterLab would right-align it)."""
NOWRAP: Final = "white-space:nowrap"
PRE_STYLE: Final = "white-space:pre-wrap;word-break:normal;overflow-wrap:normal;overflow-x:auto"
"""For a ``<pre>`` in an HTML output: wrap at spaces only (JupyterLab's own ``pre`` breaks words)."""
_VERDICT_KEYS: Final[dict[str, Status]] = {
    "status.pass": "pass",
    "htmltable.verdict.all_pass": "pass",
    "status.fail": "fail",
    "htmltable.verdict.not_passed": "fail",
    "htmltable.verdict.broken": "fail",
    "status.unchecked": "unchecked",
}
VERDICT_WORDS: Final[dict[str, Status]] = {
    "PASS": "pass",
    "FAIL": "fail",
    **{text_in(lang, key): state for key, state in _VERDICT_KEYS.items() for lang in LANGUAGES},
}
"""A plain cell whose whole text is one of these words is shown as that verdict: PASS/FAIL and the
catalogue's verdict words in both languages (通过/pass, 全部通过/all passed, 不通过/fail, 未通过/not
passed, 断开/broken, 未检查/not checked), so a table in either edition marks them the same way."""


@dataclass(frozen=True)
class Cell:
    """One cell: plain text (escaped) or trusted markup, how it wraps, and its verdict if any."""

    text: str = ""
    markup: str | None = None
    nowrap: bool = False
    code: bool = False
    status: Status | None = None
    style: str = ""
    title: str = ""

    def inner(self) -> str:
        body = self.markup if self.markup is not None else html.escape(self.text)
        if self.code:
            body = f"<code>{body}</code>"
        if self.status is not None:
            body = f"{STATUSES[self.status].mark} {body}" if body else STATUSES[self.status].mark
        return body

    def render(self, tag: str = "td") -> str:
        parts = [CELL_STYLE]
        if self.nowrap:
            parts.append(NOWRAP)
        if self.status is not None:
            parts.append(status_style(self.status))
        if self.style:
            parts.append(self.style)
        attrs = f' style="{";".join(parts)}"'
        if self.status is not None:
            attrs += f' data-status="{self.status}"'
        if self.title:
            attrs += f' title="{html.escape(self.title)}"'
        return f"<{tag}{attrs}>{self.inner()}</{tag}>"


CellValue: TypeAlias = "Cell | str | int | float | bool | None"
"""What a row may hold: a :class:`Cell`, or a plain value shown as escaped text."""


def code(text: object, *, nowrap: bool = True, title: str = "") -> Cell:
    """An identifier, path or JSON snippet: in ``<code>``, on one line unless told otherwise."""
    return Cell(str(text), nowrap=nowrap, code=True, title=title)


_BREAK_AFTER: Final = re.compile(r"(__|[,:./=_-])")


def soft_breaks(text: object) -> str:
    """``text`` escaped, with a ``<wbr>`` after every ``, : . / = _ -`` (once after ``__``): a long
    path, alias or JSON snippet may wrap there, never inside a word (so tables fit 1,000 px)."""
    return _BREAK_AFTER.sub(r"\1<wbr>", html.escape(str(text)))


def breakable_code(text: object) -> Cell:
    """A long JSON snippet, path or alias in ``<code>`` that may wrap after ``, : . / = _ -`` (a
    ``<wbr>``), never inside a word: so a table of them fits a 1,000 px window."""
    return Cell(markup=soft_breaks(text), code=True)


def markup(fragment: str, *, nowrap: bool = False, style: str = "") -> Cell:
    """A cell whose content is already HTML (every user text in it escaped by the caller)."""
    return Cell(markup=fragment, nowrap=nowrap, style=style)


def status(state: Status, word: object = None, *, nowrap: bool = True) -> Cell:
    """A verdict cell: the status's mark and ``word`` (its own word in the current language by default)."""
    return Cell(status_word(state) if word is None else str(word), nowrap=nowrap, status=state)


def status_style(state: Status) -> str:
    """The inline colours of a verdict: pale background, dark ink."""
    look = STATUSES[state]
    return f"background:{look.background};color:{look.ink}"


def status_badge(state: Status, word: object = None) -> str:
    """A verdict inside running text: mark and word on the status colours."""
    look = STATUSES[state]
    text = html.escape(status_word(state) if word is None else str(word))
    return (
        f'<span data-status="{state}" style="{status_style(state)};border-radius:3px;'
        f'padding:0 .35em;white-space:nowrap">{look.mark} {text}</span>'
    )


def verdict_box(text: str, state: Status) -> str:
    """A checker's verdict (exercises, quizzes, the grader): text in a box with the status colours."""
    look = STATUSES[state]
    body = html.escape(text).replace("\n", "<br>")
    return (
        f'<div data-status="{state}" style="border-left:4px solid {look.ink};background:{look.background};'
        f'padding:4px 8px;text-align:left">{body}</div>'
    )


def pre(text: str) -> str:
    """Preformatted text (JSON, a file's lines) that wraps at spaces only, never inside a word."""
    return f'<pre style="{PRE_STYLE}">{html.escape(text)}</pre>'


def as_cell(value: CellValue, *, nowrap: bool = False, as_code: bool = False) -> Cell:
    """A plain value becomes a text (or code) cell, a verdict word a verdict; a :class:`Cell` stays."""
    if isinstance(value, Cell):
        return value
    text = "" if value is None else str(value)
    if text in VERDICT_WORDS:
        return status(VERDICT_WORDS[text], text)
    return Cell(text, nowrap=nowrap, code=as_code)


def html_table(
    header: Sequence[CellValue],
    rows: Sequence[Sequence[CellValue]],
    *,
    nowrap: Collection[int] = (),
    code_columns: Collection[int] = (),
    style: str = "border-collapse:collapse",
    row_styles: Sequence[str] = (),
    css_class: str = "",
    head_nowrap: bool = False,
) -> str:
    """An HTML table whose every ``th`` and ``td`` is left-aligned inline; every text escaped.

    ``nowrap`` and ``code_columns`` name the columns (0-based) of plain values that stay on one
    line or show as code; ``row_styles[i]`` styles row ``i`` (e.g. a kind's colour bar).
    """
    head = "".join(as_cell(h, nowrap=head_nowrap).render("th") for h in header)
    body = []
    for i, row in enumerate(rows):
        cells = "".join(
            as_cell(c, nowrap=n in nowrap, as_code=n in code_columns).render() for n, c in enumerate(row)
        )
        extra = row_styles[i] if i < len(row_styles) and row_styles[i] else ""
        body.append(f'<tr style="{extra}">{cells}</tr>' if extra else f"<tr>{cells}</tr>")
    cls = f' class="{css_class}"' if css_class else ""
    return f'<table{cls} style="{style}"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'
