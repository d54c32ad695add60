"""``python -m lessons_lib refresh [NOTEBOOK ...]``: run the lessons again and store their outputs."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from lessons_lib.core.paths import NOTEBOOK_DIR, lesson_notebooks
from lessons_lib.core.plugins.commands import command_help
from lessons_lib.course.refresh import refresh


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m lessons_lib refresh",
        description=command_help("refresh"),
    )
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: every notebooks/NN_*.ipynb")
    args = parser.parse_args(argv)
    paths = args.notebooks or lesson_notebooks()
    if not paths:
        print(
            f"refresh: no notebooks found in {NOTEBOOK_DIR.name}/; name them on the command line.",
            file=sys.stderr,
        )
        return 2
    for path in paths:
        if not path.is_file():
            print(f"refresh: {path} is not a notebook file.", file=sys.stderr)
            return 2
        try:
            refresh(path)
        except Exception as exc:  # a cell raised: say which notebook, keep the file as it was
            last = (str(exc).strip().splitlines() or [""])[-1]
            print(f"refresh: {path.name} failed: {type(exc).__name__}: {last}", file=sys.stderr)
            return 1
        print(f"refreshed {path.name}")
    return 0
