"""The colour legend: every kind of field and every chain step, as swatches (lesson 00).

One colour, one meaning: a kind's colour is never a step's (``glossary.STEP_COLOURS``), and
the legend shows each colour as a swatch, never as its hex code, which tells a learner nothing.
Verdicts (``glossary.STATUSES``) follow as badges: mark, word and their own colours.
"""

from __future__ import annotations

from dataclasses import dataclass

from lessons_lib.core.display import Displayable
from lessons_lib.core.glossary import KINDS, STATUSES, STEP_COLOURS, STEP_ZH, STEPS
from lessons_lib.core.htmltable import Cell, code, html_table, markup, status_badge


def _swatch(colour: str) -> str:
    return (
        f'<span style="display:inline-block;width:2.2em;height:1em;background:{colour};'
        'border:1px solid #00000033;border-radius:3px;vertical-align:middle"></span>'
    )


@dataclass(frozen=True)
class ColourLegend(Displayable):
    """The kinds of field (field trees, tables) and the chain steps (diagrams), one swatch each."""

    def rows(self) -> list[tuple[str, str, str, str, str]]:
        """(colour, group, English, 中文, 含义) for each kind, then each step."""
        rows = [(s.colour, "种类", str(k), s.zh, s.meaning_zh) for k, s in KINDS.items()]
        for i, step in enumerate(STEPS, 1):
            rows.append(
                (STEP_COLOURS[step], "步骤", str(step), STEP_ZH[step], f"链路第 {i} 步（只在图里用这个颜色）")
            )
        return rows

    def text(self) -> str:
        lines = [f"{group}  {zh}（{name}）：{meaning}" for _, group, name, zh, meaning in self.rows()]
        verdicts = " ".join(f"{s.mark} {s.zh}" for s in STATUSES.values())
        return "\n".join([*lines, f"结论  核对结论另用一组颜色，总带着符号和文字：{verdicts}"])

    def html(self) -> str:
        body = [
            (markup(_swatch(colour)), code(name), Cell(zh, nowrap=True), meaning)
            for colour, _, name, zh, meaning in self.rows()
        ]
        verdicts = " ".join(status_badge(s) for s in STATUSES)
        note = f"<p>核对结论另用一组颜色，总带着符号和文字：{verdicts}</p>"
        return html_table(("颜色", "English", "中文", "含义"), body) + note


def colour_legend() -> ColourLegend:
    """The course's colour legend as swatches (lesson 00)."""
    return ColourLegend()
