"""``python -m lessons_lib grade-server FILE``: grade a learner's MCP server over stdio. Lesson 12.

FILE may be a folder of learners' servers (``-o grades.csv``): each runs under the loop
gradebook's guard, one CSV row per learner (:mod:`lessons_lib.workshop.gradebook.servers`).

FILE is a ``.py`` file that serves ``search_notes`` over stdio when run as ``python FILE FOLDER``
(lesson 12 shows the four lines that make a notebook's server such a file). The grader starts it
as a subprocess with a folder of its own, talks to it with the official client over real frames,
and names the first broken expectation. ``--json`` prints the report as JSON. Exit 0 pass, 1 fail,
2 bad input (no such file, not a .py file, a syntax error, a ``--timeout`` not above 0): one line
on stderr, never a traceback. ``--timeout`` bounds every reply, ``initialize`` included; the
server's process is ended when the grading ends.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from lessons_lib.cli.gradeout import parse, report_exit

DESCRIPTION = (
    "Grade a learner's search_notes MCP server (lesson 12): start FILE as 'python FILE FOLDER' "
    "over stdio with a folder the learner never saw, send it requests with the official MCP client "
    "and name the first broken expectation. Exit codes: 0 pass; 1 an expectation broke; "
    "2 bad input (no such file, not a .py file, a syntax error)."
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lessons_lib grade-server", description=DESCRIPTION)
    parser.add_argument("file", help="the learner's server, a .py file")
    parser.add_argument(
        "--timeout",
        type=float,
        default=None,
        help="seconds per reply, initialize included (default 5 per reply and 30 for initialize, "
        "which waits for the server to import the SDK)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("-o", "--output", help="for a folder: write the CSV here (default: stdout)")
    args = parse(parser, argv)
    if isinstance(args, int):
        return args
    if args.timeout is not None and not args.timeout > 0:  # also refuses nan
        from lessons_lib.core.messages import t

        print(f"grade-server: {t('graders.timeout.negative', value=args.timeout)}", file=sys.stderr)
        return 2
    reply = 5.0 if args.timeout is None else args.timeout
    if Path(args.file).is_dir():
        return _folder(args.file, args.output, reply)
    from lessons_lib.workshop.server.grading import ServerInputError, grade_server_file

    return report_exit(
        "grade-server",
        lambda: grade_server_file(args.file, timeout=reply, start_timeout=args.timeout),
        ServerInputError,
        args.json,
    )


def _folder(folder: str, output: str | None, timeout: float) -> int:
    """A class's servers, each under the guard: one CSV row per learner (0 all passed, 1 some failed)."""
    from lessons_lib.workshop.gradebook.cli import OutputError, check_output, write_output
    from lessons_lib.workshop.gradebook.loops import GradebookInputError, to_csv
    from lessons_lib.workshop.gradebook.servers import grade_server_folder

    target = Path(output) if output else None
    try:
        if target is not None:
            check_output(target)
        rows = grade_server_folder(folder, timeout=timeout)
        text = to_csv(rows)
        if target is not None:
            write_output(target, text)
    except (GradebookInputError, OutputError) as exc:
        print(f"grade-server: {exc}", file=sys.stderr)
        return 2
    summary = sys.stdout if target is not None else sys.stderr
    if target is None:
        sys.stdout.write(text)
    for row in rows:
        print(f"{row.learner}: {'passed' if row.passed else row.link}", file=summary)
    return 0 if all(row.passed for row in rows) else 1
