"""``python -m lessons_lib trust [NOTEBOOK ...]``: let JupyterLab show the stored diagrams at once.

Run once before opening the first lesson (README), so each lesson's diagrams show unasked.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from lessons_lib.core.messages import t
from lessons_lib.core.paths import NOTEBOOK_DIR, lesson_notebooks
from lessons_lib.core.plugins.commands import command_help
from lessons_lib.course.trust import trust_notebooks


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lessons_lib trust", description=command_help("trust"))
    parser.add_argument(
        "notebooks",
        nargs="*",
        type=Path,
        help="default: every notebooks/NN_*.ipynb and notebooks/en/NN_*.ipynb",
    )
    args = parser.parse_args(argv)
    paths = args.notebooks or [*lesson_notebooks(), *sorted((NOTEBOOK_DIR / "en").glob("[0-9][0-9]_*.ipynb"))]
    missing = [p for p in paths if not p.is_file() or p.suffix != ".ipynb"]
    if not paths or missing:
        what = f"{missing[0]} is not a notebook file" if missing else f"no notebooks in {NOTEBOOK_DIR.name}/"
        print(f"trust: {what}; name .ipynb files, or run it from the course folder.", file=sys.stderr)
        return 2
    try:
        report = trust_notebooks(paths)
    except (OSError, ValueError) as exc:  # an unreadable notebook or trust database
        print(f"trust: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    for path, reason in report.refused:
        print(f"trust: not trusted {path.name}: {reason}", file=sys.stderr)
    print(t("trust.done", signed=len(report.signed), refused=len(report.refused)))
    return 1 if report.refused else 0
