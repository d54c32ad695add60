"""Open a file beneath a root without following a link out of it, on every OS. Lesson 03.

Two ways, one guarantee: nothing outside the root is opened, no link (nor a Windows reparse
point: a symlink or a junction) is followed out of it, and a part swapped for a link between
the check and the open is caught.

- **Descriptor walk**, where ``os.open`` has ``O_NOFOLLOW``, ``O_DIRECTORY`` and ``dir_fd``
  (Linux, macOS): each part is opened relative to its parent's descriptor with ``O_NOFOLLOW``,
  so the kernel refuses a part that is a link (``ELOOP``) or stopped being a folder.
- **Checked open**, everywhere else (Windows' CPython has none of the three): every part is
  checked with ``lstat`` (no link, no reparse point, folders are folders), the file is opened
  by its full name, and then the system is asked where the opened handle really is
  (:func:`handle_path`: ``GetFinalPathNameByHandleW`` on Windows, ``F_GETPATH`` on macOS,
  ``/proc/self/fd`` on Linux): that path must lie inside the root. The handle cannot be moved
  by a later swap, so this answer is not a snapshot of the path but of the file that was opened.
  Only where no such question can be asked, the path is resolved again after the open and its
  identity (``fstat``: device and file number) compared with the handle's: a weaker check that a
  swap racing the resolution itself can fool (a test counted 1 in 10,000 reads on Linux).

Which way is used is decided by :func:`beneath_supported`, a capability check read at each
call (never ``sys.platform``), so tests force the checked open by patching it. Written here
because Python has no portable ``openat2(RESOLVE_BENEATH)`` and no library offers one.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from pathlib import Path

_REPARSE_POINT = getattr(stat, "FILE_ATTRIBUTE_REPARSE_POINT", 0x400)


class NotRegularFile(OSError):
    """The last part is neither a folder nor a regular file (a FIFO, a socket, a device)."""


def beneath_supported() -> bool:
    """True when ``os.open`` can walk a path part by part without following links."""
    return (
        hasattr(os, "O_NOFOLLOW")
        and hasattr(os, "O_DIRECTORY")
        and os.open in getattr(os, "supports_dir_fd", set())
    )


def open_beneath(root: Path, parts: tuple[str, ...]) -> int:
    """A read-only descriptor on ``root/parts...``; OSError (``ELOOP`` for a link) otherwise.

    ``root`` must already be fully resolved. The caller checks the descriptor with ``fstat``
    (folder, regular file, size) and closes it.
    """
    if beneath_supported():
        return _walk_descriptors(root, parts)
    return _checked_open(root, parts)


def _flag(name: str) -> int:
    return int(getattr(os, name, 0))


def _walk_descriptors(root: Path, parts: tuple[str, ...]) -> int:
    cloexec = _flag("O_CLOEXEC")
    dir_flags = os.O_RDONLY | _flag("O_DIRECTORY") | _flag("O_NOFOLLOW") | cloexec
    file_flags = os.O_RDONLY | _flag("O_NOFOLLOW") | _flag("O_NONBLOCK") | cloexec
    fd = os.open(root, os.O_RDONLY | _flag("O_DIRECTORY") | cloexec)
    try:
        for n, part in enumerate(parts):
            child = os.open(part, file_flags if n == len(parts) - 1 else dir_flags, dir_fd=fd)
            os.close(fd)
            fd = child
        return fd
    except BaseException:
        os.close(fd)
        raise


def _is_symlink(info: os.stat_result) -> bool:
    """A symlink, or (Windows) a name-surrogate reparse point: a junction or a symlink."""
    return stat.S_ISLNK(info.st_mode) or bool(getattr(info, "st_file_attributes", 0) & _REPARSE_POINT)


def _symlink_error(name: str) -> OSError:
    return OSError(errno.ELOOP, "a part of the path is a link", name)


def _checked_open(root: Path, parts: tuple[str, ...]) -> int:
    path = str(root)
    info = os.stat(path)
    for n, part in enumerate(parts):
        path = os.path.join(path, part)
        info = os.lstat(path)  # on Windows: opens a symlink or junction itself, never its target
        if _is_symlink(info):
            raise _symlink_error(part)
        if n < len(parts) - 1 and not stat.S_ISDIR(info.st_mode):
            raise OSError(errno.ENOTDIR, "not a folder", part)
    if stat.S_ISDIR(info.st_mode):  # Windows cannot os.open a folder: decide before opening
        raise IsADirectoryError(errno.EISDIR, "is a folder", path)
    if not stat.S_ISREG(info.st_mode):  # never open a FIFO: without O_NONBLOCK it would block
        raise NotRegularFile(errno.EINVAL, "not a regular file", path)
    flags = os.O_RDONLY | _flag("O_BINARY") | _flag("O_NOINHERIT") | _flag("O_CLOEXEC")
    fd = os.open(path, flags | _flag("O_NOFOLLOW") | _flag("O_NONBLOCK"))
    try:
        same = _same_file_inside(root, path, os.fstat(fd), fd)
    except OSError:  # the path changed again while being resolved
        same = False
    except BaseException:
        os.close(fd)
        raise
    if not same:  # something in the path changed between lstat and open
        os.close(fd)
        raise _symlink_error(parts[-1])
    return fd


def _same_file_inside(root: Path, path: str, opened: os.stat_result, fd: int | None = None) -> bool:
    """Does the opened file lie inside ``root``? Asked of the handle where the system can say."""
    where = handle_path(fd) if fd is not None else None
    resolved = where if where is not None else os.path.realpath(path)
    base, target = os.path.normcase(str(root)), os.path.normcase(resolved)
    try:
        inside = os.path.commonpath([base, target]) == base
    except ValueError:  # another drive on Windows
        return False
    if where is not None:
        return inside
    return inside and os.path.samestat(opened, os.stat(resolved))


def handle_path(fd: int) -> str | None:
    """Where the open file ``fd`` really is, from the system; None where it cannot say.

    Capability checks, in order: ``/proc/self/fd`` (Linux), ``fcntl.F_GETPATH`` (macOS), the
    Win32 ``GetFinalPathNameByHandleW`` through ``ctypes`` (Windows). No library wraps these.
    """
    proc = f"/proc/self/fd/{fd}"
    if os.path.islink(proc):
        try:
            return os.readlink(proc)
        except OSError:
            return None
    try:
        import fcntl
    except ImportError:
        fcntl = None  # type: ignore[assignment]
    if fcntl is not None and hasattr(fcntl, "F_GETPATH"):
        try:
            raw = fcntl.fcntl(fd, fcntl.F_GETPATH, bytes(1024))
        except OSError:
            return None
        return os.fsdecode(raw.split(b"\0", 1)[0])
    if sys.platform == "win32":  # the only way to ask Windows; ctypes exists on every CPython there
        return _windows_handle_path(fd)
    return None


def _windows_handle_path(fd: int) -> str | None:  # pragma: no cover - Windows only
    import ctypes
    import msvcrt

    getter = ctypes.windll.kernel32.GetFinalPathNameByHandleW  # type: ignore[attr-defined]
    buffer = ctypes.create_unicode_buffer(32768)
    length = getter(msvcrt.get_osfhandle(fd), buffer, len(buffer), 0)  # type: ignore[attr-defined]
    if not 0 < length < len(buffer):
        return None
    name = buffer.value
    if name.startswith("\\\\?\\UNC\\"):
        return "\\\\" + name[8:]
    return name[4:] if name.startswith("\\\\?\\") else name
