"""The folder mode of ``python -m lessons_lib grade``: options, the CSV file, a short summary.

Introduced with lesson 11's gradebook. ``grade FOLDER -o grades.csv`` grades every submission
(see ``lessons_lib.course.gradebook``) and prints one summary line per learner; without
``-o`` the CSV goes to stdout and the summary to stderr. ``--function NAME`` grades one
exercise only: a step of lesson 11, or the small exercise of lesson 03, 06 or 07.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def gradebook_options(parser: argparse.ArgumentParser) -> None:
    """The options that only a folder uses."""
    from lessons_lib.course.gradebook import MEMORY_MB, TIMEOUT

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


def run_gradebook(args: argparse.Namespace) -> int:
    """Grade the folder ``args.file``; 0 all passed, 1 some failed, 2 bad input."""
    from lessons_lib.course.gradebook import GradebookInputError, exercises, grade_folder, to_csv

    if args.timeout < 1 or args.memory < 256 or args.jobs < 1:
        print(
            "grade: --timeout must be at least 1, --memory at least 256, --jobs at least 1", file=sys.stderr
        )
        return 2
    from lessons_lib.course.exercises_early import EARLY_NAMES

    known = (*exercises(), *EARLY_NAMES)  # lesson 11's steps, and the small exercises of 03, 06, 07
    if args.function and args.function not in known:
        print(f"grade: no exercise {args.function!r} (exercises: {', '.join(known)})", file=sys.stderr)
        return 2
    try:
        rows = grade_folder(
            args.file,
            functions=[args.function] if args.function else None,
            cells=args.cells,
            timeout=args.timeout,
            memory_mb=args.memory,
            jobs=args.jobs,
        )
    except GradebookInputError as exc:
        print(f"grade: {exc}", file=sys.stderr)
        return 2
    text = to_csv(rows)
    summary = sys.stdout
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
        summary = sys.stderr
    learners: dict[str, list[bool]] = {}
    for row in rows:
        learners.setdefault(row.learner, []).append(row.passed)
    for name, passed in learners.items():
        print(f"{name}: {sum(passed)}/{len(passed)} passed", file=summary)
    if args.output:
        print(f"{len(rows)} rows written to {args.output}", file=summary)
    return 0 if all(row.passed for row in rows) else 1
