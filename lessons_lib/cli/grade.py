"""``python -m lessons_lib grade FILE``: grade a learner's application loop offline. Lesson 11.

FILE is a ``.py`` file or a notebook (its cells tagged ``exercise``). ``--function NAME``
picks the function (default ``app_loop``, the whole loop; a step's name such as
``route_call`` runs that step's checker, and ``mcp_request``, ``find_ids``, ``break_chain`` the
small exercises of lessons 03, 06, 07). ``--cells solution`` grades a notebook's reference
cells instead of the learner's. ``--json`` prints the report as JSON for a
gradebook. Exit 0 pass, 1 fail, 2 bad input (no such file, no such function, a syntax
error, not a ``.py`` or ``.ipynb`` file): one line on stderr, never a traceback. ``--timeout``
(default 20 s) bounds a single file too: it is graded in a child process that is ended when the
time is up; Ctrl-C prints one line (exit 130).

FILE may be a folder of learners' submissions (``lessons_lib.workshop.gradebook.loops``): every
exercise of lesson 11 (or only ``--function``) is graded per learner, each submission in its own
process with limits, and ``-o grades.csv`` gets one row per learner and exercise (stdout
without ``-o``). Exit 0 when every row passed, 1 when some failed, 2 bad input.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from lessons_lib.cli.bounded import run_bounded
from lessons_lib.cli.gradeout import parse, report_exit
from lessons_lib.workshop.gradebook.cli import gradebook_options

DESCRIPTION = (
    "Grade a learner's application loop offline, with the real SDKs, on the example and on cases "
    "the learner did not see. FILE is a .py file or a notebook (its cells tagged exercise). "
    "Exit codes: 0 pass; 1 a check failed; 2 bad input (no such file, no such function, "
    "a syntax error). FILE may be a folder of submissions: one CSV row per learner and exercise."
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lessons_lib grade", description=DESCRIPTION)
    parser.add_argument("file", help="the learner's .py file or .ipynb notebook, or a folder of them")
    parser.add_argument(
        "--function",
        help="function to grade (default app_loop, the whole loop; a step's name, e.g. route_call, "
        "runs that step's check; for a folder: every exercise of lesson 11)",
    )
    parser.add_argument(
        "--cells",
        default="exercise",
        choices=("exercise", "solution"),
        help="for a notebook: which tagged cells to run (default %(default)s; solution = the reference)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--in-process", action="store_true", help=argparse.SUPPRESS)
    gradebook_options(parser)
    args = parse(parser, argv)
    if isinstance(args, int):
        return args
    if Path(args.file).is_dir():
        from lessons_lib.workshop.gradebook.cli import run_gradebook

        return run_gradebook(args)
    if args.timeout < 1:
        print(f"grade: --timeout must be at least 1 (seconds); got {args.timeout}", file=sys.stderr)
        return 2
    if not args.in_process:  # the learner's code runs in a child that a time bound can end
        rest = list(sys.argv[2:] if argv is None else argv)  # without the command's name
        return run_bounded("grade", rest, args.timeout, Path(args.file).name)

    from lessons_lib.workshop.loop.grading import GradeInputError
    from lessons_lib.workshop.loop.grading_files import grade_file

    function = args.function or "app_loop"
    return report_exit(
        "grade",
        lambda: grade_file(args.file, function=function, cells=args.cells),
        GradeInputError,
        args.json,
    )
