"""Small JSON helpers shared by the verifiers and the doctor (lessons 07-08). Standard library only.

A check raises ``Fail`` with the sentence printed after FAIL; the helpers here turn a wrong
shape into such a sentence (``obj``, ``text_of``, ``list_of``), compare JSON values strictly
(``same``, ``diff_path``) and read a JSON file without ever raising anything but ``Fail``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lessons_lib.core.jsonvalue import JSON
from lessons_lib.core.messages import t


class Fail(Exception):
    """A check's failure: the message is the reason printed after FAIL."""


def need(condition: object, reason: str) -> None:
    if not condition:
        raise Fail(reason)


def json_kind(value: object) -> str:
    """The JSON name of a value's type, in the current language, for reasons."""
    if value is None:
        return t("jsoncheck.kind.null")
    if isinstance(value, bool):
        return t("jsoncheck.kind.boolean")
    names = ((str, "text"), ((int, float), "number"), (list, "array"), (dict, "object"))
    return next(
        (t(f"jsoncheck.kind.{n}") for types, n in names if isinstance(value, types)), type(value).__name__
    )


def show(value: object, limit: int = 60) -> str:
    """A short JSON spelling of a value for a reason line."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def obj(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Fail(t("jsoncheck.not_object", where=where, kind=json_kind(value)))
    return value


def text_of(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise Fail(t("jsoncheck.not_text", where=where, kind=json_kind(value)))
    return value


def list_of(value: object, where: str) -> list[JSON]:
    if not isinstance(value, list):
        raise Fail(t("jsoncheck.not_array", where=where, kind=json_kind(value)))
    return value


def first_text_diff(expected: str, actual: str) -> str:
    """Where two texts start to differ, with a short quote of each from there."""
    n = next(
        (i for i, (a, b) in enumerate(zip(expected, actual, strict=False)) if a != b),
        min(len(expected), len(actual)),
    )
    want, got = show(expected[n : n + 16]), show(actual[n : n + 16])
    return t("jsoncheck.text_diff", n=n + 1, want=want, got=got)


def short(path: object) -> str:
    """A file's name only: reports never print a machine's absolute path."""
    return Path(str(path)).name


def load_json(path: object) -> JSON:
    """Read a JSON file; any problem becomes one Fail sentence saying what to do (in English,
    like every command-line message)."""
    from lessons_lib.core.bounds import BoundsError, parse_json, read_bounded

    p = Path(str(path))
    try:
        raw = read_bounded(p).decode("utf-8")
    except FileNotFoundError:
        raise Fail(f"no such file: {p}; check the path, or run python -m lessons_lib record") from None
    except BoundsError as exc:
        raise Fail(str(exc)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise Fail(f"cannot read {p} ({type(exc).__name__}); give a UTF-8 JSON file") from None
    try:
        return parse_json(raw, what=str(p))
    except BoundsError as exc:
        raise Fail(str(exc)) from None
    except ValueError as exc:
        raise Fail(f"{exc}; fix it and run again") from None
