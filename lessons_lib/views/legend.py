"""The colour legend: every kind of field and every chain step, as swatches (lesson 00).

One colour, one meaning: a kind's colour is never a step's (``glossary.STEP_COLOURS``), and
the legend shows each colour as a swatch, never as its hex code, which tells a learner nothing.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from lessons_lib.core.display import Displayable
from lessons_lib.core.glossary import KINDS, STEP_COLOURS, STEP_ZH, STEPS

_ROW = '<tr><td style="text-align:left">{}</td><td style="text-align:left">{}</td>' + (
    '<td style="text-align:left">{}</td><td style="text-align:left">{}</td></tr>'
)


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
        return "\n".join(f"{group}  {zh}（{name}）：{meaning}" for _, group, name, zh, meaning in self.rows())

    def html(self) -> str:
        head = _ROW.format("颜色", "English", "中文", "含义").replace("td", "th")
        body = "".join(
            _ROW.format(_swatch(colour), name, html.escape(zh), html.escape(meaning))
            for colour, _, name, zh, meaning in self.rows()
        )
        return f'<table style="text-align:left"><thead>{head}</thead><tbody>{body}</tbody></table>'


def colour_legend() -> ColourLegend:
    """The course's colour legend as swatches (lesson 00)."""
    return ColourLegend()
