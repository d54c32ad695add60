"""``verify-fields``, ``verify-roundtrip`` and ``diagnose``: the checks' command lines (lessons 07-08).

Exit 0 when everything passes, 1 when a check failed or a link is broken, 2 for bad input.
Standard library only, like the checks themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from lessons_lib.checks.doctor import diagnose
from lessons_lib.checks.evidence import attachment_kind
from lessons_lib.checks.jsoncheck import load_json, need
from lessons_lib.checks.verify import verify_fields, verify_roundtrip
from lessons_lib.checks.verify_report import Report
from lessons_lib.cli._runner import run_command
from lessons_lib.core.jsonvalue import JSON


def main_fields(argv: Sequence[str] | None = None) -> int:
    """``python -m lessons_lib verify-fields [PATH]``: 0 all pass, 1 a check failed, 2 bad input."""
    return _main(
        "verify-fields", "field_fragments.json", argv, ("fragments", "roundtrip", "trace"), verify_fields
    )


def main_roundtrip(argv: Sequence[str] | None = None) -> int:
    """``python -m lessons_lib verify-roundtrip [PATH]``: 0 all pass, 1 a check failed, 2 bad input."""
    return _main(
        "verify-roundtrip", "responses_roundtrip.json", argv, ("roundtrip", "trace"), verify_roundtrip
    )


def _main(
    prog: str,
    default: str,
    argv: Sequence[str] | None,
    kinds: tuple[str, ...],
    verify: Callable[[JSON], Report],
) -> int:
    def judge(path: str) -> Report:
        data = load_json(path)
        need(
            attachment_kind(data) in kinds,
            f"{path} is not a {' / '.join(kinds)} file; give {default} or trace.json",
        )
        return verify(data)

    return run_command(prog, argv, default=default, what="JSON file", description=None, judge=judge)


def main_diagnose(argv: Sequence[str] | None = None) -> int:
    """``python -m lessons_lib diagnose [PATH]``: 0 the chain is whole, 1 a link is broken, 2 bad input."""
    return run_command(
        "diagnose",
        argv,
        default="trace.json",
        what="trace file",
        description=None,
        judge=lambda path: diagnose(Path(path)),
    )
