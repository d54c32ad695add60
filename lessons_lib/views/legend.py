"""The colour legend: every kind of field and every chain step, as swatches (lesson 00).

One colour, one meaning: a kind's colour is never a step's (``glossary.STEP_COLOURS``), and
the legend shows each colour as a swatch, never as its hex code, which tells a learner nothing.
Verdicts (``glossary.STATUSES``) follow as badges: mark, word and their own colours. The same
colours mark each field's kind in field trees and side-by-side views (:func:`kind_chip`), under a
one-line legend of the kinds (:func:`legend_html`, :func:`legend_text`; lesson 03).
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from lessons_lib.core.display import Displayable
from lessons_lib.core.glossary import KINDS, STATUSES, STEP_COLOURS, STEPS, kind_short, status_word, step_name
from lessons_lib.core.htmltable import Cell, code, html_table, markup, status_badge
from lessons_lib.core.messages import t


def _swatch(colour: str) -> str:
    return (
        f'<span style="display:inline-block;width:2.2em;height:1em;background:{colour};'
        'border:1px solid #00000033;border-radius:3px;vertical-align:middle"></span>'
    )


@dataclass(frozen=True)
class ColourLegend(Displayable):
    """The kinds of field (field trees, tables) and the chain steps (diagrams), one swatch each."""

    def rows(self) -> list[tuple[str, str, str, str, str]]:
        """(colour, group, identifier, name, meaning) for each kind, then each step (current language)."""
        rows = [(s.colour, t("legend.kind"), str(k), s.name, s.meaning) for k, s in KINDS.items()]
        for i, step in enumerate(STEPS, 1):
            rows.append(
                (STEP_COLOURS[step], t("legend.step"), str(step), step_name(step), t("legend.step_n", i=i))
            )
        return rows

    def text(self) -> str:
        lines = [
            t("legend.row", group=group, name=local, id=name, meaning=meaning)
            for _, group, name, local, meaning in self.rows()
        ]
        verdicts = " ".join(f"{s.mark} {status_word(k)}" for k, s in STATUSES.items())
        return "\n".join([*lines, t("legend.verdicts_line", verdicts=verdicts)])

    def html(self) -> str:
        body = [
            (markup(_swatch(colour)), code(name), Cell(local, nowrap=True), meaning)
            for colour, _, name, local, meaning in self.rows()
        ]
        verdicts = " ".join(status_badge(s, status_word(s)) for s in STATUSES)
        note = f"<p>{t('legend.verdicts', verdicts=verdicts)}</p>"
        headers = (t("legend.colour"), "English", t("legend.name"), t("legend.meaning"))
        return html_table(headers, body) + note


def colour_legend() -> ColourLegend:
    """The course's colour legend as swatches (lesson 00)."""
    return ColourLegend()


def _named(name: str, identifier: str) -> str:
    """``值 value`` in Chinese, ``value`` in English: the identifier follows a name that differs."""
    return name if name == identifier else f"{name} {identifier}"


def ink(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#fff"


def kind_chip(kind: str, label: str) -> str:
    """``label`` on the colour of field kind ``kind`` (HTML): how field trees and side by side mark it."""
    colour = KINDS[kind].colour  # type: ignore[index]
    return (
        f'<span style="background:{colour};color:{ink(colour)};border-radius:3px;padding:0 .35em;'
        f'font-size:85%;white-space:nowrap">{html.escape(label)}</span>'
    )


def legend_html() -> str:
    """The kinds' one-line legend above a field tree: each kind's chip and meaning (HTML)."""
    chips = " ".join(
        f'{kind_chip(k, s.name)} <span style="color:#555">{html.escape(s.meaning)}</span>'
        for k, s in KINDS.items()
    )
    return f'<div style="margin:.2em 0 .5em 0;line-height:1.9">{t("tree.legend", items=chips)}</div>'


def legend_text() -> str:
    """The kinds' one-line legend above a field tree in a terminal."""
    items = [_named(kind_short(k), k) for k in KINDS] + [_named(t("tree.unclassified"), "unclassified")]
    return t("tree.legend", items=" · ".join(items))
