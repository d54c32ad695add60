"""Run a learner's server file under the gradebook's guard. Lesson 12 in a class.

``python -m lessons_lib.workshop.server.guarded ROOT FILE`` is what ``grade-server FOLDER`` starts
for each learner instead of ``python FILE ROOT``: a session (process group) of its own, the
memory and CPU limits the platform allows, and the loop gradebook's audit hook
(:class:`~lessons_lib.workshop.gradebook.guard.Guard`): it may read its own copy, the grader's
folder, the Python installation and ``lessons_lib``; it may write nowhere but its copy's folder;
no sockets but local pairs, no programs, no signals. Every refusal is written to stderr as a
line starting with :data:`REFUSED_MARK`, so the grader can fail the row and say why. The
environment is already scrubbed by the caller (the SDK's stdio client passes no keys).
"""

from __future__ import annotations

import os
import runpy
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from lessons_lib.workshop.gradebook.guard import Guard, drop_modules, own_process_group, set_limits

REFUSED_MARK: Final = "guard refused: "
MEMORY_MB: Final = 1536
CPU_SECONDS: Final = 120
FILE_MB: Final = 64
"""The largest file the server may write (in its own copy's folder): a server cannot fill the disk."""


def _file_size_limit() -> list[str]:
    """RLIMIT_FSIZE where the platform has it; the name of the limit when it could not be set."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_MB * 2**20, FILE_MB * 2**20))
    except (ImportError, AttributeError, ValueError, OSError):
        return ["file_size"]
    return []


class _Reporting(Guard):
    """The guard, and each refusal also on stderr (the grader reads the child's stderr)."""

    def _refuse(self, what: str) -> None:
        sys.__stderr__.write(f"{REFUSED_MARK}{what}\n") if sys.__stderr__ else None
        super()._refuse(what)


def _warm_up() -> None:
    """Import what a server uses before the hook is in place (the guard then allows no new reads
    outside the installation anyway; this only saves the refusals of harmless lookups)."""
    import lessons_lib.services.notes.server  # noqa: F401  (the SDK's server, pydantic, anyio)


def main(argv: Sequence[str] | None = None) -> int:
    """Guard this process, then run FILE as ``__main__`` with ``sys.argv = [FILE, ROOT]``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2:
        print("usage: python -m lessons_lib.workshop.server.guarded ROOT FILE", file=sys.stderr)
        return 2
    root, file = Path(args[0]).resolve(), Path(args[1]).resolve()
    missing = own_process_group() + set_limits(MEMORY_MB, CPU_SECONDS) + _file_size_limit()
    if missing:
        print(f"note: this platform could not set: {', '.join(missing)}", file=sys.stderr)
    _warm_up()
    package = Path(__file__).resolve().parents[2]  # lessons_lib
    installs = {Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)}
    reads = [file.parent, root, package, *installs, Path(os.devnull)]
    guard = _Reporting(reads, [file.parent, Path(os.devnull)])
    os.chdir(file.parent)
    sys.dont_write_bytecode = True
    drop_modules()
    sys.addaudithook(guard)
    sys.argv = [str(file), str(root)]
    sys.path.insert(0, str(file.parent))
    runpy.run_path(str(file), run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
