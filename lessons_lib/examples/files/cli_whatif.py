"""``python -m lessons_lib whatif --head 20 --vs 5 [--all | --key | --counts]`` (or ``--tail``).

Lesson 09. By default only the fields that changed are printed (a dozen rows); ``--all`` prints
every field compared (about 150 rows, wider than a terminal).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from lessons_lib.core.example import EXAMPLE_HEAD, EXAMPLE_PATH
from lessons_lib.core.plugins.apiregistry import apis, is_reference, reference_api
from lessons_lib.examples.files.whatif import compare_head, compare_tail


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m lessons_lib whatif --head 20 --vs 5 [--all | --key | --counts]`` (or ``--tail``)."""
    parser = argparse.ArgumentParser(
        prog="python -m lessons_lib whatif",
        description="Run the chain twice, compare every field and print the ones that changed (lesson 09).",
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--head", type=int, help="the first run's head (default 20)")
    which.add_argument("--tail", type=int, help="compare tail values instead of head")
    parser.add_argument("--vs", type=int, default=5, help="the second run's value (default 5)")
    parser.add_argument("--path", default=EXAMPLE_PATH, help="logical path to read (default %(default)s)")
    try:
        names = [e.name for e in apis()]  # every API plug-in: the package's folders and LESSONS_LIB_APIS
    except ValueError as exc:
        print(f"whatif: {exc}", file=sys.stderr)
        return 2
    parser.add_argument("--api", choices=names, default=reference_api(), help="model API (lesson 20)")
    view = parser.add_mutually_exclusive_group()
    view.add_argument("--changed", action="store_true", help="only the fields that changed (the default)")
    view.add_argument("--all", action="store_true", help="every field compared, changed or not")
    view.add_argument("--key", action="store_true", help="only the lesson's key fields")
    view.add_argument(
        "--counts", action="store_true", help="fields compared and changed, by message and kind"
    )
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.tail is not None and not is_reference(args.api):
        print(
            "whatif: --api compares head runs (lesson 20); use --head with it, or drop --api.",
            file=sys.stderr,
        )
        return 2
    try:
        if args.tail is not None:
            table = compare_tail(args.tail, args.vs, path=args.path)
        else:
            head = EXAMPLE_HEAD if args.head is None else args.head
            table = compare_head(head, args.vs, path=args.path, api=args.api)
    except ValueError as exc:
        print(f"whatif: {exc}; give positive whole numbers, e.g. --head 20 --vs 5.", file=sys.stderr)
        return 2
    if args.counts:
        print(table.counts().text(), end="")
        return 0
    table = table if args.all else table.key() if args.key else table.changed()
    print(table.text(), end="")
    return 0
