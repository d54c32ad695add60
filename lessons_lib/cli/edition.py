"""``python -m lessons_lib edition en build|status [NOTEBOOK ...]``: the English edition (maintainers).

``status`` lists, per lesson, what is missing or stale (translation store, English notebook, English
quiz bank) and exits 1 when anything is; ``build`` writes ``notebooks/en/`` from the Chinese lessons
and the store ``i18n/en/`` and runs them (``--no-run`` skips the run). See CONTRIBUTING.md.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from lessons_lib.core.paths import lesson_notebooks
from lessons_lib.core.plugins.commands import command_help
from lessons_lib.course.edition import EDITIONS, EditionError, build, drift, store_path
from lessons_lib.course.quiz import bank_file


def _quiz_missing(notebook: Path) -> bool:
    lesson = int(notebook.name[:2])
    return bank_file(lesson, "zh").is_file() and not bank_file(lesson, "en").is_file()


def status(paths: Sequence[Path], lang: str, root: Path | None) -> int:
    """Print one line per problem and a summary; 1 when any lesson is not current."""
    current, lines = 0, []
    for path in paths:
        problems = [p.line for p in drift(path, lang, root)]
        if _quiz_missing(path):
            problems.append(f"{path.name}: no English quiz bank quiz_bank/en/lesson_{path.name[:2]}.json yet")
        if not problems:
            current += 1
        lines += problems
    print("\n".join(lines + [f"edition {lang}: {current} of {len(paths)} lessons current."]))
    return 0 if current == len(paths) else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m lessons_lib edition", description=command_help("edition")
    )
    parser.add_argument("lang", choices=EDITIONS, help="the edition")
    parser.add_argument("action", choices=("build", "status"))
    parser.add_argument(
        "notebooks", nargs="*", type=Path, help="Chinese lessons (default: every notebooks/NN_*.ipynb)"
    )
    parser.add_argument("--store", type=Path, default=None, help="the store's root (default: i18n/)")
    parser.add_argument("--no-run", action="store_true", help="build without running the notebooks")
    args = parser.parse_args(argv)
    paths = args.notebooks or lesson_notebooks()
    for path in paths:
        if not path.is_file():
            print(f"edition: {path} is not a notebook file.", file=sys.stderr)
            return 2
    try:
        if args.action == "status":
            return status(paths, args.lang, args.store)
        if not args.notebooks:  # every lesson: build those with a store, say which have none
            every, paths = paths, [p for p in paths if store_path(p, args.lang, args.store).is_file()]
            if len(paths) < len(every):
                print(
                    f"skipping {len(every) - len(paths)} lessons without a store (edition {args.lang} status)"
                )
            if not paths:
                print(
                    f"edition: no translation store in i18n/{args.lang}/ yet; nothing to build.",
                    file=sys.stderr,
                )
                return 1
        for path in paths:
            target = build(path, args.lang, args.store, run=not args.no_run)
            print(f"built {args.lang}/{target.name}" + ("" if args.no_run else " and stored its outputs"))
    except EditionError as exc:
        print(f"edition: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # a cell raised while running: say which, keep the rest
        last = (str(exc).strip().splitlines() or [""])[-1]
        print(f"edition: running failed: {type(exc).__name__}: {last}", file=sys.stderr)
        return 1
    return 0
