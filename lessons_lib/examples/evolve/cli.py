"""``tool-replay`` (50), ``tool-catalogue`` (51), ``injection`` (52): what a teacher runs in class.

``tool-replay --version orders@2`` replays the recorded tasks of lessons 30-33 against another
version of the order desk and prints the release records side by side, the comparison and
the acceptance rows; exit 1 when anything that matters changed. ``--record`` records the
baseline again (maintainers). ``injection --defence none`` runs the notes-file attack through
the real loop with one defence (or ``all``); exit 1 when the injected write happened.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from lessons_lib.core.messages import t as message
from lessons_lib.core.plugins.commands import command_help


def main_replay(argv: Sequence[str] | None = None) -> int:
    from lessons_lib.examples.evolve.toolversions import DESK_V1, VERSIONS

    parser = argparse.ArgumentParser(
        prog="python -m lessons_lib tool-replay", description=command_help("tool-replay")
    )
    parser.add_argument("--version", default="orders@2", help=f"one of: {', '.join(VERSIONS)}")
    parser.add_argument("--task", action="append", metavar="NAME", help="replay only this recorded task")
    parser.add_argument("--record", action="store_true", help="record the baseline from orders@1 again")
    args = parser.parse_args(argv)
    if args.version not in VERSIONS:
        print(
            f"tool-replay: unknown version {args.version!r}; choose one of: {', '.join(VERSIONS)}",
            file=sys.stderr,
        )
        return 2
    from lessons_lib.examples.evolve.toolreplay import BASELINE, load_baseline, replay_version, write_baseline
    from lessons_lib.examples.evolve.upgrade import acceptance_rows, release_table

    if args.record:
        write_baseline()
        print(f"recorded {BASELINE.name} from {DESK_V1.name}")
        return 0
    baseline = load_baseline()
    unknown = [t for t in args.task or [] if t not in baseline["runs"]]
    if unknown:
        print(
            f"tool-replay: no recorded task {unknown[0]!r}; recorded: {', '.join(baseline['runs'])}",
            file=sys.stderr,
        )
        return 2
    if args.task:
        baseline = {**baseline, "runs": {k: v for k, v in baseline["runs"].items() if k in args.task}}
    version = VERSIONS[args.version]
    table = replay_version(version, baseline)
    print(release_table(DESK_V1, version), end="\n\n")
    print(table, end="\n\n")
    if not args.task:
        print(acceptance_rows(DESK_V1, version, table))
    return 0 if all(r[4] == message("status.pass") for r in table.rows) else 1


def main_injection(argv: Sequence[str] | None = None) -> int:
    from lessons_lib.examples.evolve.injection import DEFENCES

    parser = argparse.ArgumentParser(
        prog="python -m lessons_lib injection", description=command_help("injection")
    )
    parser.add_argument("--defence", default="all", help=f"one of: {', '.join(DEFENCES)}")
    parser.add_argument(
        "--table", action="store_true", help="run the attack once per defence and print the table"
    )
    args = parser.parse_args(argv)
    if args.defence not in DEFENCES:
        print(
            f"injection: unknown defence {args.defence!r}; choose one of: {', '.join(DEFENCES)}",
            file=sys.stderr,
        )
        return 2
    from lessons_lib.examples.evolve.injection import TARGET, attack_table, run_attack

    if args.table:
        print(attack_table())
        return 0
    got = run_attack(args.defence)
    print(message("evolve_cli.defence", defence=DEFENCES[args.defence]))
    for alias, status in got.calls:
        print(message("evolve_cli.call", alias=alias, status=status))
    print(message("evolve_cli.injected", target=TARGET, n=got.injected_rows))
    print(message("evolve_cli.answer", answer=got.answer))
    return 1 if got.harmed else 0


def main_catalogue(argv: Sequence[str] | None = None) -> int:
    """``tool-catalogue --size 200``: the declaration's tokens and the selection table for one size."""
    from lessons_lib.examples.evolve.catalogue import SIZES, catalogue

    parser = argparse.ArgumentParser(
        prog="python -m lessons_lib tool-catalogue", description=command_help("tool-catalogue")
    )
    parser.add_argument(
        "--size",
        type=int,
        default=200,
        help=f"tools in the catalogue (4-{len(catalogue())}; lesson 51 uses {SIZES})",
    )
    parser.add_argument(
        "--task", help="also show routing, the client-side search and the rule's pick for this task"
    )
    args = parser.parse_args(argv)
    try:
        tools = catalogue(args.size)
    except ValueError as exc:
        print(f"tool-catalogue: {exc}", file=sys.stderr)
        return 2
    from lessons_lib.examples.evolve.catalogue import declared_catalogue, token_count, tokenizer_label
    from lessons_lib.examples.evolve.selection import pick, route_domain, search_tools, selection_table

    tokens = token_count(declared_catalogue(args.size))
    print(message("evolve_cli.tokens", n=len(tools), tokens=tokens, tokenizer=tokenizer_label()))
    print(selection_table((args.size,)))
    if args.task:
        found = search_tools(args.task, args.size)
        names = ", ".join(t["name"] for t in found)
        print(message("evolve_cli.routed", domain=route_domain(args.task), names=names))
        print(message("evolve_cli.picked", name=pick(args.task, found)))
    return 0
