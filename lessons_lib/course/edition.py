"""The English edition: built from the Chinese lessons and a translation store, checked for drift.

For maintainers (CONTRIBUTING.md "The English edition"). The store holds one file per
lesson, ``i18n/en/<notebook stem>.json``::

    {"notebook": "03_minimal_walkthrough.ipynb",
     "cells": [{"id": "<cell id>", "zh_sha256": "<sha256 of the Chinese cell's source>", "en": "..."}]}

one entry per markdown cell, in cell order. ``zh_sha256`` is the hash of the Chinese text the
translation was made from (``''.join(cell['source'])`` as UTF-8), so an edited Chinese cell makes its
translation *stale*. :func:`build` writes ``notebooks/en/<same name>.ipynb``: the same cells in the
same order with the same ids, code cells byte for byte, markdown replaced by the English; then runs
it as ``refresh`` does. Its kernel starts in ``notebooks/en/``, which makes the library speak English
(``lessons_lib.core.messages``). :func:`drift` lists what keeps a lesson's edition from being current.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypedDict

from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.paths import NOTEBOOK_DIR
from lessons_lib.course.refresh import refresh

STORE_ROOT: Final[Path] = NOTEBOOK_DIR.parent / "i18n"
"""``i18n/<language>/<notebook stem>.json`` beside ``notebooks/``."""
EDITIONS: Final = ("en",)


class EditionError(ValueError):
    """A store or notebook that cannot be used as it is; the message says what to do."""


@dataclass(frozen=True)
class Problem:
    """One reason a lesson's edition is not current, as one line that says what to do."""

    notebook: str
    kind: str  # "no store", "missing", "stale", "orphan", "no edition", "cells", "code", "markdown"
    line: str
    cell: str | None = None


class NotebookCell(TypedDict, total=False):
    """The fields of a notebook cell (nbformat 4) this module reads or clears."""

    id: str
    cell_type: str
    source: str | list[str]
    outputs: list[JSONObject]
    execution_count: int | None


class Notebook(TypedDict):
    """A notebook file as ``json.load`` gives it: its cells, and its metadata (where the edition says so)."""

    cells: list[NotebookCell]
    metadata: JSONObject


def source_text(cell: NotebookCell) -> str:
    """A cell's source as one string (nbformat stores a list of lines or one string)."""
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def zh_sha256(cell: NotebookCell) -> str:
    """The hash a translation records: sha256 of the Chinese cell's source, UTF-8, hex."""
    return hashlib.sha256(source_text(cell).encode("utf-8")).hexdigest()


def store_path(notebook: Path, lang: str = "en", root: Path | None = None) -> Path:
    """Where the translation of ``notebook`` is kept."""
    return (root or STORE_ROOT) / lang / f"{notebook.stem}.json"


def edition_path(notebook: Path, lang: str = "en") -> Path:
    """The edition's copy of a Chinese lesson: ``notebooks/<lang>/<same name>``."""
    return notebook.parent / lang / notebook.name


def _read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise EditionError(f"cannot read {what} {path.name}: {exc}") from None


def load_store(path: Path) -> dict[str, dict[str, str]]:
    """The store's entries by cell id; a malformed file is an EditionError naming it."""
    data = _read_json(path, "the translation store")
    cells = data.get("cells") if isinstance(data, dict) else None
    if not isinstance(cells, list) or not all(
        isinstance(c, dict) and {"id", "zh_sha256", "en"} <= set(c) for c in cells
    ):
        raise EditionError(
            f'{path.name}: expected {{"notebook": ..., "cells": [{{"id", "zh_sha256", "en"}}]}}'
        )
    return {str(c["id"]): c for c in cells}


def _markdown(nb: Notebook) -> list[tuple[int, NotebookCell]]:
    return [(i, c) for i, c in enumerate(nb["cells"]) if c.get("cell_type") == "markdown"]


def translation_problems(notebook: Path, lang: str = "en", root: Path | None = None) -> list[Problem]:
    """Chinese markdown cells without a translation, with a stale one, and entries for no cell."""
    name, store = notebook.name, store_path(notebook, lang, root)
    if not store.is_file():
        return [
            Problem(name, "no store", f"{name}: no translation store i18n/{lang}/{store.name} yet; write it")
        ]
    entries = load_store(store)
    nb: Notebook = _read_json(notebook, "the notebook")
    problems, ids = [], set()
    for index, cell in _markdown(nb):
        cid, digest = str(cell.get("id")), zh_sha256(cell)
        ids.add(cid)
        where = f"{name} markdown cell {cid!r} (cell {index})"
        entry = entries.get(cid)
        if entry is None:
            fix = f'add {{"id": "{cid}", "zh_sha256": "{digest}", "en": ...}} to i18n/{lang}/{store.name}'
            problems.append(Problem(name, "missing", f"{where} has no translation: {fix}", cid))
        elif entry["zh_sha256"] != digest:
            fix = f'translate its current Chinese again and set "zh_sha256": "{digest}"'
            problems.append(Problem(name, "stale", f"{where} changed since it was translated: {fix}", cid))
        elif not str(entry["en"]).strip():
            problems.append(
                Problem(name, "missing", f"{where} has an empty translation: write its text", cid)
            )
    for cid in entries.keys() - ids:
        line = f"{name}: i18n/{lang}/{store.name} translates cell {cid!r}, no markdown cell now: remove it"
        problems.append(Problem(name, "orphan", line, cid))
    return problems


