"""The one text-width rule for Chinese and mixed text, from ``wcwidth``. Used by every view.
From lesson 03's field tree on, every tree, table and diagram a lesson draws measures with it.

A terminal shows a Chinese character in two columns and a Latin letter in one; ``wcwidth``
knows which is which (``unicodedata.east_asian_width`` alone gets combining marks and
emoji wrong). Trees, tables and the sequence view measure in terminal columns; diagrams
measure in ems of the diagram font (:func:`ems`), where East Asian "ambiguous" glyphs such as
``→`` are drawn wide by CJK fonts. Shortening is :func:`shorten`, one rule for all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Final

import wcwidth


@lru_cache(maxsize=8192)
def char_width(char: str, ambiguous: int = 1) -> int:
    """Columns one character takes (0 for combining marks and control characters)."""
    return max(wcwidth.wcwidth(char, "auto", ambiguous), 0)


def width(text: str) -> int:
    """Terminal columns a text takes on one line."""
    if text.isascii() and text.isprintable():  # the common case, and the slider redraws often
        return len(text)
    return sum(map(char_width, text))


@lru_cache(maxsize=8192)
def is_wide(char: str) -> bool:
    """Drawn two columns (one em) wide by a CJK font, ambiguous glyphs included."""
    return char_width(char, ambiguous=2) == 2


def ems(text: str) -> float:
    """Width of one line in ems of the diagram font: a wide glyph is 1 em, any other about 0.55."""
    return sum(1.0 if is_wide(c) else 0.55 for c in text)


Measure = Callable[[str], float]


def fit(text: str, limit: float, measure: Measure = width) -> str:
    """The longest start of ``text`` that measures at most ``limit`` (measures add up per character)."""
    used = 0.0
    for n, char in enumerate(text):
        used += measure(char)
        if used > limit:
            return text[:n]
    return text


def shorten(text: str, limit: float, *, tail: int = 0, room: float = 1, measure: Measure = width) -> str:
    """``text`` if it fits in ``limit``, else its start (and ``tail`` columns of its end) around "…".

    ``room`` is what the ellipsis itself is allowed to take of the limit.
    """
    if measure(text) <= limit:
        return text
    end = fit(text[::-1], tail, measure)[::-1] if tail else ""
    return fit(text, limit - tail - room, measure) + "…" + end


def one_line(value: object) -> str:
    """A value as one line: strings as they are, anything else as compact JSON; newlines as ⏎."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text.replace("\n", "⏎")


def pad(text: str, columns: float) -> str:
    """``text`` followed by spaces up to ``columns`` terminal columns."""
    return text + " " * int(max(0, columns - width(text)))


def text_table(headers: Sequence[str], rows: Sequence[Sequence[str]], *, rule: bool = True) -> str:
    """A plain-text table whose columns line up in a terminal, Chinese included."""
    widths = [max([width(h)] + [width(r[i]) for r in rows]) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(pad(c, w) for c, w in zip(cells, widths, strict=True)).rstrip()

    ruler = [line(["-" * int(w) for w in widths])] if rule else []
    return "\n".join([line(headers), *ruler, *(line(r) for r in rows)]) + "\n"


# Inside a run without spaces: a Latin word, or one wide glyph with the punctuation that may not
# start a line after it (、，。：；！？）」】》) and the opening brackets that may not end one before it.
_CJK_TOKENS = re.compile(
    r"[（「【《]*(?:[^（「【《、，。：；！？）」】》\u3000-\u9fff\uff00-\uffef]+|.)[、，。：；！？）」】》]*"
)


PROSE_COLUMNS: Final = 100
"""How wide a sentence of a text/plain fallback may run (lesson 09: no 600-column lines)."""


def wrapped(text: str, columns: int = PROSE_COLUMNS, hang: str = "") -> str:
    """Each line of ``text`` wrapped to ``columns`` terminal columns (``wrap`` with ``width``);
    the continuation lines start with ``hang``."""
    out = []
    for line in text.split("\n"):
        first, *rest = wrap(line, columns - width(hang), width)
        out += [first, *(hang + part for part in rest)]
    return "\n".join(out)


def wrap(text: str, limit: float, measure: Measure = ems) -> list[str]:
    """``text`` as lines that measure at most ``limit`` (ems by default), never cutting a word.

    Breaks at spaces; a run without spaces that is too long alone breaks between Chinese
    characters (never before closing punctuation). ``textwrap`` and ``wcwidth.wrap`` know only
    spaces and cut such a run anywhere, "function_c" / "all_output" included. A Latin word
    longer than ``limit`` stays whole.
    """
    tokens: list[str] = []
    for space, word in re.findall(r"(\s*)(\S+)", text):
        parts = _CJK_TOKENS.findall(word) if measure(word) > limit else [word]
        tokens += [space + parts[0], *parts[1:]]
    lines, line = [], ""
    for token in tokens:
        if line and measure(line + token.rstrip()) > limit:
            lines.append(line)
            line = token.lstrip()
        else:
            line += token
    return [*lines, line]
