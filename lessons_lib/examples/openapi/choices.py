"""The MCP chapter's choice table (direct function, OpenAPI, MCP) with this course's measurements (lesson 40).

The first columns restate the MCP chapter's advice in our own words; the last ones are measured from
one run of each way (:mod:`lessons_lib.examples.openapi.threeways`) on the same task.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from lessons_lib.core.display import Displayable
from lessons_lib.core.htmltable import html_table
from lessons_lib.core.messages import t
from lessons_lib.views.textwidth import text_table

if TYPE_CHECKING:
    from lessons_lib.examples.openapi.threeways import WayRun

ADVICE: Final[dict[str, tuple[str, str, str]]] = {
    way: (f"waychoices.{way}.fits", f"waychoices.{way}.declared", f"waychoices.{way}.trade")
    for way in ("function", "openapi", "mcp")
}
"""Way -> catalogue keys of (fits, where the declarations come from, gains and costs)."""
HEADER_KEYS: Final = ("way", "fits", "declared", "trade", "hops", "chars", "frames", "paired")


def headers() -> tuple[str, ...]:
    """The table's column names in the current language."""
    return tuple(t(f"waychoices.head.{k}") for k in HEADER_KEYS)


@dataclass(frozen=True, repr=False)
class ChoiceTable(Displayable):
    """One row per way; text and HTML views (lesson 40)."""

    rows: tuple[tuple[str, ...], ...]

    def text(self) -> str:
        return text_table(headers(), self.rows)

    def html(self) -> str:
        return html_table(headers(), self.rows, nowrap=(0,))

    def repr_args(self) -> str:
        return f"rows={len(self.rows)}"


def choice_table(runs: Mapping[str, WayRun]) -> ChoiceTable:
    """The table for runs of :func:`lessons_lib.examples.openapi.threeways.run_three_ways`."""
    rows = []
    for way, run in runs.items():
        fits, declared, trade = (t(key) for key in ADVICE[way])
        rows.append(
            (
                t(f"waychoices.way.{way}"),
                fits,
                declared,
                trade,
                " → ".join(run.hops),
                str(run.declaration_chars),
                str(len(run.frames)),
                t("waychoices.yes") if run.paired else t("waychoices.no"),
            )
        )
    return ChoiceTable(tuple(rows))
