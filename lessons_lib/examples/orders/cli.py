"""``python -m lessons_lib run --example orders --scenario NAME``: one order-desk scenario.

Introduced in lesson 31. Prints the answer, the call ledger and the many-call checks (or the
JSON trace with ``--json``). Exit 0 when the run answered and every call pairs up; 1 when it
stopped, or a check failed; 2 for bad options.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from lessons_lib.core.messages import speaking, t


def main(argv: Sequence[str] | None = None) -> int:
    from lessons_lib.examples.orders.lab import scenario, scenario_names

    names = scenario_names()
    with speaking("en"):  # the help is English, like every option's help around it
        listing = "\n".join(f"  {n:<14} {scenario(n).title}" for n in names)
    parser = argparse.ArgumentParser(
        prog="python -m lessons_lib run --example orders",
        description=(
            "Run one order-desk scenario (lessons 30-33) and print the answer, the call ledger and the "
            "many-call checks, or the trace with --json. Exit codes: 0 answered and every call pairs up; "
            "1 the run stopped or a check failed; 2 bad options."
        ),
        epilog="scenarios:\n" + listing,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--example", choices=["orders"], default="orders", help="the order desk (lessons 30-39)"
    )
    parser.add_argument("--scenario", default="parallel", metavar="NAME", help="one of the scenarios below")
    parser.add_argument(
        "--live", action="store_true", help="send the same task to a real model (OPENAI_API_KEY)"
    )
    parser.add_argument("--model", help="model name (default gpt-4.1, or LESSONS_MODEL)")
    parser.add_argument("--json", action="store_true", help="print the JSON trace instead of the account")
    args = parser.parse_args(argv)
    if args.scenario not in names:
        print(f"run: unknown scenario {args.scenario!r}; choose one of: {', '.join(names)}", file=sys.stderr)
        return 2

    from lessons_lib.engine.models import enable_live_hint, live_setting

    if args.live and live_setting() is None:
        print(f"run: --live needs OPENAI_API_KEY. {enable_live_hint()}", file=sys.stderr)
        return 2

    from lessons_lib.checks.ledger import check_calls
    from lessons_lib.examples.orders.lab import ledger_table, run_scenario

    run = run_scenario(args.scenario, live=args.live, model=args.model)
    from lessons_lib.core.outcomes import answer_or_none, outcome_text

    trace = run.trace
    problems = check_calls(trace)
    if args.json:
        print(trace.to_json(), end="")
    else:
        print(t("orders_cli.scenario", name=args.scenario, title=scenario(args.scenario).title))
        print(t("orders_cli.task", task=trace.task))
        print(t("orders_cli.outcome", outcome=outcome_text(trace.outcome)))
        print(t("orders_cli.answer", answer=answer_or_none(trace.answer)))
        print("\n" + t("orders_cli.ledger"))
        print(ledger_table(trace).text())
        print("\n" + t("orders_cli.rows", order_id="O-1042", rows=run.rows("O-1042")))
        checked = t("orders_cli.all_paired") if not problems else t("orders_cli.sep").join(problems)
        print(t("orders_cli.checks") + checked)
    return 0 if trace.outcome["status"] == "answered" and not problems else 1


def main_verify_calls(argv: Sequence[str] | None = None) -> int:
    """``python -m lessons_lib verify-calls TRACE``: 0 every call pairs up, 1 a check failed, 2 bad input."""
    parser = argparse.ArgumentParser(
        prog="python -m lessons_lib verify-calls",
        description=(
            "Check a trace with many rounds and many calls (for example from run --example orders --json): "
            "each round with verify-roundtrip and diagnose, then the pairing of the whole run. Exit codes: "
            "0 every call pairs up, 1 a check failed, 2 bad input."
        ),
    )
    parser.add_argument("trace", help="a trace file (JSON)")
    args = parser.parse_args(argv)
    from lessons_lib.core.bounds import load_json_file

    try:
        data = load_json_file(args.trace)
    except ValueError as exc:
        print(f"verify-calls: {exc}; give a trace file", file=sys.stderr)
        return 2
    from lessons_lib.checks.manycalls import verify_calls

    try:
        report = verify_calls(data)  # first checks that it is a trace at all
    except ValueError as exc:
        print(f"verify-calls: {exc}", file=sys.stderr)
        return 2
    print(report.text())
    return 0 if report.ok else 1
