"""``python -m lessons_lib run``: the whole chain once, told step by step or as JSON.

Introduced in lesson 03. Exit 0 when the model answered and no tool call failed (with or
without calls: ``--tool-choice auto`` may answer without one); 1 when the run stopped, failed,
or a tool call failed (the account still shows how the failure
travelled back); 2 for bad options (for example ``--live`` without ``OPENAI_API_KEY``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from lessons_lib.core.bounds import folder_arg
from lessons_lib.core.example import EXAMPLE_HEAD, EXAMPLE_PATH, FAILURE_PREFIX, SERVICE_NAME
from lessons_lib.core.plugins.apiregistry import api_entry, apis, reference_api
from lessons_lib.core.plugins.apishapes import feedback_items
from lessons_lib.core.plugins.exampleregistry import example_entry, example_names
from lessons_lib.core.traces import queries as q
from lessons_lib.core.traces.trace import Trace

if TYPE_CHECKING:
    from pathlib import Path

    from lessons_lib.engine.http.client import McpUrl

DESCRIPTION = (
    "Run the whole chain once (declaration, call, execution, feedback) and tell every message; "
    "--json prints the trace instead. Exit codes: 0 the model answered and no tool call failed "
    "(with or without calls); 1 the run stopped or failed, or a tool call failed; 2 bad options (for example "
    "--live without OPENAI_API_KEY)."
)


TOOL_CHOICES: dict[str, tuple[object, object]] = {
    "auto": ("auto", {"type": "auto"}),
    "required": ("required", {"type": "any"}),
    "none": ("none", {"type": "none"}),
    "any": ("required", {"type": "any"}),
}
"""``--tool-choice`` -> (the OpenAI value, the Anthropic value); ``any`` is Anthropic's ``required``."""


