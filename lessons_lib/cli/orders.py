"""``python -m lessons_lib run --example orders --scenario NAME``: one order-desk scenario.

Introduced in lesson 31. Prints the answer, the call ledger and the many-call checks (or the
JSON trace with ``--json``). Exit 0 when the run answered and every call pairs up; 1 when it
stopped, or a check failed; 2 for bad options.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path


def main(argv: Sequence[str] | None = None) -> int:
    from lessons_lib.lab.orders import scenario, scenario_names

    names = scenario_names()
    listing = "\n".join(f"  {n:<14} {scenario(n).title}" for n in names)
    parser = argparse.ArgumentParser(
        prog="python -m lessons_lib run --example orders",
        description=__doc__,
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

    from lessons_lib.engine.models import ENABLE_LIVE, live_setting

    if args.live and live_setting() is None:
        print(f"run: --live needs OPENAI_API_KEY. {ENABLE_LIVE}", file=sys.stderr)
        return 2

    from lessons_lib.checks.ledger import check_calls
    from lessons_lib.lab.orders import ledger_table, run_scenario

    run = run_scenario(args.scenario, live=args.live, model=args.model)
    trace = run.trace
    problems = check_calls(trace)
    if args.json:
        print(trace.to_json(), end="")
    else:
        print(f"场景 {args.scenario}：{scenario(args.scenario).title}")
        print(f"任务：{trace.task}")
        print(f"结果：{trace.outcome['status']}（{trace.outcome['reason']}）")
        print(f"答复：{trace.answer}")
        print("\n调用台账：")
        print(ledger_table(trace).text())
        print(f"\n订单 O-1042 的调查单行数：{run.rows('O-1042')}")
        print("多调用核对：" + ("全部配对" if not problems else "；".join(problems)))
    return 0 if trace.outcome["status"] == "answered" and not problems else 1


def main_verify_calls(argv: Sequence[str] | None = None) -> int:
    """``python -m lessons_lib verify-calls TRACE``: 0 every call pairs up, 1 a check failed, 2 bad input."""
    import json
    import sys

    args = list(argv or [])
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print("usage: python -m lessons_lib verify-calls TRACE.json\n\n" + (__doc__ or "").split("\n")[0])
        return 0 if args and args[0] in ("-h", "--help") else 2
    try:
        data = json.loads(Path(args[0]).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"verify-calls: cannot read {args[0]} as JSON ({exc}); give a trace file", file=sys.stderr)
        return 2
    if not isinstance(data, dict) or "events" not in data:
        print(
            "verify-calls: this is not a trace; write one with 'run --example orders --json'", file=sys.stderr
        )
        return 2
    from lessons_lib.checks.manycalls import verify_calls

    report = verify_calls(data)
    print(report.text())
    return 0 if report.ok else 1
