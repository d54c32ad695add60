"""pandas tables that read left to right: a DataFrame shown through its own ``Styler``. Lesson 00.

JupyterLab right-aligns table cells. pandas' ``Styler`` writes the alignment into a ``<style>``
block keyed by the table's id (an id selector beats JupyterLab's class selectors); JupyterLab
drops that block from an untrusted notebook's stored outputs, so a small template extending
pandas' own (``templates/left_table.tpl``, through ``Styler.from_custom_template``) also puts the
same style on every cell inline. The id is fixed (taken from the table's content unless given),
so a stored output is the same bytes on every run; the index is hidden when it only counts rows.
The plain-text form stays the DataFrame's own text.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Final

from lessons_lib.core.display import Displayable
from lessons_lib.core.htmltable import CELL_STYLE

if TYPE_CHECKING:
    import pandas as pd
    from pandas.io.formats.style import Styler

_CELL: Final[dict[str, str]] = {k: v for k, v in (p.split(":", 1) for p in CELL_STYLE.split(";"))}


@cache
def _styler_class() -> type[Styler]:
    """``Styler`` with the inline-style template (made once)."""
    from pandas.io.formats.style import Styler

    return Styler.from_custom_template(
        str(resources.files("lessons_lib.views") / "templates"), "left_table.tpl"
    )


class LeftTable(Displayable):
    """A DataFrame with its cells left-aligned through ``Styler``, under a fixed id (lesson 00)."""

    def __init__(self, df: pd.DataFrame, uuid: str | None = None, index: bool | None = None) -> None:
        import pandas as pd

        self.df = df
        self.index = index if index is not None else not isinstance(df.index, pd.RangeIndex)
        digest = hashlib.sha256(df.to_json(force_ascii=False).encode()).hexdigest()[:10]
        self.uuid = uuid or f"lessons-{digest}"

    @property
    def styler(self) -> Styler:
        """The ``Styler``: escaped text, left and top aligned, words kept whole, fixed id."""
        props = dict(_CELL)
        styler = _styler_class()(self.df).format(escape="html").set_uuid(self.uuid)
        styler = styler.set_properties(**props).set_table_styles(
            [{"selector": "th", "props": list(props.items())}], overwrite=True
        )
        return styler if self.index else styler.hide(axis="index")

    def text(self) -> str:
        return self.df.to_string(index=self.index)

    def html(self) -> str:
        page = self.styler.to_html(cell_style=CELL_STYLE)
        return "\n".join(line for line in page.splitlines() if line.strip()) + "\n"

    def repr_args(self) -> str:
        rows, columns = self.df.shape
        return f"rows={rows}, columns={columns}"


def left_aligned(df: pd.DataFrame, *, uuid: str | None = None, index: bool | None = None) -> LeftTable:
    """Show ``df`` left to right through pandas' ``Styler`` with a fixed id (lesson 00).

    ``index`` shows or hides the row labels; by default they are hidden when they only count rows.
    """
    return LeftTable(df, uuid=uuid, index=index)
