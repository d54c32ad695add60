"""``python -m lessons_lib openapi ...``: the order API, its document and its tools (lessons 40-41).

Subcommands:

- ``document``: the OpenAPI 3.1 document, checked with ``openapi-spec-validator`` first;
- ``tools [--api responses|chat] [--report]``: the generated tool declarations, each checked
  against the official OpenAI description; ``--report`` lists what strict mode cannot express;
- ``call NAME --args JSON``: one generated tool called through the router to the in-process
  API (a fresh database, a random token that is never printed); exit 1 if the call failed;
- ``ways``: the same task as a direct function, OpenAPI tools and an MCP server;
- ``serve [--port N] [--db FILE]``: the API on 127.0.0.1 with uvicorn; clients send the bearer
  token given in the environment variable ``ORDERS_API_TOKEN``, or else a new one printed once.

Exit 2 for bad input. ``python -m lessons_lib run --example openapi [--way W] [--live] [--json]``
(:func:`main_run`) runs the task one way through the course's loop, offline or live.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path

from lessons_lib.core.bounds import port_arg
from lessons_lib.core.echo import short
from lessons_lib.core.example import FAILURE_PREFIX
from lessons_lib.core.messages import t
from lessons_lib.core.plugins.apiregistry import api_entry, apis, reference_api
from lessons_lib.core.plugins.commands import command_help

TOKEN_ENV = "ORDERS_API_TOKEN"


def _token() -> str:
    return os.environ.get(TOKEN_ENV, "").strip() or secrets.token_urlsafe(16)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m lessons_lib openapi", description=command_help("openapi")
    )
    sub = parser.add_subparsers(dest="what", required=True)
    sub.add_parser("document", help="print the OpenAPI document (validated)")
    tools = sub.add_parser("tools", help="print the generated tool declarations")
    checked = [e.name for e in apis() if e.tool_schema]  # the APIs whose declarations data/specs can check
    tools.add_argument("--api", choices=checked, default=reference_api())
    tools.add_argument("--report", action="store_true", help="list what strict mode cannot express")
    call = sub.add_parser("call", help="call one generated tool through the router")
    call.add_argument("name", help="tool name, e.g. get_order")
    call.add_argument("--args", default="{}", help='arguments as JSON text, e.g. \'{"order_id": "O-1042"}\'')
    sub.add_parser("ways", help="the same task three ways: function, OpenAPI, MCP")
    serve = sub.add_parser("serve", help="run the order API on 127.0.0.1")
    serve.add_argument(
        "--port",
        type=port_arg,
        default=8040,
        help="a port from 1 to 65535, or 0 for any free one (default 8040)",
    )
    serve.add_argument("--db", type=Path, help="an order database file (default: a fresh one)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2
    handler = {"document": _document, "tools": _tools, "call": _call, "ways": _ways, "serve": _serve}
    return handler[args.what](args)


def _document(args: argparse.Namespace) -> int:
    from openapi_spec_validator import validate

    from lessons_lib.examples.openapi.app import openapi_document

    document = openapi_document()
    validate(document)
    print(json.dumps(document, ensure_ascii=False, indent=1))
    return 0


def _tools(args: argparse.Namespace) -> int:
    from lessons_lib.engine.specs import tool_errors
    from lessons_lib.examples.openapi.app import openapi_document
    from lessons_lib.examples.openapi.tools import operations, strict_report

    failed = 0
    declare = api_entry(args.api).shapes.declare
    for op in operations(openapi_document()):
        tool = declare(op.name, op.description, op.parameters)
        errors = tool_errors(args.api, tool)
        failed += bool(errors)
        print(json.dumps(tool, ensure_ascii=False, indent=1))
        where = f"path {op.path_params}, query {op.query_params}, body {op.body_params}"
        print(f"# {op.method} {op.path}: {where}; call layer: {', '.join(op.call_layer) or 'none'}")
        print("# official schema: " + ("ok" if not errors else "; ".join(errors)))
        if args.report:
            for line in [*op.notes, *strict_report(op)] or ["nothing to report"]:
                print(f"#   {line}")
    return 1 if failed else 0


def _call(args: argparse.Namespace) -> int:
    from lessons_lib.engine.execute import parse_arguments
    from lessons_lib.engine.runsync import run_sync
    from lessons_lib.examples.openapi.router import Exchange, Routed, open_order_api

    arguments, problem = parse_arguments(args.args)  # the loop's own parsing and refusals
    if arguments is None:
        print(
            f'openapi call: --args: {problem}; give an object like \'{{"order_id": "O-1042"}}\'.',
            file=sys.stderr,
        )
        return 2
    seen: list[Exchange] = []

    async def run() -> Routed | None:
        async with open_order_api(_token(), sink=seen.append) as router:
            if args.name not in router.operations:
                return None
            return await router.call(args.name, arguments)

    routed = run_sync(run)
    if routed is None:
        print(
            f"openapi call: no tool {short(args.name)!r}; try get_order, search_delivery_policy or"
            " create_investigation.",
            file=sys.stderr,
        )
        return 2
    for exchange in seen:
        print(
            t(
                "openapi.cli.exchange",
                method=exchange.method,
                url=exchange.url,
                status=exchange.status,
                auth=exchange.auth,
            )
        )
    print(routed.feedback)
    return 1 if routed.is_error else 0


def _ways(args: argparse.Namespace) -> int:
    from lessons_lib.examples.openapi.choices import choice_table
    from lessons_lib.examples.openapi.threeways import run_three_ways

    runs = run_three_ways(_token())
    print(choice_table(runs).text(), end="")
    return 0 if all(r.paired for r in runs.values()) else 1


def _serve(args: argparse.Namespace) -> int:  # pragma: no cover - runs until interrupted
    token = os.environ.get(TOKEN_ENV, "").strip()
    if args.db is not None and not args.db.is_file():
        print(f"openapi serve: --db {args.db} is not a file; omit it for a fresh database.", file=sys.stderr)
        return 2
    problem = _port_taken(args.port)
    if problem:  # before the banner and the token: nothing printed promises a server that never starts
        print(f"openapi serve: --port {args.port}: {problem}; choose another port.", file=sys.stderr)
        return 2
    import uvicorn

    from lessons_lib.examples.openapi.app import build_app
    from lessons_lib.services.orders.data import create_database

    if not token:  # a new token for this server only, printed once (never stored, never logged)
        token = secrets.token_urlsafe(16)
        print(f"bearer token (shown once): {token}", flush=True)
    app = build_app(args.db or create_database(), token)
    base = f"http://127.0.0.1:{args.port}"
    print(f"order API on {base} (document at /openapi.json); send Authorization: Bearer <token>", flush=True)
    print(f'try: curl -H "Authorization: Bearer $TOKEN" {base}/orders/O-1042', flush=True)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")
    return 0


def _port_taken(port: int) -> str | None:
    """Why 127.0.0.1:``port`` cannot be served (in use, not allowed), or None."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as exc:
            return exc.strerror or type(exc).__name__
    return None


