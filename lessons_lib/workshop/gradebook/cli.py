"""The folder mode of ``python -m lessons_lib grade``: options, the CSV file, a short summary.

Introduced with lesson 11's gradebook. ``grade FOLDER -o grades.csv`` grades every submission
(see ``lessons_lib.workshop.gradebook.loops``) and prints one summary line per learner; without
``-o`` the CSV goes to stdout and the summary to stderr. ``--function NAME`` grades one
exercise only: a step of lesson 11, or the small exercise of lesson 03, 06 or 07.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path


def gradebook_options(parser: argparse.ArgumentParser) -> None:
    """The options that only a folder uses."""
    from lessons_lib.workshop.gradebook.loops import MEMORY_MB, TIMEOUT

    group = parser.add_argument_group("a folder of submissions (a gradebook)")
    group.add_argument("-o", "--output", help="write the CSV here (default: stdout)")
    group.add_argument(
        "--timeout", type=int, default=TIMEOUT, help="seconds per exercise and learner (default %(default)s)"
    )
    group.add_argument(
        "--memory",
        type=int,
        default=MEMORY_MB,
        help="MB of address space per grading process (default %(default)s)",
    )
    group.add_argument("--jobs", type=int, default=2, help="submissions graded at once (default %(default)s)")


LIMIT_NAMES = {
    "memory": "memory limit (--memory)",
    "cpu": "CPU-time limit",
    "process_group": "own process group",
}


class OutputError(OSError):
    """The gradebook cannot be written where ``-o`` says: one line says why."""


def check_output(path: Path) -> None:
    """Before grading: ``-o`` names a file that can be written (not a folder, its folder exists)."""
    if path.is_dir():
        raise OutputError(f"-o {path} is a folder: give a file name, for example {path / 'grades.csv'}")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise OutputError(f"-o {path}: there is no folder {parent} (create it first)")
    if not os.access(parent, os.W_OK):
        raise OutputError(f"-o {path}: the folder {parent} cannot be written")


def write_output(path: Path, text: str) -> None:
    """Write the whole CSV to a temporary file beside ``path``, then rename it over ``path``."""
    check_output(path)
    parent = path.parent if str(path.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(temporary, path)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise OutputError(f"-o {path} cannot be written ({exc.strerror or type(exc).__name__})") from None


def run_gradebook(args: argparse.Namespace) -> int:
    """Grade the folder ``args.file``; 0 all passed, 1 some failed, 2 bad input."""
    from lessons_lib.workshop.gradebook.loops import GradebookInputError, exercises, grade, to_csv

    if args.timeout < 1 or args.memory < 256 or args.jobs < 1:
        print(
            "grade: --timeout must be at least 1, --memory at least 256, --jobs at least 1", file=sys.stderr
        )
        return 2
    from lessons_lib.workshop.loop.early import EARLY_NAMES

    known = (*exercises(), *EARLY_NAMES)  # lesson 11's steps, and the small exercises of 03, 06, 07
    if args.function and args.function not in known:
        print(f"grade: no exercise {args.function!r} (exercises: {', '.join(known)})", file=sys.stderr)
        return 2
    output = Path(args.output) if args.output else None
    try:
        if output is not None:
            check_output(output)  # before minutes of grading, not after
        rows, missing = grade(
            args.file,
            functions=[args.function] if args.function else None,
            cells=args.cells,
            timeout=args.timeout,
            memory_mb=args.memory,
            jobs=args.jobs,
        )
    except (GradebookInputError, OutputError) as exc:
        print(f"grade: {exc}", file=sys.stderr)
        return 2
    text = to_csv(rows)
    summary = sys.stdout
    if output is not None:
        try:
            write_output(output, text)
        except OutputError as exc:  # it became unwritable while grading: keep the gradebook anyway
            sys.stdout.write(text)
            print(f"grade: {exc}; the gradebook went to stdout instead", file=sys.stderr)
            return 2
    else:
        sys.stdout.write(text)
        summary = sys.stderr
    learners: dict[str, list[bool]] = {}
    for row in rows:
        learners.setdefault(row.learner, []).append(row.passed)
    for name, passed in learners.items():
        print(f"{name}: {sum(passed)}/{len(passed)} passed", file=summary)
    if missing:
        lacking = ", ".join(LIMIT_NAMES.get(m, m) for m in missing)
        print(
            f"note: this platform could not set: {lacking}; the wall-clock limit of {args.timeout} s "
            "per exercise, kept by the gradebook, still applies",
            file=sys.stderr,
        )
    if output is not None:
        print(f"{len(rows)} rows written to {output}", file=summary)
    return 0 if all(row.passed for row in rows) else 1
