"""One place for the bounds on untrusted input: size, JSON depth, file kind.

Every reader of something a user or a client hands the course goes through here: the stdio
servers (lessons 04 and 30, one JSON-RPC line each), the HTTP order API (lesson 40, its request
bodies), the trace readers (``tree``, ``diagnose``, ``verify-calls``, the verify commands of
lessons 07-08), the fixtures they load, the notebooks ``grade`` and ``trust`` read, and the
command-line arguments below. A value past a bound is refused with :class:`BoundsError` (a
``ValueError``), one line that says what to do, never a ``RecursionError`` or a hang:

- **depth**: JSON nested deeper than :data:`MAX_JSON_DEPTH` (the course's own files stay under
  15) is refused before any recursive code sees it;
- **size**: a file is read at most :data:`MAX_FILE_BYTES` (plus one byte to notice more), a
  JSON-RPC line at most :data:`MAX_LINE_BYTES`, an HTTP body at most :data:`MAX_BODY_BYTES`;
- **numbers**: ``NaN``, ``Infinity`` and a number too large for a float (``1e400``) are not JSON
  a peer can read back (``json.dumps`` writes them as ``null`` or not at all), so they are refused;
- **command-line arguments**: :func:`port_arg` (0-65535, 0: any free port), :func:`folder_arg`
  (never empty: ``""`` would silently mean the current folder), for argparse's ``type=``;
- **time**: only regular files are read, so a read ends: a FIFO waits for a writer that may never
  come and ``/dev/zero`` never ends. The file is opened without blocking where the platform can
  (``O_NONBLOCK``) and checked with ``fstat`` + ``stat.S_ISREG`` on the open descriptor, which
  works on every platform (Windows has no FIFOs to block on, so the plain open is safe there).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import stat
from pathlib import Path
from typing import Final

from lessons_lib.core.jsonvalue import JSON

MAX_JSON_DEPTH: Final = 64
"""Deepest JSON nesting any reader accepts; the course's own files stay under 15."""

MAX_FILE_BYTES: Final = 16 * 1024 * 1024
"""Largest trace, fixture or message file read (the course's biggest is under 1 MB)."""

MAX_LINE_BYTES: Final = 32 * 1024 * 1024
"""Largest JSON-RPC line a stdio server parses (a 20 MB argument still fits)."""

MAX_BODY_BYTES: Final = 1024 * 1024
"""Largest HTTP request body the order API reads (lesson 40; its largest real body is under 1 KB)."""


class BoundsError(ValueError):
    """Input past one of the bounds; the message is one line that says what to do."""


class NotJSON(ValueError):
    """Text that is not JSON; ``reason`` says where and why, without the text itself."""

    def __init__(self, what: str, reason: str) -> None:
        super().__init__(f"{what} is not valid JSON ({reason})")
        self.reason = reason


def json_depth(value: object) -> int:
    """How deeply ``value`` nests (a scalar is 0, ``[]`` is 1), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children)
    return deepest


def parse_json(text: str | bytes, what: str = "the JSON", max_depth: int = MAX_JSON_DEPTH) -> JSON:
    """``json.loads`` with the depth bound; ``ValueError`` (one line) for text that is not JSON.

    Python's parser raises ``RecursionError`` near its own limit (about 1,000 levels); that and
    anything past ``max_depth`` become the same :class:`BoundsError`.
    """
    try:
        value: JSON = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except _NotFinite as exc:
        raise NotJSON(what, f"{exc} is not a JSON number; give a finite number") from None
    except RecursionError:
        raise BoundsError(_too_deep(what, max_depth)) from None
    except UnicodeDecodeError as exc:
        raise NotJSON(what, f"not UTF-8 text at byte {exc.start}") from None
    except json.JSONDecodeError as exc:
        raise NotJSON(what, f"line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except ValueError:  # Python's own limit: an integer of more than 4,300 digits
        raise NotJSON(what, "a number with too many digits") from None
    if json_depth(value) > max_depth:
        raise BoundsError(_too_deep(what, max_depth))
    return value


class _NotFinite(Exception):
    """``NaN``, ``Infinity`` or a float that overflows: carried out of ``json.loads``."""


def _no_constant(name: str) -> float:
    raise _NotFinite(name)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotFinite(text)
    return value


def _too_deep(what: str, max_depth: int) -> str:
    return f"{what} is nested more than {max_depth} levels deep, past the course's limit"


def read_bounded(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``; :class:`BoundsError` otherwise.

    ``OSError`` (a missing file, no permission) goes to the caller, which words it for its command.
    """
    p = Path(path)
    if not stat.S_ISREG(os.stat(p).st_mode):  # before open: Windows has no O_NONBLOCK
        raise BoundsError(_not_regular(p))
    fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):  # swapped after the first check
            raise BoundsError(_not_regular(p))
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise BoundsError(f"{p} is larger than {max_bytes} bytes, past the course's limit; give a real one")
    return data


def _not_regular(p: Path) -> str:
    return f"cannot read {p}: not a regular file (a folder, a pipe or a device); give a JSON file"


def load_json_file(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> JSON:
    """A JSON file within every bound (regular file, size, UTF-8, depth); else one-line ``ValueError``."""
    p = Path(path)
    try:
        data = read_bounded(p, max_bytes)
    except FileNotFoundError:
        raise ValueError(f"no such file: {p}") from None
    except OSError as exc:
        raise ValueError(f"cannot read {p} ({exc.strerror or type(exc).__name__})") from None
    try:
        return parse_json(data, what=str(p))
    except NotJSON as exc:
        raise ValueError(f"cannot read {p} as JSON ({exc.reason})") from None


def port_arg(text: str) -> int:
    """argparse ``type=`` for a TCP port: a whole number from 0 (any free port) to 65535, refused
    before anything starts."""
    words = "a port is a whole number from 1 to 65535 (or 0: any free port)"
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{words}, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{words}, got {value}")
    return value


def folder_arg(text: str) -> Path:
    """argparse ``type=`` for a folder: an empty text is refused (``Path("")`` is the current folder)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path would mean the current folder; give a folder")
    return Path(text)


__all__ = [
    "MAX_BODY_BYTES",
    "MAX_FILE_BYTES",
    "MAX_JSON_DEPTH",
    "MAX_LINE_BYTES",
    "BoundsError",
    "NotJSON",
    "folder_arg",
    "json_depth",
    "load_json_file",
    "parse_json",
    "port_arg",
    "read_bounded",
]
