"""``conformance client`` (issue 36, lesson 62): the official suite's client scenarios on the course's client.

The system check runs both requirement sets (the suite starts each scenario's own server, the
auth ones with their authorization servers) against ``python -m lessons_lib.engine.http.conformance_client``
with ``data/conformance/client-expected-failures.yaml``; the fast tests check that file, the
arguments the client makes from a schema and the one-line answers.
"""

from __future__ import annotations

import time

import pytest
from _engine_support import clean_env, cli
from conftest import skip_or_fail

from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.engine.http import conformance
from lessons_lib.engine.http.conformance import REVISIONS, SuiteMissing, expected_failures, run_client_suite
from lessons_lib.engine.http.conformance_client import arguments_for, example_value


def test_every_expected_client_failure_says_why_and_none_excuses_what_the_course_teaches() -> None:
    entries = expected_failures("client")
    names = [e.name for e in entries]
    assert len(names) == len(set(names)) and all(len(e.reason) > 30 for e in entries)
    scenarios = {n for n in names if ":" not in n}
    taught = {
        "initialize",
        "tools_call",
        "request-metadata",
        "http-standard-headers",
        "auth/pre-registration",
    }
    taught |= {
        "auth/metadata-default",
        "auth/scope-step-up",
        "auth/resource-mismatch",
        "auth/iss-wrong-issuer",
    }
    assert not scenarios & taught


def test_the_client_fills_required_arguments_from_the_schema() -> None:
    schema: JSONObject = {
        "type": "object",
        "properties": {
            "a": {"type": "number"},
            "b": {"type": "integer"},
            "kind": {"type": "string", "enum": ["x", "y"]},
            "where": {
                "type": "object",
                "properties": {"n": {"type": ["boolean", "null"]}},
                "required": ["n"],
            },
            "optional": {"type": "string"},
        },
        "required": ["a", "b", "kind", "where"],
    }
    assert arguments_for(schema) == {"a": 1, "b": 1, "kind": "x", "where": {"n": True}}
    assert example_value({"type": "string", "default": "d"}) == "d" and arguments_for({}) == {}


def test_the_client_without_a_url_or_with_no_server_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from lessons_lib.engine.http.conformance_client import main
    from lessons_lib.engine.http.serve import url_of
    from lessons_lib.engine.http.sockets import bind

    assert main([]) == 2
    with bind("127.0.0.1", 0) as sock:  # bound, never served: the connection is refused or hangs up
        url = url_of(sock)
    assert main([url]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "Traceback" not in err


def test_a_missing_suite_is_one_line_and_exit_2(tmp_path: object) -> None:
    done = cli("conformance", "client", env=clean_env(LESSONS_CONFORMANCE=str(tmp_path)))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "conformance install" in done.stderr


def _suite_or_skip() -> None:
    try:
        conformance.suite_script()
    except SuiteMissing as exc:
        skip_or_fail(str(exc))


@pytest.mark.parametrize("revision", REVISIONS)
def test_the_suites_client_scenarios_pass_with_only_justified_failures(revision: str) -> None:
    """About 25 s (2025-11-25) and 45 s (2026-07-28): every client scenario of the set, auth included."""
    _suite_or_skip()
    started = time.monotonic()
    result = run_client_suite(revision)
    print(f"client {result.line()} [{time.monotonic() - started:.1f} s]")
    assert result.ok and not result.unexpected, result.line()
    assert result.scenarios >= 25 and result.passed > 250


def test_the_client_command_survives_a_space_in_the_interpreters_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The suite splits the command on spaces and gives the rejoined line to a shell: it must be quoted."""
    import shlex

    monkeypatch.setattr(conformance.sys, "executable", "/opt/my python/bin/python3")
    monkeypatch.setattr(conformance.os, "name", "posix")
    assert shlex.split(conformance.client_command()) == [
        *("/opt/my python/bin/python3", "-m", conformance.CLIENT_MODULE)
    ]
    monkeypatch.setattr(conformance.os, "name", "nt")
    assert conformance.client_command().startswith('"/opt/my python/bin/python3" -m ')
