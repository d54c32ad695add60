"""``python -m lessons_lib tree FILE [--event E] [--highlight PATH] [--html OUT]`` (lesson 03).

A trace file is loaded through ``load_trace``, so a malformed one is refused with one line.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from lessons_lib.core.fieldkinds.msgtype import detect_type
from lessons_lib.core.messages import t
from lessons_lib.core.traces.trace import Trace, event_number
from lessons_lib.core.traces.tracetypes import Event
from lessons_lib.views.fieldtree import FieldTree, load_message


def _event_list(name: str, events: list[Event]) -> str:
    lines = [
        t("clitree.events", name=name, n=len(events)),
        t("clitree.header"),
    ]
    for e in events:
        route = f"{e['from']} → {e['to']}"
        lines.append(f"  {event_number(e)}  {e['channel']:<5}  {route:<26}  {e['label']}")
    return "\n".join(lines)


def _chosen(events: list[Event], wanted: str) -> list[Event]:
    """The events ``--event`` names: a course number as listed (``8``, ``08``, ``[08]``) or a label."""
    number = wanted.strip("[] ")
    return [e for e in events if e["label"] == wanted or (number.isdigit() and e["seq"] + 1 == int(number))]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m lessons_lib tree FILE [--event E] [--highlight PATH] [--html OUT]``."""
    parser = argparse.ArgumentParser(
        prog="python -m lessons_lib tree",
        description="Print a message as a field tree, or export it as an HTML page.",
    )
    parser.add_argument("file", help="a JSON message or trace file, or a fixture name such as request_1")
    parser.add_argument(
        "--event", help="for a trace: the event to show, by its number as listed (from 1) or its label"
    )
    parser.add_argument("--highlight", action="append", help="a field path or pattern to open and mark")
    parser.add_argument("--html", metavar="OUT", help="write a standalone HTML page instead of printing")
    parser.add_argument("--depth", type=int, default=3, help="levels open in the HTML page (default 3)")
    args = parser.parse_args(argv)
    try:
        message, title, hint = load_message(args.file)
        if detect_type(message) == "trace":
            events = Trace.from_dict(message).events  # one shape check: a malformed trace stops here
            if args.event is None:
                print(_event_list(title, events))
                return 0
            chosen = _chosen(events, args.event)
            if not chosen:
                raise ValueError(f"no event {args.event!r} in {title}; run without --event to list them")
            message, title, hint = load_message(chosen[0])
        elif args.event is not None:
            raise ValueError(f"--event needs a trace file, and {title} is a single message")
        tree = FieldTree(
            message, title=title, message_type=hint, highlight=args.highlight, open_depth=args.depth
        )
        if args.html:
            Path(args.html).write_text(tree.page(), encoding="utf-8")
            print(f"wrote {args.html}")
        else:
            sys.stdout.write(tree.text())
    except (ValueError, OSError) as exc:
        print(f"tree: {exc}", file=sys.stderr)
        return 2
    return 0
