"""Lesson 62: the official MCP conformance suite on the course's servers, and how to read its baseline.

:func:`baseline_kinds` sorts each example's expected failures (``data/conformance/*.yaml``) by why
they cannot apply, from the reason written beside each entry. :func:`run_suite` serves an example
on a free loopback port and runs the suite's requirement sets on it; where Node.js 22+ or the suite
is missing it returns one line saying which command installs it (no traceback, no machine path).
What it returns holds no port, path or duration.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from lessons_lib.core.messages import t
from lessons_lib.engine.http.conformance import REVISIONS, SUITE_VERSION, SuiteMissing, expected_failures

EXAMPLES: Final = ("files", "orders", "notes")
KINDS: Final = ("reference", "absent", "extension", "should")


def kind_of(reason: str) -> str:
    """Why an expected failure cannot apply, from its reason: one of :data:`KINDS`."""
    if reason.startswith("SHOULD"):
        return "should"
    if "reference" in reason:
        return "reference"
    if "extension" in reason:
        return "extension"
    return "absent"


def baseline_kinds() -> dict[str, Counter[str]]:
    """For each example, how many of its expected failures are of each kind."""
    return {ex: Counter(kind_of(e.reason) for e in expected_failures(ex)) for ex in EXAMPLES}


def kind_label(kind: str) -> str:
    """A kind in the reader's language."""
    return t(f"l60.suite.kind.{kind}")


def run_suite(example: str = "files", revisions: tuple[str, ...] = REVISIONS) -> list[str]:
    """Serve ``example`` on loopback, run the suite's sets on it: a line per set, or why it cannot run."""
    import logging

    from lessons_lib.engine.http.conformance import run_server_suite, suite_script
    from lessons_lib.engine.http.serve import running
    from lessons_lib.engine.http.serverlog import sdk_logs_one_line
    from lessons_lib.examples.network.servers import servers

    try:
        suite_script()
    except SuiteMissing as exc:
        missing = "Node.js" if "Node" in str(exc) else t("l60.suite.the_suite")
        return [t("l60.suite.missing", missing=missing, version=SUITE_VERSION)]
    sdk_logs_one_line(logging.CRITICAL)
    lines = []
    with running(servers()[example]()) as url:
        for revision in revisions:
            r = run_server_suite(url, revision, example)
            verdict = t("l60.suite.ok") if r.ok else t("l60.suite.surprise", listed=", ".join(r.unexpected))
            lines.append(
                t(
                    "l60.suite.line",
                    revision=revision,
                    scenarios=r.scenarios,
                    passed=r.passed,
                    failed=r.failed,
                    warnings=r.warnings,
                    verdict=verdict,
                )
            )
    return lines
