"""``python -m lessons_lib record [--out DIR]``: re-record the fixtures in ``data/`` (lesson 06)
and, with the default ``--out``, the two attachments of the stand-alone ``examples/`` (lesson 07)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from lessons_lib.core.paths import DATA_DIR
from lessons_lib.core.plugins.commands import command_help
from lessons_lib.course.record import STANDALONE_DIR, record_fixtures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lessons_lib record", description=command_help("record"))
    parser.add_argument("--out", type=Path, default=DATA_DIR, help="folder to write into (default: data/)")
    args = parser.parse_args(argv)
    try:
        examples = STANDALONE_DIR if args.out == DATA_DIR else args.out / "examples"
        written = record_fixtures(args.out, examples)
    except OSError as exc:
        print(f"record: cannot write into {args.out}: {exc.strerror or type(exc).__name__}", file=sys.stderr)
        return 1
    except RuntimeError as exc:  # RendererMissing: says which renderer to install
        print(f"record: {exc}", file=sys.stderr)
        return 1
    for path in written:
        base = args.out if path.is_relative_to(args.out) else examples.parent
        print(f"wrote {path.relative_to(base).as_posix()}")
    return 0
