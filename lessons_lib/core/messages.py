"""The message catalogue: every learner-facing text in Chinese and English, and the language. Lesson 00.

One place for what the library says to a learner: the entries live in
``lessons_lib/core/catalogue/*.json`` as ``{"key": {"zh": "...", "en": "..."}}`` (``str.format``
fields such as ``{n}``, the same fields in both languages; ``tests/core/test_messages.py`` fails on an
entry in one language only). ``t("key", n=3)`` gives the text in the current language.

The language is chosen once per notebook, in this order:

1. ``set_language("en")`` (the facade call; ``set_language(None)`` clears it);
2. the ``LESSONS_LANG`` environment variable (``en`` or ``zh``);
3. where the code runs: a working directory ``notebooks/en/`` means English. JupyterLab, Binder,
   nbval and nbclient (``refresh``, ``edition en build``) all start a notebook's kernel in the
   notebook's own folder, so the English lessons speak English with the same code, byte for byte;
4. otherwise Chinese.

The command line takes ``--lang``, else ``LESSONS_LANG``, else the language in force, for the
command only (called from a notebook cell, it leaves the notebook's language as it was).
Identifiers, wire text and field names are not messages: they stay the same in both.
Standard library only.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Final, Literal

Language = Literal["zh", "en"]
LANGUAGES: Final[tuple[Language, ...]] = ("zh", "en")
ENV_VAR: Final = "LESSONS_LANG"
ENGLISH_FOLDER: Final = ("notebooks", "en")
"""The last two parts of a working directory that means English."""

_chosen: Language | None = None


def _checked(lang: str, where: str) -> Language:
    value = lang.strip().lower()
    if value not in LANGUAGES:
        raise ValueError(f"{where}={lang!r} is not a language of the course: use 'en' or 'zh'")
    return value


def set_language(lang: str | None) -> Language:
    """Speak ``"en"`` or ``"zh"`` from now on in this process; ``None`` goes back to detection.

    Returns the language now in force. A first-cell call for a notebook run somewhere other than
    its folder; the English lessons need none (see the module's docstring). Lesson 00.
    """
    global _chosen
    _chosen = None if lang is None else _checked(lang, "set_language")
    return language()


@contextmanager
def speaking(lang: str) -> Iterator[Language]:
    """Speak ``lang`` inside the ``with`` block, then go back to the choice made before it.

    For the command line called from a notebook cell (``main(["verify-fields"])``): the command
    speaks its own language without pinning the rest of the notebook to it.
    """
    global _chosen
    before = _chosen
    _chosen = _checked(lang, "language")
    try:
        yield _chosen
    finally:
        _chosen = before


def _runs_in_english_folder() -> bool:
    try:
        where = os.getcwd()
    except OSError:  # the working directory was removed
        return False
    return _is_english_folder(where)


@cache
def _is_english_folder(where: str) -> bool:
    """Whether a working directory ends in ``notebooks/en`` (asked per ``t()``, so parsed once)."""
    return tuple(p.lower() for p in Path(where).parts[-2:]) == ENGLISH_FOLDER


def language() -> Language:
    """The language in force: the override, ``LESSONS_LANG``, the notebook's folder, else ``"zh"``."""
    if _chosen is not None:
        return _chosen
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        return _checked(env, ENV_VAR)
    return "en" if _runs_in_english_folder() else "zh"


def _once(name: str) -> Callable[[list[tuple[str, object]]], dict[str, object]]:
    """A ``json`` hook refusing a key written twice in one file (``json.loads`` keeps the last)."""

    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        seen: dict[str, object] = {}
        for key, value in items:
            if key in seen:
                raise ValueError(f"catalogue key {key!r} is written twice in {name}")
            seen[key] = value
        return seen

    return pairs


@cache
def catalogue() -> dict[str, dict[str, str]]:
    """Every entry, key -> {language: text}, read once from ``catalogue/*.json``."""
    merged: dict[str, dict[str, str]] = {}
    folder = resources.files("lessons_lib.core") / "catalogue"
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        entries = json.loads(entry.read_text(encoding="utf-8"), object_pairs_hook=_once(entry.name))
        for key, texts in entries.items():
            if key in merged:
                raise ValueError(f"catalogue key {key!r} is defined twice (again in {entry.name})")
            merged[key] = texts
    return merged


def text_in(lang: str, key: str, /, **fields: object) -> str:
    """The entry ``key`` in ``lang``, its ``{fields}`` filled in."""
    try:
        entry = catalogue()[key]
    except KeyError:
        raise KeyError(f"no message {key!r} in lessons_lib/core/catalogue/") from None
    return entry[lang].format(**fields)


def t(key: str, /, **fields: object) -> str:
    """The entry ``key`` in the current language, its ``{fields}`` filled in."""
    return text_in(language(), key, **fields)


def say(zh: str, en: str, /) -> str:
    """A lesson's own label, ``zh`` or ``en`` as the notebook's language is. Lesson 00.

    For the words a lesson's code cell prints itself (``print(say("调用数：", "calls:"), n)``):
    the English edition runs the Chinese lesson's code byte for byte, so the cell carries both
    texts where it prints them; what the library prints comes from the catalogue instead.
    """
    return en if language() == "en" else zh


def zh(key: str, /, **fields: object) -> str:
    """The Chinese entry, for the library's fixed Chinese names (``KINDS[k].zh`` and the like)."""
    return text_in("zh", key, **fields)


__all__ = [
    "LANGUAGES",
    "ENV_VAR",
    "Language",
    "catalogue",
    "language",
    "say",
    "set_language",
    "t",
    "text_in",
    "zh",
]
