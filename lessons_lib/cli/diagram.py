"""``python -m lessons_lib diagram {actors,loop,chain,trace} [--trace F] [--step S] [-o OUT.svg]``.

Introduced in lesson 01. ``--trace`` is read through ``load_trace``: a malformed trace is refused
with one line (exit 2).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from lessons_lib.core.messages import t
from lessons_lib.core.paths import DATA_DIR
from lessons_lib.views.diagrams import actors_diagram, chain_diagram, loop_diagram
from lessons_lib.views.dot import RendererMissing
from lessons_lib.views.sequence import trace_diagram


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m lessons_lib diagram {actors,loop,chain,trace} [--trace F] [--step S] [-o OUT.svg]``."""
    parser = argparse.ArgumentParser(
        prog="python -m lessons_lib diagram",
        description="Draw a course diagram as SVG, or print its DOT text.",
    )
    parser.add_argument("which", choices=["actors", "loop", "chain", "trace"])
    parser.add_argument("--trace", help="trace file for 'trace' (default: data/trace.json)")
    parser.add_argument("--step", help=t("diagram_cli.step"))
    parser.add_argument(
        "-o", "--output", help="write OUT.svg (drawn) or OUT.dot (.gv); without it, print the DOT text"
    )
    args = parser.parse_args(argv)
    try:
        if args.which == "trace":
            diagram = trace_diagram(Path(args.trace) if args.trace else DATA_DIR / "trace.json")
        elif args.which == "chain":
            diagram = chain_diagram(args.step)
        else:
            diagram = actors_diagram() if args.which == "actors" else loop_diagram()
        if not args.output:
            sys.stdout.write(diagram.source)
            return 0
        diagram.save(args.output)
    except RendererMissing as exc:
        print(f"diagram: {exc} (or leave out -o to print the DOT text)", file=sys.stderr)
        return 1
    except (ValueError, OSError, RuntimeError) as exc:
        print(f"diagram: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.output}")
    return 0
