"""Path input that means something else on Windows, refused on every OS. Lesson 03.

A logical path is ``/workspace/...`` with ``/`` between names. On Windows some spellings
name another place altogether: a drive (``C:\\...``, the drive-relative ``C:x``), a network
share (``\\\\server\\share``), the device namespace (``\\\\?\\...``, ``\\\\.\\...``), a device
(``NUL``, ``CON``, ``COM1``, also ``nul.txt``), an alternate data stream (``a.txt:secret``),
or the same file under another name (Windows drops a trailing dot or space). The service
refuses all of them whatever the OS it runs on, so a lesson behaves the same everywhere.
The rules follow Microsoft's "Naming Files, Paths, and Namespaces"; the device names are
those ``pathlib.PureWindowsPath.is_reserved`` knows (tests compare both). Standard library
only; no library validates a name for Windows from another OS without touching the disk.
"""

from __future__ import annotations

import re
from typing import Final

_DEVICES: Final = frozenset(
    {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"}
    | {f"{port}{n}" for port in ("COM", "LPT") for n in "123456789\u00b9\u00b2\u00b3"}
)
_FORBIDDEN: Final = re.compile(r'[<>"|?*\x00-\x1f]')
_DRIVE: Final = re.compile(r"[A-Za-z]:")
_FIX: Final = "write a logical path such as /workspace/notes.txt"


def windows_problem(path: str) -> str | None:
    """The one-line refusal for a path that Windows would read differently, or None."""
    if path[:4] in {"\\\\?\\", "\\\\.\\", "//?/", "//./"}:
        return f"Invalid path: {path} is a Windows device or long-path name; {_FIX}"
    if path[:2] in {"\\\\", "//"}:
        return f"Invalid path: {path} is a Windows network share (\\\\server\\share); {_FIX}"
    if _DRIVE.match(path):
        return f"Invalid path: {path} names a Windows drive ({path[:2]}); {_FIX}"
    if "\\" in path:
        return f"Invalid path: {path} contains a backslash (\\); separate names with '/': {_FIX}"
    for name in path.split("/"):
        problem = name_problem(name)
        if problem:
            return f"Invalid path: {problem}; {_FIX}"
    return None


def name_problem(name: str) -> str | None:
    """What is wrong with one name between slashes on Windows, or None."""
    if name in {"", ".", ".."}:
        return None
    bad = _FORBIDDEN.search(name)
    if bad:
        return f"the name {name!r} contains {bad.group()!r}, which Windows does not allow in a name"
    if ":" in name:
        return f"the name {name!r} contains ':', which on Windows opens an alternate data stream"
    device = name.partition(".")[0].rstrip(" ").upper()
    if device in _DEVICES:
        return f"the name {name!r} is the Windows device {device}, not a file"
    if name[-1] in ". ":
        return f"the name {name!r} ends with a dot or a space, which Windows drops"
    return None