def main(argv: Sequence[str] | None = None) -> int:
    given_args = list(sys.argv[1:] if argv is None else argv)
    example = _example_named(given_args)
    if example is not None:  # another example (lessons 30-39: the order desk), from the example registry
        return _run_example(example, given_args)
    parser = argparse.ArgumentParser(prog="python -m lessons_lib run", description=DESCRIPTION)
    runnable = [n for n in example_names() if example_entry(n).run is not None]
    parser.add_argument(
        "--example",
        choices=runnable,
        help=f"another example: {', '.join(map(repr, runnable))} (see run --example orders --help)",
    )
    parser.add_argument("--path", help=f"logical path to read, sent as given (default {EXAMPLE_PATH})")
    lines = parser.add_mutually_exclusive_group()
    lines.add_argument(
        "--head", type=int, help=f"first N lines (default {EXAMPLE_HEAD} when neither is given)"
    )
    lines.add_argument("--tail", type=int, help="last N lines")
    parser.add_argument("--task", help="the user's whole task text, instead of --path/--head/--tail")
    parser.add_argument(
        "--root", type=folder_arg, help="folder served as /workspace (default: data/workspace)"
    )
    parser.add_argument(
        "--mcp-url",
        help="reach the file service over Streamable HTTP at this URL (python -m lessons_lib serve --http"
        " prints one; lesson 60); the trace adds each frame's HTTP envelope",
    )
    parser.add_argument(
        "--mcp-revision",
        choices=("2025-11-25", "2026-07-28"),
        default="2025-11-25",
        help="with --mcp-url: the MCP revision spoken (2025-11-25: a session; 2026-07-28: stateless)",
    )
    parser.add_argument(
        "--mcp-oauth",
        action="store_true",
        help="with --mcp-url: authorise with the course's OAuth client (serve --http --auth; lesson 61);"
        " prints the 401 -> metadata -> authorize -> token -> call sequence",
    )
    try:
        entries = apis()  # every API plug-in: the package's folders and LESSONS_LIB_APIS
    except ValueError as exc:  # LESSONS_LIB_APIS names a package that is not there
        print(f"run: {exc}", file=sys.stderr)
        return 2
    parser.add_argument(
        "--api",
        choices=[e.name for e in entries],
        default=reference_api(),
        help="model API (lesson 20): " + ", ".join(f"{e.name} ({e.title})" for e in entries),
    )
    keys = " or ".join(dict.fromkeys(e.key for e in entries))
    parser.add_argument("--live", action="store_true", help=f"call a real model (needs {keys})")
    parser.add_argument(
        "--tool-choice",
        choices=tuple(TOOL_CHOICES),
        help="the first request's tool_choice instead of the loop's 'required': auto, required, none, or "
        "any (Anthropic's word for required, accepted for every API); with 'auto' the model may ask "
        "instead of calling (lesson 08)",
    )
    parser.add_argument("--model", help="model name (default gpt-4.1, or LESSONS_MODEL)")
    parser.add_argument("--json", action="store_true", help="print the JSON trace instead of the account")
    args = parser.parse_args(argv)
    given = [f"--{name}" for name in ("path", "head", "tail") if getattr(args, name) is not None]
    if args.task is not None and given:
        print(
            f"run: --task replaces the task built from {'/'.join(given)}; give one or the other.",
            file=sys.stderr,
        )
        return 2

    from lessons_lib.engine.apis import setting_for

    try:
        no_key = args.live and setting_for(args.api, True) is None
    except ValueError as exc:  # a malformed OPENAI_BASE_URL
        print(f"run: {exc}", file=sys.stderr)
        return 2
    if no_key:
        entry = api_entry(args.api)
        print(f"run: --live --api {args.api} needs {entry.key}. {entry.enable_live()}", file=sys.stderr)
        return 2
    if args.root is not None and not args.root.is_dir():
        print(f"run: --root {args.root} is not a directory; give an existing folder.", file=sys.stderr)
        return 2
    from lessons_lib.engine.http.client import McpUrl

    service: Path | McpUrl | None = args.root
    if args.mcp_url is not None:
        if args.root is not None:
            print(
                "run: --root names a folder served here, --mcp-url a server elsewhere; give one.",
                file=sys.stderr,
            )
            return 2
        try:
            service = McpUrl(args.mcp_url, args.mcp_revision, oauth=args.mcp_oauth)
        except ValueError as exc:
            print(f"run: --mcp-url: {exc}", file=sys.stderr)
            return 2
    elif args.mcp_oauth:
        print("run: --mcp-oauth authorises a connection to --mcp-url; give the URL.", file=sys.stderr)
        return 2
    head = args.head if args.head is not None or args.tail is not None else EXAMPLE_HEAD

    from lessons_lib.engine.host import run_chain
    from lessons_lib.views.narrate import narrate

    services = {SERVICE_NAME: service} if service is not None else None
    trace = run_chain(
        args.task,
        path=args.path if args.path is not None else EXAMPLE_PATH,
        head=head,
        tail=args.tail,
        services=services,
        live=args.live,
        model=args.model,
        api=args.api,
        tool_choice=None
        if args.tool_choice is None
        else TOOL_CHOICES[args.tool_choice][api_entry(args.api).choice_family],
    )
    print(trace.to_json() if args.json else narrate(trace), end="" if args.json else "\n")
    if isinstance(service, McpUrl) and service.oauth and not args.json:
        print(oauth_account(service))
    if isinstance(service, McpUrl) and service.challenges:
        print(
            f"run: the service answered HTTP {service.challenges[0]}: it needs a token; add --mcp-oauth.",
            file=sys.stderr,
        )
    failed = failed_outputs(trace)
    if failed and not args.json:
        print(f"\nrun: {len(failed)} tool call(s) failed, exit code 1: {failed[0]}", file=sys.stderr)
    return 0 if trace.outcome.get("status") == "answered" and not failed else 1


def oauth_account(service: McpUrl) -> str:
    """The OAuth flow of a ``--mcp-oauth`` run (lesson 61): each hop, and who consented (no secret)."""
    from lessons_lib.engine.http.authserver import CONSENT_LABEL, CONSENT_PATH

    flow = service.flow()
    lines = ["", "OAuth flow (401 -> metadata -> authorize -> token -> call):", *(f"  {h}" for h in flow)]
    if any(f" {CONSENT_PATH}?" in hop and hop.endswith("-> 302") for hop in flow):
        lines.append(f"consent: {CONSENT_LABEL}")
    return "\n".join(lines)


def failed_outputs(trace: Trace) -> list[str]:
    """The feedback texts that report a failed call, from the last model request's input."""
    rounds = q.model_rounds(trace)
    items = feedback_items(rounds[-1].request, q.model_api(trace)) if rounds else []
    texts = [i.output for i in items]
    return [t for t in texts if isinstance(t, str) and t.startswith(FAILURE_PREFIX)]


def _example_named(args: Sequence[str]) -> str | None:
    for n, arg in enumerate(args):
        if arg == "--example":
            return args[n + 1] if n + 1 < len(args) else ""
        if arg.startswith("--example="):
            return arg.partition("=")[2]
    return None


def _run_example(name: str, args: Sequence[str]) -> int:
    """``run --example NAME ...``: the example's own run command, from its entry."""
    try:
        entry = example_entry(name)
    except ValueError as exc:
        print(f"run: {exc}", file=sys.stderr)
        return 2
    if entry.run is None:
        print(
            f"run: the example '{name}' has no run command; see its lessons ({entry.lessons})",
            file=sys.stderr,
        )
        return 2
    return int(entry.run(list(args)) or 0)
