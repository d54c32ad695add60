"""What the two grading commands share: argument parsing without ``SystemExit`` and the report's
output and exit code (``grade``, lesson 11; ``grade-server``, lesson 12)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol


class Graded(Protocol):
    """A grading report: passed or not, its text and its JSON form."""

    @property
    def passed(self) -> bool: ...

    def text(self) -> str: ...

    def to_dict(self) -> Mapping[str, object]: ...


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace | int:
    """The parsed arguments, or the exit code argparse chose (``--help`` 0, a usage error 2)."""
    try:
        return parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return int(exc.code or 0)


def report_exit(command: str, grade: Callable[[], Graded], bad_input: type[Exception], as_json: bool) -> int:
    """Print the report (text or ``--json``) and answer 0 pass, 1 fail; bad input is one line, 2."""
    try:
        report = grade()
    except bad_input as exc:
        print(f"{command}: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2) if as_json else report.text())
    return 0 if report.passed else 1
