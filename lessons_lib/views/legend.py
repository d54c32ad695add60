"""The colour legend: every kind of field and every chain step, as swatches (lesson 00).

One colour, one meaning: a kind's colour is never a step's (``glossary.STEP_COLOURS``), and
the legend shows each colour as a swatch, never as its hex code, which tells a learner nothing.
Verdicts (``glossary.STATUSES``) follow as badges: mark, word and their own colours.
"""

from __future__ import annotations

from dataclasses import dataclass

from lessons_lib.core.display import Displayable
from lessons_lib.core.glossary import KINDS, STATUSES, STEP_COLOURS, STEPS, status_word, step_name
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
