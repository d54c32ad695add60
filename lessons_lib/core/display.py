"""The one display protocol: how every object the lessons show reaches Jupyter and a terminal.

A displayable defines ``text()`` (the ``text/plain`` form, also what a terminal prints) and
``html()`` and/or ``svg()``; :class:`Displayable` turns them into ``_repr_mimebundle_`` (which
honours IPython's ``include``/``exclude``: a MIME type that is not asked for is not computed)
and into a one-line ``__repr__`` built from ``repr_args()``; ``str()`` and ``print()`` give the
text. Standard library only.
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

    def repr_args(self) -> str:
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
        return f"{type(self).__name__}({self.repr_args()})".replace("\n", " ")

    def __str__(self) -> str:
        return self.text()
