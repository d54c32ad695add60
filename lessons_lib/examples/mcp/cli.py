"""``python -m lessons_lib mcp-revisions`` and ``mcp-structure`` (lessons 42 and 43).

``mcp-revisions --head 5`` runs the same ``tools/call`` at 2025-06-18, 2025-11-25 and
2026-07-28, prints each revision's frame sequence, the request and its answer, and checks
every frame against its own revision's official schema (exit 1 if one fails). ``--head`` takes
a number, or a quoted one (``--head '"5"'``) to see input validation differ by revision.
``mcp-structure`` walks the server's tools, resources and prompts and prints the labelled text
the model would receive. Exit 2 for bad options.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from lessons_lib.core.messages import t
from lessons_lib.core.plugins.commands import command_help


def _head(text: str) -> int | float | str:
    from lessons_lib.core.bounds import parse_json

    try:
        value = parse_json(text, what="--head")  # NaN, Infinity, 1e400: refused, not sent as null
    except ValueError:
        raise argparse.ArgumentTypeError(f"--head must be JSON, e.g. 5 or '\"5\"', got {text!r}") from None
    if not isinstance(value, int | float | str) or isinstance(value, bool):
        raise argparse.ArgumentTypeError(f"--head must be a number or a quoted string, got {text!r}")
    return value


def main_revisions(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m lessons_lib mcp-revisions", description=command_help("mcp-revisions")
    )
    parser.add_argument("--head", type=_head, default=5, help="the head value to send (JSON; default 5)")
    parser.add_argument("--json", action="store_true", help="print every recorded frame as JSON")
    parser.add_argument("--table", action="store_true", help="print the field-by-field table")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2

    from lessons_lib.examples.mcp.revisions import record_revisions

    runs = record_revisions(head=args.head)
    if args.json:
        frames = {rev: [f.body for f in run.frames] for rev, run in runs.items()}
        print(json.dumps(frames, ensure_ascii=False, indent=1))
    elif args.table:
        from lessons_lib.examples.mcp.revisiontable import revision_table

        print(revision_table(runs).text(), end="")
    failed = 0
    for rev, run in runs.items():
        bad = {label: errs for label, errs in run.schema_errors().items() if errs}
        failed += len(bad)
        if args.json or args.table:
            continue
        print(t("mcp_cli.revision", revision=rev, negotiated=run.negotiated))
        print(t("mcp_cli.frames", labels=" → ".join(run.labels())))
        print(t("mcp_cli.request", request=json.dumps(run.call, ensure_ascii=False)))
        print(t("mcp_cli.answer", answer=json.dumps(run.answer, ensure_ascii=False)))
        verdict = t("mcp_cli.all_valid") if not bad else t("mcp_cli.invalid", n=len(bad), bad=bad)
        print(t("mcp_cli.checked", verdict=verdict))
    if failed:
        print(f"mcp-revisions: {failed} frame(s) fail their own revision's schema", file=sys.stderr)
    return 1 if failed else 0


def main_structure(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m lessons_lib mcp-structure", description=command_help("mcp-structure")
    )
    parser.add_argument("--lines", type=int, default=5, help="lines to read and to summarise (default 5)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2
    if args.lines < 1:
        print("mcp-structure: --lines must be at least 1.", file=sys.stderr)
        return 2

    from lessons_lib.examples.mcp.structure import labelled, tour_structure

    tour = tour_structure(args.lines)
    methods = [str(f["method"]) for f in tour.frames if "method" in f]
    print(t("mcp_cli.methods", methods=" → ".join(methods)))
    print(t("mcp_cli.links", links=", ".join(tour.links)))
    for piece in tour.pieces:
        print()
        print(labelled(piece))
    return 0
