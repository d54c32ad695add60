"""``conformance`` (issue 36, lesson 62): the official MCP suite against our servers over HTTP.

The system check runs the pinned suite (``.ci/run`` installs it and sets ``LESSONS_CONFORMANCE``)
on each example for each requirement set, with the example's expected failures; the fast tests
check those files (every entry says why) and the one-line answers when something is missing.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from _engine_support import clean_env, cli
from conftest import REPO_ROOT, skip_or_fail

from lessons_lib.engine.http import conformance
from lessons_lib.engine.http.conformance import (
    REVISIONS,
    SUITE_VERSION,
    SuiteMissing,
    expected_failures,
    run_server_suite,
)

EXAMPLES = ("files", "orders", "notes")


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_expected_failure_says_why(example: str) -> None:
    entries = expected_failures(example)
    names = [e.name for e in entries]
    assert len(names) == len(set(names)) and len(names) > 20
    assert all(len(e.reason) > 30 for e in entries)
    scenarios = {n.partition(":")[0] for n in names if ":" not in n}
    checks = {n.partition(":")[0] for n in names if ":" in n}
    assert not scenarios & checks  # the suite rejects a scenario listed both wholesale and per check
    # the scenarios that test what the course's servers do are never excused wholesale
    assert not scenarios & {"server-initialize", "server-stateless", "tools-list", "ping", "caching"}
    assert not scenarios & {"dns-rebinding-protection", "http-header-validation", "server-session-lifecycle"}


def test_an_entry_without_a_reason_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "x-expected-failures.yaml").write_text("server:\n  - ping  # why\n  - tools-list\n", "utf-8")
    monkeypatch.setattr(conformance, "EXPECTED_DIR", tmp_path)
    with pytest.raises(ValueError, match=r"x-expected-failures.yaml:3: tools-list has no '# reason'"):
        expected_failures("x")


def test_a_missing_suite_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = cli(
        "conformance", "server", "--example", "notes", env=clean_env(LESSONS_CONFORMANCE=str(tmp_path))
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "conformance install" in done.stderr


def test_ci_and_the_test_extra_pin_what_the_code_runs() -> None:
    ci = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert f'CONFORMANCE_VERSION="{SUITE_VERSION}"' in ci and "export LESSONS_CONFORMANCE=" in ci
    pyproject = (REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'"{conformance.NODE_WHEEL}"' in pyproject


def _suite_or_skip() -> None:
    try:
        conformance.suite_script()
    except SuiteMissing as exc:
        skip_or_fail(str(exc))


@pytest.mark.parametrize("revision", REVISIONS)
@pytest.mark.parametrize("example", EXAMPLES)
def test_the_official_suite_passes_with_only_justified_failures(example: str, revision: str) -> None:
    """About 4-11 s per pair: the whole requirement set of the revision, over a real socket."""
    from lessons_lib.engine.http.serve import running
    from lessons_lib.examples.network.servers import servers as _servers

    _suite_or_skip()
    started = time.monotonic()
    with running(_servers()[example]()) as url:
        result = run_server_suite(url, revision, example)
    print(f"{example} {result.line()} [{time.monotonic() - started:.1f} s with the server]")
    assert result.ok, result.line()
    assert result.scenarios > 30 and result.passed > 40 and not result.unexpected


def test_a_bad_server_file_stops_before_the_suite_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from lessons_lib.cli import main

    script = tmp_path / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
    script.parent.mkdir(parents=True)
    script.write_text("process.exit(9)\n", encoding="utf-8")  # never run: the file is refused first
    monkeypatch.setenv("LESSONS_CONFORMANCE", str(tmp_path))
    assert main(["conformance", "server", "--file", str(tmp_path / "nope.py")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "no such file" in err


def test_the_suites_unexpected_and_stale_entries_are_named() -> None:
    from lessons_lib.engine.http.conformance import SetResult, _unexpected

    stdout = (  # the end of a real run with a stale entry (ping) and a missing one (tools-call-error)
        "Total: 41 passed, 26 failed\n\n\x1b[33mExpected failures (in baseline):\x1b[0m\n\n"
        "\x1b[31mStale baseline entries (now passing - remove from baseline):\x1b[0m\n  ✓ ping\n\n"
        "\x1b[31mUnexpected failures (not in baseline):\x1b[0m\n  ✗ tools-call-error\n\n"
        "\x1b[31mBaseline is stale: update your expected-failures file to remove passing entries.\x1b[0m\n\n"
        "\x1b[31mUnexpected failures detected: these are not in your expected-failures baseline.\x1b[0m\n"
    )
    assert _unexpected(stdout) == ["ping", "tools-call-error"]
    line = SetResult("2025-11-25", 33, 41, 26, 2, False, ["ping", "tools-call-error"], 2.9).line()
    assert line.endswith("listed as expected yet passed): ping, tools-call-error (2.9 s)")
