"""Trust the course's stored outputs, so JupyterLab shows its diagrams before a lesson is run.

JupyterLab does not draw an untrusted notebook's stored SVG (it shows the ``text/plain``
description instead) and strips its ``<style>`` blocks. A notebook this course ships holds
no script, so signing it in the learner's own trust database (what ``jupyter trust`` does,
through nbformat's ``NotebookNotary``) is safe; a notebook whose outputs do carry a script
or JavaScript is refused, never signed. Nothing in the notebook files changes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ACTIVE_TYPES = ("application/javascript", "text/javascript")
_SCRIPT = re.compile(r"<script\b|\son\w+\s*=|javascript:", re.IGNORECASE)


@dataclass(frozen=True)
class TrustReport:
    """What ``trust_notebooks`` did: the notebooks signed, and those refused with the reason."""

    signed: tuple[Path, ...]
    refused: tuple[tuple[Path, str], ...]


def active_content(nb: object) -> str | None:
    """Why a notebook's outputs could run code in the browser, or None when they cannot."""
    for number, cell in enumerate(getattr(nb, "cells", []), start=1):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            for mime in ACTIVE_TYPES:
                if mime in data:
                    return f"cell {number} has a {mime} output"
            for mime in ("text/html", "image/svg+xml"):
                text = data.get(mime, "")
                text = "".join(text) if isinstance(text, list) else str(text)
                if _SCRIPT.search(text):
                    return f"cell {number} has a script in its {mime} output"
    return None


def trust_notebooks(paths: Iterable[Path], data_dir: str | None = None) -> TrustReport:
    """Sign each notebook that holds no active content (lesson 00); ``data_dir`` picks the database.

    A file that cannot be read as a notebook is refused with its reason, and the others are still
    signed (the report names the broken notebook).
    """
    from nbformat.sign import NotebookNotary

    if data_dir:
        Path(data_dir).mkdir(parents=True, exist_ok=True)  # the notary writes its secret there
    signed: list[Path] = []
    refused: list[tuple[Path, str]] = []
    with NotebookNotary(data_dir=data_dir) if data_dir else NotebookNotary() as notary:
        for path in paths:
            nb, reason = _read(path)
            reason = reason or active_content(nb)
            if reason:
                refused.append((path, reason))
            else:
                notary.sign(nb)
                signed.append(path)
    return TrustReport(tuple(signed), tuple(refused))


def _read(path: Path) -> tuple[object, str | None]:
    """(notebook, None), or (None, why it is no notebook): bounded read, then nbformat."""
    import nbformat

    from lessons_lib.core.bounds import parse_json, read_bounded

    try:
        raw = read_bounded(path)
        if not isinstance(parse_json(raw, what=path.name), dict):
            return None, "not a notebook (the file is JSON, but not an object)"
        return nbformat.reads(raw.decode("utf-8"), as_version=4), None
    except Exception as exc:  # noqa: BLE001  (any reason the file is no notebook: one line, then the next file)
        return None, f"not a notebook ({' '.join(str(exc).split())[:200]})"
