"""The simulated-Windows profile: remove what Windows' CPython lacks, before anything loads.

Put this folder first on ``PYTHONPATH`` and every Python process started with that environment
(the command, a Jupyter kernel, an MCP server it starts) imports this module at start-up, before
``lessons_lib`` or any SDK. It removes, as measured on Windows' CPython (GUIDE section 5):

- ``os.O_NOFOLLOW``, ``os.O_DIRECTORY``, ``os.O_NONBLOCK``;
- ``dir_fd``: ``os.supports_dir_fd`` is empty and ``os.open``/``os.stat``/``os.lstat`` given a
  ``dir_fd`` raise ``NotImplementedError``, as on Windows;
- ``os.fork`` and ``os.forkpty``;
- ``signal.SIGALRM``, ``signal.alarm``, ``signal.setitimer``, ``signal.getitimer``;
- the ``resource`` module: ``import resource`` in the course's own code (``lessons_lib``)
  raises ``ImportError``. Third-party packages that pick their POSIX code by ``sys.platform``
  (IPython's kernel imports ``pexpect`` -> ``ptyprocess`` -> ``resource``) still get it, since
  on Windows they take their Windows branch instead, which Linux cannot give them.

It is a simulation on Linux, not Windows: paths, the console, file locking, process creation
(``subprocess`` still forks through ``_posixsubprocess``) and the file system stay Linux's. With
``LESSONS_WINSIM_LOG`` set, each process appends one line (its command line) there, so a test can see
that a kernel really ran under the profile. Used by ``tests/platform/test_platform_winsim.py``.
"""

from __future__ import annotations

import builtins
import functools
import os
import signal
import sys

_REMOVED_OS = ("O_NOFOLLOW", "O_DIRECTORY", "O_NONBLOCK", "fork", "forkpty")
_REMOVED_SIGNAL = ("SIGALRM", "alarm", "setitimer", "getitimer")


def _no_dir_fd(func):  # type: ignore[no-untyped-def]
    @functools.wraps(func)
    def call(*args, dir_fd=None, **kwargs):  # type: ignore[no-untyped-def]
        if dir_fd is not None:
            raise NotImplementedError(f"{func.__name__}: dir_fd unavailable on this platform")
        return func(*args, **kwargs)

    return call


_COURSE = ("lessons_lib",)
_real_import = builtins.__import__


def _import(name, globals=None, locals=None, fromlist=(), level=0):  # type: ignore[no-untyped-def]
    importer = str((globals or {}).get("__name__", ""))
    if name == "resource" and importer.split(".")[0] in _COURSE:
        raise ModuleNotFoundError("No module named 'resource' (simulated Windows)", name="resource")
    return _real_import(name, globals, locals, fromlist, level)


def _apply() -> None:
    import posix

    for module in (os, posix):
        for name in _REMOVED_OS:
            if hasattr(module, name):
                delattr(module, name)
    for name in _REMOVED_SIGNAL:
        if hasattr(signal, name):
            delattr(signal, name)
    for name in ("open", "stat", "lstat"):
        setattr(os, name, _no_dir_fd(getattr(os, name)))
    os.supports_dir_fd = set()
    builtins.__import__ = _import
    log = os.environ.get("LESSONS_WINSIM_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(" ".join(getattr(sys, "orig_argv", sys.argv)[1:4]) + "\n")


_apply()
