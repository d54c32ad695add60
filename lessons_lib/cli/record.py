"""``python -m lessons_lib record [--out DIR]``: re-record the fixtures in ``data/`` (lesson 06)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from lessons_lib.core.commands import command_help
from lessons_lib.core.paths import DATA_DIR
from lessons_lib.course.record import record_fixtures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lessons_lib record", description=command_help("record"))
    parser.add_argument("--out", type=Path, default=DATA_DIR, help="folder to write into (default: data/)")
    args = parser.parse_args(argv)
    try:
        written = record_fixtures(args.out)
    except (OSError, RuntimeError) as exc:  # RendererMissing is a RuntimeError too
        print(f"record: {exc}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path.relative_to(args.out).as_posix()}")
    return 0
