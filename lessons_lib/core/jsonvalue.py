"""JSON values as ``json.loads`` gives them: their type, tolerant reading, strict equality.

Standard library only. Used by the trace model (lesson 03) and the verifiers (lesson 07).
"""

from __future__ import annotations

from typing import TypeAlias

from lessons_lib.core.messages import t

JSON: TypeAlias = "str | int | float | bool | None | list[JSON] | dict[str, JSON]"
"""A JSON value of any shape, as ``json.loads`` returns it."""
JSONObject: TypeAlias = "dict[str, JSON]"
"""A JSON object: a message body, a frame, an item."""


def objects(value: JSON | object) -> list[JSONObject]:
    """The JSON objects in a list (other entries skipped); [] when it is not a list."""
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def get_in(value: JSON | object, *keys: str | int) -> JSON:
    """``value[k1][k2]...`` through objects and lists, or None where a step is missing."""
    for key in keys:
        if isinstance(key, int) and isinstance(value, list) and -len(value) <= key < len(value):
            value = value[key]
        elif isinstance(key, str) and isinstance(value, dict):
            value = value.get(key)
        else:
            return None
    return value if value is None or isinstance(value, str | int | float | bool | list | dict) else None


def joined_text(value: JSON) -> str | None:
    """A text, or the ``text`` of a list of parts joined by newlines; None for anything else."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        texts = [get_in(p, "text") for p in value]
        return (
            "\n".join(s for s in texts if isinstance(s, str))
            if all(isinstance(p, dict) for p in value)
            else None
        )
    return None


def same(a: object, b: object) -> bool:
    """Strict JSON equality: 20, 20.0, "20" and true are four different values."""
    return diff_path(a, b) is None


def diff_path(a: object, b: object, path: str = "") -> str | None:
    """The first path where two JSON values differ, or None if they are the same."""
    if type(a) is not type(b):
        return path or t("jsonvalue.whole")
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{path}.{key}"
            found = diff_path(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for n, (x, y) in enumerate(zip(a, b, strict=False)):
            found = diff_path(x, y, f"{path}[{n}]")
            if found:
                return found
        return None if len(a) == len(b) else f"{path}[{min(len(a), len(b))}]"
    return None if a == b else (path or t("jsonvalue.whole"))
