"""Lessons 60-61's exercise checkers: right answers in several styles pass, wrong ones are named.

The Origin cases are checked against the SDK's own Host/Origin middleware as the course's HTTP
servers configure it, and the audience cases against the course's token verifier on real signed
tokens, so a checker cannot drift from what the servers do.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import pytest

from lessons_lib.core.messages import speaking
from lessons_lib.course.exercises.network import (
    AUDIENCE_CASES,
    ORIGIN_CASES,
    SERVICE,
    check_audience,
    check_origin,
)


def origin_by_parsing(origin: str | None) -> bool:
    if origin is None:
        return True
    parts = urlsplit(origin)
    try:
        port = parts.port
    except ValueError:
        return False
    return (
        parts.scheme in ("http", "https")
        and parts.hostname in ("127.0.0.1", "localhost", "::1")
        and port is not None
    )


ALLOWED = re.compile(r"^https?://(127\.0\.0\.1|localhost|\[::1\]):[0-9]+$")


def origin_by_pattern(origin: str | None) -> bool:
    return origin is None or bool(ALLOWED.match(origin))


def origin_by_prefix(origin: str | None) -> bool:
    if origin is None:
        return True
    for scheme in ("http", "https"):
        for host in ("127.0.0.1", "localhost", "[::1]"):
            base = f"{scheme}://{host}:"
            if origin.startswith(base) and origin[len(base) :].isdigit():
                return True
    return False


@pytest.mark.parametrize("answer", [origin_by_parsing, origin_by_pattern, origin_by_prefix])
def test_right_origin_checks_pass(answer: Any) -> None:
    assert check_origin(answer).passed


@pytest.mark.parametrize(
    ("answer", "named"),
    [
        (lambda o: True, "'http://localhost'"),
        (lambda o: o is None or "localhost" in o or "127.0.0.1" in o or "[::1]" in o, "'http://localhost'"),
        (
            lambda o: (
                o is None
                or o.startswith(("http://localhost", "http://127.0.0.1", "https://localhost", "http://[::1]"))
                and ":" in o[7:]
            ),
            "'http://localhost.attacker.example:8000'",
        ),
        (lambda o: o is not None and bool(ALLOWED.match(o)), "None"),
        (lambda o: "yes", "None"),
    ],
)
def test_wrong_origin_checks_are_named(answer: Any, named: str) -> None:
    verdict = check_origin(answer)
    assert not verdict.passed
    assert verdict.lines[-1].startswith("✗ ") and f"Origin {named}" in verdict.lines[-1]


def test_blank_raising_and_non_function_answers_get_one_line() -> None:
    assert check_origin(...).unfinished
    with speaking("en"):
        raised = check_origin(lambda o: o.lower() == "x")
        assert not raised.passed and raised.lines == (
            "Calling your function failed: AttributeError: 'NoneType' object has no attribute 'lower'",
        )
        assert not check_origin("http://localhost").passed


def test_each_origin_case_is_what_the_sdk_middleware_decides() -> None:
    from mcp.server.transport_security import TransportSecurityMiddleware

    from lessons_lib.engine.http.serve import security

    middleware = TransportSecurityMiddleware(security("127.0.0.1"))
    assert [middleware._validate_origin(o) for o, _ in ORIGIN_CASES] == [a for _, a in ORIGIN_CASES]


def audience_by_list(claims: dict[str, Any], service: str) -> bool:
    aud = claims.get("aud")
    named = [aud] if isinstance(aud, str) else aud if isinstance(aud, list) else []
    return service in named


def audience_by_branches(claims: dict[str, Any], service: str) -> bool:
    if "aud" not in claims:
        return False
    if isinstance(claims["aud"], list):
        return any(a == service for a in claims["aud"])
    return claims["aud"] == service


@pytest.mark.parametrize("answer", [audience_by_list, audience_by_branches])
def test_right_audience_checks_pass(answer: Any) -> None:
    assert check_audience(answer).passed


@pytest.mark.parametrize(
    ("answer", "case"),
    [
        (lambda c, s: True, "trailing /"),
        (lambda c, s: c.get("aud") == s, "a list that names this service"),
        (lambda c, s: str(c.get("aud", "")).rstrip("/") == s, "trailing /"),
        (
            lambda c, s: any(
                str(a).startswith(s)
                for a in ([c["aud"]] if isinstance(c.get("aud"), str) else c.get("aud") or [])
            ),
            "trailing /",
        ),
        (lambda c, s: urlsplit(str(c.get("aud"))).hostname == urlsplit(s).hostname, "trailing /"),
    ],
)
def test_wrong_audience_checks_are_named(answer: Any, case: str) -> None:
    with speaking("en"):
        verdict = check_audience(answer)
    assert not verdict.passed and verdict.lines[-1].startswith("✗ ") and case in verdict.lines[-1]


def test_each_string_audience_case_is_what_the_course_verifier_decides() -> None:
    from lessons_lib.engine.http.authority import LocalAuthority

    authority = LocalAuthority("https://auth.example")
    verifier = authority.verifier(SERVICE)
    for _, aud, accepted in AUDIENCE_CASES:
        if isinstance(aud, str) and aud and not aud.endswith("/"):  # mint strips a trailing /
            assert not isinstance(verifier.check(authority.mint(aud, ["files:read"])), str) == accepted, aud


def baseline_by_comprehension(expected: set[str], results: dict[str, bool]) -> tuple[list[str], list[str]]:
    return (
        sorted(n for n, ok in results.items() if not ok and n not in expected),
        sorted(n for n in expected if results.get(n) is True),
    )


def baseline_by_loop(expected: set[str], results: dict[str, bool]) -> list[list[str]]:
    unexpected, stale = [], []
    for name, passed in sorted(results.items()):
        if passed and name in expected:
            stale.append(name)
        elif not passed and name not in expected:
            unexpected.append(name)
    return [unexpected, stale]


@pytest.mark.parametrize("answer", [baseline_by_comprehension, baseline_by_loop])
def test_right_baseline_verdicts_pass(answer: Any) -> None:
    from lessons_lib.course.exercises.network import check_baseline

    assert check_baseline(answer).passed


@pytest.mark.parametrize(
    ("answer", "case"),
    [
        (lambda e, r: ([], []), "a failure not in the list"),
        (
            lambda e, r: (sorted(n for n, ok in r.items() if not ok), []),
            "every failing scenario is in the list",
        ),
        (
            lambda e, r: (
                sorted(n for n, ok in r.items() if not ok and n not in e),
                sorted(n for n in e if r.get(n, True)),
            ),
            "did not run",
        ),
        (lambda e, r: ",".join(e), "every failing scenario is in the list"),
    ],
)
def test_wrong_baseline_verdicts_are_named(answer: Any, case: str) -> None:
    from lessons_lib.course.exercises.network import check_baseline

    with speaking("en"):
        verdict = check_baseline(answer)
    assert not verdict.passed and verdict.lines[-1].startswith("✗ ") and case in verdict.lines[-1]
