"""The one display protocol: how every object the lessons show reaches Jupyter and a terminal.

A displayable defines ``text()`` (the ``text/plain`` form, also what a terminal prints) and
``html()`` and/or ``svg()``; :class:`Displayable` turns them into ``_repr_mimebundle_`` (which
honours IPython's ``include``/``exclude``: a MIME type that is not asked for is not computed)
and into a one-line ``__repr__`` built from ``summary()``. Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import Final

HTML: Final = "text/html"
PLAIN: Final = "text/plain"
SVG: Final = "image/svg+xml"


class Displayable:
    """Mixin: ``text()`` plus ``html()`` and/or ``svg()`` give the MIME bundle and the repr."""

    def text(self) -> str:
        """The plain-text form (``text/plain``, and what a terminal prints)."""
        raise NotImplementedError

    def html(self) -> str | None:
        """The HTML form, or None when there is none."""
        return None

    def svg(self) -> str | None:
        """The SVG form, or None when there is none."""
        return None

    def summary(self) -> str:
        """What the one-line repr says inside the parentheses."""
        return ""

    def _mime_forms(self) -> dict[str, Callable[[], str | None]]:
        return {PLAIN: self.text, HTML: self.html, SVG: self.svg}

    def _repr_mimebundle_(
        self, include: Container[str] | None = None, exclude: Container[str] | None = None, **kwargs: object
    ) -> dict[str, str]:
        """The MIME bundle IPython displays; only the wanted forms are computed."""
        bundle = {}
        for mime, make in self._mime_forms().items():
            if (include is not None and mime not in include) or (exclude is not None and mime in exclude):
                continue
            value = make()
            if value is not None:
                bundle[mime] = value
        return bundle

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.summary()})".replace("\n", " ")


def one_line(text: str, limit: int = 120) -> str:
    """The text on one line (newlines become spaces), cut to ``limit`` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def mime_html(obj: object) -> str | None:
    """The HTML (or SVG) an object shows in a notebook, or None when it has neither."""
    bundle = getattr(obj, "_repr_mimebundle_", None)
    data = bundle(include=(HTML, SVG)) if callable(bundle) else None
    if isinstance(data, dict):
        found = data.get(HTML) or data.get(SVG)
        return found if isinstance(found, str) else None
    return None