def main_run(argv: Sequence[str] | None = None) -> int:
    """``run --example openapi``: lesson 40's task one way, through the one loop; offline or ``--live``.

    Exit 0 answered and no call failed; 1 the run stopped or failed, or a call failed; 2 bad options.
    """
    from lessons_lib.examples.openapi.threeways import TASK, WAYS

    parser = argparse.ArgumentParser(
        prog="python -m lessons_lib run --example openapi",
        description=(
            f"Run lesson 40's task ({TASK}) one way through the course's loop: a direct function, the "
            "OpenAPI-generated tools and router, or the MCP server generated from the document; print "
            "the answer and the hops, or the trace with --json. Exit codes: 0 answered and no call "
            "failed; 1 the run stopped or a call failed; 2 bad options."
        ),
    )
    parser.add_argument("--example", choices=["openapi"], default="openapi", help="the OpenAPI example")
    parser.add_argument("--way", choices=WAYS, default="openapi", help="how the call is executed")
    parser.add_argument("--live", action="store_true", help="send the task to a real model (OPENAI_API_KEY)")
    parser.add_argument("--model", help="model name (default gpt-4.1, or LESSONS_MODEL)")
    parser.add_argument("--json", action="store_true", help="print the JSON trace instead of the account")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2
    from lessons_lib.engine.models import enable_live_hint, live_setting

    try:
        no_key = args.live and live_setting() is None
    except ValueError as exc:  # a malformed OPENAI_BASE_URL
        print(f"run: {exc}", file=sys.stderr)
        return 2
    if no_key:
        print(f"run: --live needs OPENAI_API_KEY. {enable_live_hint()}", file=sys.stderr)
        return 2
    from lessons_lib.core.outcomes import answer_or_none, outcome_text
    from lessons_lib.examples.openapi.threeways import run_way

    run = run_way(args.way, _token(), live=args.live, model=args.model)
    trace = run.trace
    assert trace is not None
    failed = run.output.startswith(FAILURE_PREFIX)
    if args.json:
        print(trace.to_json(), end="")
    else:
        print(t("openapi.cli.way", way=args.way))
        print(t("openapi.cli.task", task=trace.task))
        print(t("openapi.cli.hops", hops=" → ".join(run.hops) or t("openapi.cli.no_hops")))
        print(t("openapi.cli.outcome", outcome=outcome_text(trace.outcome)))
        print(t("openapi.cli.answer", answer=answer_or_none(trace.answer)))
    return 0 if trace.outcome.get("status") == "answered" and not failed else 1
