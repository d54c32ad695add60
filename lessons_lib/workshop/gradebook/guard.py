"""The guard of a grading process: an audit hook, the limits the platform allows, no forbidden modules.

Introduced with the gradebook (lesson 11's grader over a folder). The learner's code runs in a
grading process (``gradebook_worker``) under :class:`Guard`, a Python audit hook
(``sys.addaudithook``) that refuses:

- opening files outside the allowed folders (the learner's own copy, the course's
  ``/workspace``, the Python installation and ``lessons_lib`` for imports), writing outside the
  learner's own copy;
- removing, renaming, linking, creating or changing files outside the learner's own copy
  (``os.remove``, ``os.rename``, ``os.link``, ``os.symlink``, ``os.mkdir``...), any of them
  relative to a directory descriptor, and ``sqlite3.connect`` to a file outside it;
- network sockets, starting programs (``subprocess``, ``os.exec*``, ``os.fork``...), sending
  signals (``os.kill``, ``os.killpg``), and importing ``ctypes``, ``_ctypes`` or
  ``_posixsubprocess`` (:func:`drop_modules` first removes them where already imported).

:func:`set_limits` sets what the platform allows (memory and CPU through ``resource`` where it
exists) and returns the names of the limits it could not set, so the gradebook can say so.
This stops honest mistakes and casual attempts; code inside the process can still get around
an audit hook: for hostile code, grade in each learner's own container.
"""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path
from types import BuiltinFunctionType
from typing import Final

from lessons_lib.core.messages import t

REFUSED_EVENTS: Final = (
    "subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
    "pty.spawn", "os.startfile", "_winapi.CreateProcess", "ctypes.dlopen", "ctypes.dlsym",
    "os.kill", "os.killpg", "signal.pthread_kill", "socket.connect", "socket.bind", "socket.sendto",
    "socket.sendmsg", "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr",
)  # fmt: skip
FORBIDDEN_MODULES: Final = ("ctypes", "_ctypes", "_posixsubprocess")
PATH_EVENTS: Final = {  # event -> (positions of paths it changes, position of its dir_fd or None)
    "os.remove": ((0,), 1),
    "os.rmdir": ((0,), 1),
    "os.mkdir": ((0,), 2),
    "os.rename": ((0, 1), 2),
    "os.link": ((0, 1), 2),
    "os.symlink": ((0, 1), 2),
    "os.truncate": ((0,), None),
    "os.chmod": ((0,), 2),
    "os.chown": ((0,), 3),
    "os.utime": ((0,), 3),
    "os.chflags": ((0,), None),
    "os.setxattr": ((0,), None),
    "os.removexattr": ((0,), None),
    "shutil.rmtree": ((0,), 1),
}
WRITE_FLAGS: Final = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
MEMORY_DB: Final = ("", ":memory:")


def _kind(event: str) -> str:
    if event.startswith("socket."):
        return t("gradebook_guard.kind.2")
    if "ctypes" in event:
        return t("gradebook_guard.kind.3")
    if "kill" in event:
        return t("gradebook_guard.kind.4")
    return t("gradebook_guard.kind.1")


