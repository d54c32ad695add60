"""What crosses the pipe between the gradebook and a grading process: JSON only, never pickle.

Introduced with the gradebook (lesson 11). The gradebook (trusted) calls the learner's
functions in the grading process; arguments and return values are encoded here:

- JSON values as they are (a dict as ``{"$d": {...}}``), a tuple as ``{"$tuple": [...]}``;
- an SDK data object (an ``openai`` response item, an MCP ``Tool``) as
  ``{"$sdk": "module:Type", "data": ...}``, rebuilt on the other side (``engine.remote_sdk``);
- the model client and the tool service as ``{"$handle": kind, "id": n}``: the objects stay in
  the gradebook, the grading process gets stand-ins that send each use back through the pipe;
- anything else as ``{"$opaque": repr}`` (a checker can show it, nobody can run it).

The grading process may send anything; :func:`decode` accepts only these shapes, so what
arrives is data for the checkers, never code or a verdict.
"""

from __future__ import annotations

import builtins
import json
import re
from collections.abc import Callable
from typing import Final

from lessons_lib.core.jsonvalue import JSON

MAX_MESSAGE: Final = 8 * 2**20
"""Bytes one message may have (a model response is a few kB)."""
MAX_DEPTH: Final = 60


class WireError(ValueError):
    """A message that is not one of the shapes above."""


class Opaque:
    """A value the grading process could not send as data: only its ``repr`` came across."""

    def __init__(self, text: str) -> None:
        self._text = text

    def __repr__(self) -> str:
        return self._text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Opaque) and other._text == self._text

    __hash__ = None  # type: ignore[assignment]


def encode(value: object, handle: Callable[[object], JSON | None] | None = None, depth: int = 0) -> JSON:
    """``value`` as wire JSON; ``handle(value)`` names objects that stay on this side."""
    from lessons_lib.workshop.gradebook.remote_sdk import sdk_dump

    if depth > MAX_DEPTH:
        return {"$opaque": "<too deep>"}
    named = handle(value) if handle is not None else None
    if named is not None:
        return named
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list):
        return [encode(v, handle, depth + 1) for v in value]
    if isinstance(value, tuple):
        return {"$tuple": [encode(v, handle, depth + 1) for v in value]}
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"$d": {k: encode(v, handle, depth + 1) for k, v in value.items()}}
    dumped = sdk_dump(value)
    if dumped is not None:
        return {"$sdk": dumped[0], "data": dumped[1]}
    return {"$opaque": _repr(value)}


def _repr(value: object) -> str:
    try:
        text = repr(value)
    except Exception:  # a learner's object whose __repr__ raises
        text = f"<{type(value).__name__}>"
    return re.sub(r" at 0x[0-9a-f]+", "", text)[:300]


def decode(data: JSON, handle: Callable[[str, int, str], object] | None = None, depth: int = 0) -> object:
    """The value back from wire JSON; ``handle(kind, id, name)`` makes the stand-in of a handle."""
    from lessons_lib.workshop.gradebook.remote_sdk import sdk_load

    if depth > MAX_DEPTH:
        raise WireError("too deep")
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if isinstance(data, list):
        return [decode(v, handle, depth + 1) for v in data]
    if not isinstance(data, dict) or len(data) not in (1, 2, 3):
        raise WireError(f"not a wire value: {str(data)[:80]}")
    if set(data) == {"$d"} and isinstance(data["$d"], dict):
        return {str(k): decode(v, handle, depth + 1) for k, v in data["$d"].items()}
    if set(data) == {"$tuple"} and isinstance(data["$tuple"], list):
        return tuple(decode(v, handle, depth + 1) for v in data["$tuple"])
    if set(data) == {"$opaque"}:
        return Opaque(str(data["$opaque"])[:300])
    if set(data) == {"$sdk", "data"}:
        try:
            return sdk_load(str(data["$sdk"]), data["data"])
        except ValueError:
            return Opaque(f"<{str(data['$sdk'])[:80]}>")
    if set(data) == {"$handle", "id", "name"} and handle is not None and isinstance(data["id"], int):
        return handle(str(data["$handle"]), data["id"], str(data["name"]))
    raise WireError(f"not a wire value: {str(data)[:80]}")


def dumps(message: object) -> bytes:
    return json.dumps(message, ensure_ascii=False).encode("utf-8")  # NaN too: json.loads reads it


def loads(raw: bytes) -> dict[str, JSON]:
    """One message: a JSON object (``WireError`` for anything else)."""
    try:
        message = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise WireError("not JSON") from None
    if not isinstance(message, dict):
        raise WireError("not a JSON object")
    return message


def exception_data(exc: BaseException, filename: str | None) -> dict[str, JSON]:
    """An exception as data: its type's name, its text, and the learner's own line that raised it."""
    import traceback

    frames = [
        f for f in traceback.extract_tb(exc.__traceback__) if filename is None or f.filename == filename
    ]
    last = frames[-1] if frames else None
    builtin_bases: list[JSON] = [c.__name__ for c in type(exc).__mro__ if c.__module__ == "builtins"]
    return {
        "type": type(exc).__name__,
        "module": type(exc).__module__,
        "bases": builtin_bases,  # JSONDecodeError stays a ValueError on the other side
        "message": str(exc)[:2000],
        "line": (last.line or "")[:300] if last is not None else "",
        "lineno": (last.lineno or 0) if last is not None else 0,
    }


KNOWN_MODULES: Final = ("builtins", "json.decoder")
"""Modules whose exception classes are rebuilt as themselves (``json.JSONDecodeError``...)."""


def _exception_class(data: dict[str, JSON]) -> type[Exception]:
    """The class itself (a built-in or a known one), else a look-alike under its nearest built-in base."""
    import importlib

    name = str(data.get("type", "Exception"))
    if not name.isidentifier():
        name = "Exception"
    module = str(data.get("module", "builtins"))
    if module in KNOWN_MODULES:
        found = getattr(importlib.import_module(module), name, None)
        if isinstance(found, type) and issubclass(found, Exception):
            return found
    bases = data.get("bases")
    for base_name in bases if isinstance(bases, list) else []:
        base = getattr(builtins, str(base_name), None)
        if isinstance(base, type) and issubclass(base, Exception):
            return type(name, (base,), {})
    return type(name, (Exception,), {})


def rebuild_exception(data: dict[str, JSON]) -> Exception:
    """An exception of the same class where it is built in or known, else a look-alike of the
    same name under the same nearest built-in base (so ``except ValueError`` catches it on both sides).
    """
    cls, message = _exception_class(data), str(data.get("message", ""))
    try:
        return cls(message)
    except Exception:  # a class that wants other arguments (UnicodeDecodeError, JSONDecodeError...)
        exc = cls.__new__(cls)
        exc.args = (message,)
        return exc