def edition_problems(notebook: Path, lang: str = "en", root: Path | None = None) -> list[Problem]:
    """How the edition's notebook differs from what :func:`build` makes of the Chinese one."""
    name, target = notebook.name, edition_path(notebook, lang)
    if not target.is_file():
        fix = f"run: python -m lessons_lib edition {lang} build notebooks/{name}"
        return [Problem(name, "no edition", f"{name}: no notebooks/{lang}/{name} yet; {fix}")]
    zh_nb: Notebook = _read_json(notebook, "the notebook")
    en_nb: Notebook = _read_json(target, "the notebook")
    zh_cells, en_cells = zh_nb["cells"], en_nb["cells"]
    shape = [(c.get("id"), c.get("cell_type")) for c in zh_cells]
    if shape != [(c.get("id"), c.get("cell_type")) for c in en_cells]:
        fix = f"rebuild it: python -m lessons_lib edition {lang} build notebooks/{name}"
        line = f"{lang}/{name}: its cells (ids, types or order) differ from the Chinese lesson; {fix}"
        return [Problem(name, "cells", line)]
    store = store_path(notebook, lang, root)
    entries = load_store(store) if store.is_file() else {}
    problems = []
    for index, (zh_cell, en_cell) in enumerate(zip(zh_cells, en_cells, strict=True)):
        cid, where = str(zh_cell.get("id")), f"{lang}/{name} cell {zh_cell.get('id')!r} (cell {index})"
        if zh_cell.get("cell_type") == "markdown":
            entry = entries.get(cid)
            if entry is not None and source_text(en_cell) != entry["en"]:
                line = f"{where}: its markdown is not the store's text; rebuild the notebook"
                problems.append(Problem(name, "markdown", line, cid))
        elif source_text(zh_cell) != source_text(en_cell):
            line = f"{where}: its code differs from the Chinese lesson's; edit the Chinese one and rebuild"
            problems.append(Problem(name, "code", line, cid))
    return problems


def drift(notebook: Path, lang: str = "en", root: Path | None = None) -> list[Problem]:
    """Everything that keeps a lesson's edition from being current (the drift test's check)."""
    return translation_problems(notebook, lang, root) + edition_problems(notebook, lang, root)


def translated(notebook: Path, lang: str = "en", root: Path | None = None) -> Notebook:
    """The edition's notebook as data: the Chinese cells, markdown from the store, outputs cleared.

    Raises EditionError with the first missing or stale cell (and how to fix it).
    """
    blocking = [
        p for p in translation_problems(notebook, lang, root) if p.kind in {"no store", "missing", "stale"}
    ]
    if blocking:
        more = f" (and {len(blocking) - 1} more: python -m lessons_lib edition {lang} status)"
        raise EditionError(blocking[0].line + (more if len(blocking) > 1 else ""))
    entries = load_store(store_path(notebook, lang, root))
    nb: Notebook = _read_json(notebook, "the notebook")
    for cell in nb["cells"]:
        if cell.get("cell_type") == "markdown":
            cell["source"] = entries[str(cell["id"])]["en"]
        elif cell.get("cell_type") == "code":
            cell["outputs"], cell["execution_count"] = [], None
    nb["metadata"]["lessons_lib"] = {"edition": lang, "translated_from": f"../{notebook.name}"}
    return nb


def build(notebook: Path, lang: str = "en", root: Path | None = None, *, run: bool = True) -> Path:
    """Write ``notebooks/<lang>/<name>`` from the Chinese lesson and the store; run it (as ``refresh``)."""
    import nbformat

    target = edition_path(notebook, lang)
    nb = nbformat.from_dict(translated(notebook, lang, root))
    target.parent.mkdir(exist_ok=True)
    nbformat.write(nb, target)
    if run:
        # the kernel's folder chooses the language: a LESSONS_LANG of this shell must not override it
        saved = os.environ.pop("LESSONS_LANG", None)
        try:
            refresh(target)
        finally:
            if saved is not None:
                os.environ["LESSONS_LANG"] = saved
    return target


__all__ = [
    "EditionError",
    "Problem",
    "build",
    "drift",
    "edition_problems",
    "translation_problems",
    "zh_sha256",
]
