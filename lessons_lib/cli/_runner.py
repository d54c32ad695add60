"""The runner shared by ``verify-fields``, ``verify-roundtrip`` and ``diagnose`` (lessons 07-08).

Each command takes one optional JSON path (default: a file in ``data/``), prints the answer
with the file's name (never its absolute path) and exits 0 when everything passes, 1 when a
check failed or a link is broken, 2 for bad input (one sentence on stderr, no traceback).
Standard library only (the checks run where nothing else is installed).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from lessons_lib.checks.jsoncheck import Fail, short
from lessons_lib.checks.verify_report import CheckReport
from lessons_lib.core.messages import t
from lessons_lib.core.paths import DATA_DIR
from lessons_lib.core.plugins.commands import command_help


def run_command(
    prog: str,
    argv: Sequence[str] | None,
    *,
    default: str,
    what: str,
    description: str | None,
    judge: Callable[[str], CheckReport],
) -> int:
    """Parse ``[PATH]``, judge the file and print the answer (``judge`` raises Fail or ValueError)."""
    parser = argparse.ArgumentParser(
        prog=f"python -m lessons_lib {prog}", description=description or command_help(prog)
    )
    parser.add_argument("path", nargs="?", default=None, help=f"{what} (default: data/{default})")
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return int(exc.code or 0)
    path = args.path if args.path is not None else str(DATA_DIR / default)
    try:
        answer = judge(path)
    except (Fail, ValueError) as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    print(answer.text().replace(answer.title, t("runner.title", title=answer.title, path=short(path)), 1))
    return 0 if answer.ok else 1