class Guard:
    """The audit hook: what it refused so far, in the order it refused it."""

    def __init__(self, read_roots: list[Path], write_roots: list[Path]) -> None:
        self.read_roots = [os.path.realpath(r) for r in read_roots]
        self.write_roots = [os.path.realpath(r) for r in write_roots]
        self.refused: list[str] = []

    def _inside(self, path: str, roots: list[str]) -> bool:
        real = os.path.realpath(path)
        return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in roots)

    def _refuse(self, what: str) -> None:
        self.refused.append(what)
        raise PermissionError(t("gradebook_guard.refuse.1", what=what))

    def __call__(self, event: str, args: tuple[object, ...]) -> None:
        if event == "open":
            self._open(*args[:3])
        elif event in ("os.listdir", "os.scandir") and isinstance(args[0], (str, bytes, os.PathLike)):
            name = os.fsdecode(args[0])
            if not self._inside(name, self.read_roots):
                self._refuse(t("gradebook_guard.call.1", name=name))
        elif event in PATH_EVENTS:
            self._change(event, args)
        elif event == "sqlite3.connect":
            self._database(args[0])
        elif event == "import" and str(args[0]).partition(".")[0] in FORBIDDEN_MODULES:
            self._refuse(t("gradebook_guard.call.2", args=args[0]))
        elif event == "socket.__new__" and args[1] != getattr(socket, "AF_UNIX", None):
            self._refuse(t("gradebook_guard.call.3"))
        elif event in REFUSED_EVENTS or event.startswith("os.exec"):
            self._refuse(t("gradebook_guard.call.4", kind=_kind(event), event=event, args=_short(args)))

    def _open(self, path: object, mode: object, flags: object) -> None:
        if not isinstance(path, (str, bytes, os.PathLike)):
            return  # None, or an already open file descriptor
        name = os.fsdecode(path)
        writing = bool(set(str(mode or "")) & set("wax+")) or (
            isinstance(flags, int) and flags & WRITE_FLAGS != 0
        )
        if not self._inside(name, self.write_roots if writing else self.read_roots):
            self._refuse(
                t("gradebook_guard.open.write" if writing else "gradebook_guard.open.read", name=name)
            )

    def _change(self, event: str, args: tuple[object, ...]) -> None:
        positions, dir_fd_at = PATH_EVENTS[event]
        dir_fd = args[dir_fd_at] if dir_fd_at is not None and dir_fd_at < len(args) else None
        if dir_fd not in (None, -1):
            self._refuse(t("gradebook_guard.change.1", event=event))
        for at in positions:
            target = args[at] if at < len(args) else None
            if not isinstance(target, (str, bytes, os.PathLike)) or not self._inside(
                os.fsdecode(target), self.write_roots
            ):
                self._refuse(t("gradebook_guard.change.2", event=event, value=_short((target,))))

    def _database(self, database: object) -> None:
        name = os.fsdecode(database) if isinstance(database, (str, bytes, os.PathLike)) else ""
        if name in MEMORY_DB:
            return
        if name.startswith("file:") or not self._inside(name, self.write_roots):
            self._refuse(t("gradebook_guard.database.1", value=_short((name,))))


def _short(args: tuple[object, ...]) -> str:
    text = ", ".join(str(a) for a in args[:2])
    return text if len(text) <= 80 else text[:77] + "..."


def drop_modules(names: tuple[str, ...] = FORBIDDEN_MODULES) -> None:
    """Forget already imported forbidden modules, and every module attribute that holds one of them.

    An import of a module already in ``sys.modules`` raises no audit event, so the guard can only
    refuse an import that really happens; this makes the next ``import _posixsubprocess`` one.
    """
    dropped = [m for m in (sys.modules.pop(n, None) for n in names) if m is not None]
    for module in list(sys.modules.values()):
        space = getattr(module, "__dict__", None)
        if not isinstance(space, dict):
            continue
        for key, value in list(space.items()):
            native = isinstance(value, BuiltinFunctionType) and value.__module__ in names
            if native or any(value is m for m in dropped):
                del space[key]


def set_limits(memory_mb: int, cpu_seconds: int) -> list[str]:
    """Address space and CPU time of this process where the platform allows; the limits not set."""
    try:
        import resource
    except ImportError:  # Windows: no resource module
        return ["memory", "cpu"]
    missing = []
    for name, limit, soft, hard in (
        ("memory", "RLIMIT_AS", memory_mb * 2**20, memory_mb * 2**20),
        ("cpu", "RLIMIT_CPU", cpu_seconds, cpu_seconds + 5),
    ):
        try:
            resource.setrlimit(getattr(resource, limit), (soft, hard))
        except (AttributeError, ValueError, OSError):  # macOS may refuse RLIMIT_AS
            missing.append(name)
    return missing


def own_process_group() -> list[str]:
    """Start a session (and process group) of its own where the platform can; else name the lack."""
    if not hasattr(os, "setsid"):
        return ["process_group"]
    try:
        os.setsid()
    except OSError:  # already a group leader
        pass
    return []
