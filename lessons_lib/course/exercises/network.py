"""Offline checkers for lessons 60 and 61: the Origin check and the audience check, on unseen cases.

Each checker calls the learner's function on cases the lesson never showed and names the first
broken expectation. The expectations are those of the course's real servers: lesson 60's Origin
rule is the SDK's ``TransportSecuritySettings`` as :func:`lessons_lib.engine.http.serve.security`
configures it (``tests/course/test_l60_network_exercise.py`` checks each case against it); lesson 61's
audience rule is :class:`lessons_lib.engine.http.protected.AudienceVerifier`'s.
"""

from __future__ import annotations

from typing import Final

from lessons_lib.core.messages import t
from lessons_lib.core.verdict import Verdict
from lessons_lib.examples.orders.exercises import LearnerFunction, found, learner_function

ORIGIN_CASES: Final[tuple[tuple[str | None, bool], ...]] = (
    (None, True),  # not a browser: no Origin header at all
    ("http://127.0.0.1:8000", True),
    ("https://localhost:3000", True),
    ("http://[::1]:9000", True),
    ("http://localhost", False),  # the allowed list names a port (``localhost:*``)
    ("http://attacker.example:8000", False),
    ("http://localhost.attacker.example:8000", False),  # loopback name as a prefix of another site
    ("http://127.0.0.1.nip.io:8000", False),  # a public name that resolves to loopback
    ("http://my-localhost:8000", False),
    ("ftp://localhost:21", False),
    ("null", False),  # a sandboxed page or a file:// document
)
"""(Origin header or None, allowed) pairs the lesson never showed."""


def _run(function: LearnerFunction, *args: object) -> tuple[object, Verdict | None]:
    try:
        return function(*args), None
    except Exception as exc:  # the learner's code: one line, never a traceback
        return None, found(False, (t("l60.raised", name=type(exc).__name__, exc=exc),))


def check_origin(origin_allowed: object) -> Verdict:
    """Lesson 60: ``origin_allowed(origin)`` says whether a request with this ``Origin`` may pass."""
    origin_allowed = learner_function(origin_allowed, "origin_allowed", t("l60.origin.hint"))
    if isinstance(origin_allowed, Verdict):
        return origin_allowed
    lines = []
    for origin, allowed in ORIGIN_CASES:
        got, failed = _run(origin_allowed, origin)
        if failed:
            return failed
        if bool(got) != allowed or not isinstance(got, bool):
            expected = t("l60.origin.pass") if allowed else t("l60.origin.refuse")
            lines.append("✗ " + t("l60.origin.wrong", origin=origin, expected=expected, got=got))
            return found(False, tuple(lines))
        verdict = t("l60.origin.pass") if allowed else t("l60.origin.refuse")
        lines.append("✓ " + t("l60.origin.right", origin=origin, verdict=verdict))
    return found(True, tuple(lines))


SERVICE: Final = "https://files.example/mcp"
AUDIENCE_CASES: Final[tuple[tuple[str, str | list[str] | None, bool], ...]] = (
    ("l60.aud.same", SERVICE, True),
    ("l60.aud.slash", SERVICE + "/", False),  # compared as strings: not the same URL
    ("l60.aud.list", ["https://orders.example/api", SERVICE], True),
    ("l60.aud.other", "https://orders.example/api", False),
    ("l60.aud.prefix", "https://files.example/mcp-admin", False),
    ("l60.aud.host", "https://files.example.attacker.example/mcp", False),
    ("l60.aud.path", "https://files.example/", False),
    ("l60.aud.list_other", ["https://orders.example/api", "https://mail.example/mcp"], False),
    ("l60.aud.missing", None, False),
    ("l60.aud.empty", "", False),
)
"""(what the token names, its ``aud`` claim or None, accepted by the service at :data:`SERVICE`)."""


def check_audience(audience_ok: object) -> Verdict:
    """Lesson 61: ``audience_ok(claims, service)`` accepts a token only when it names this service."""
    audience_ok = learner_function(audience_ok, "audience_ok", t("l60.aud.hint"))
    if isinstance(audience_ok, Verdict):
        return audience_ok
    lines = []
    for key, aud, accepted in AUDIENCE_CASES:
        claims: dict[str, str | list[str]] = {
            "iss": "https://auth.example",
            "sub": "learner",
            "scope": "files:read",
        }
        if aud is not None:
            claims["aud"] = aud
        got, failed = _run(audience_ok, dict(claims), SERVICE)
        if failed:
            return failed
        verdict = t("l60.aud.accept") if accepted else t("l60.aud.refuse")
        if not isinstance(got, bool) or got != accepted:
            lines.append("✗ " + t("l60.aud.wrong", case=t(key), aud=aud, expected=verdict, got=got))
            return found(False, tuple(lines))
        lines.append("✓ " + t("l60.aud.right", case=t(key), verdict=verdict))
    return found(True, tuple(lines))


BASELINE_CASES: Final[tuple[tuple[str, frozenset[str], dict[str, bool], list[str], list[str]], ...]] = (
    ("l60.base.clean", frozenset({"prompts-list"}), {"ping": True, "prompts-list": False}, [], []),
    ("l60.base.unexpected", frozenset(), {"ping": False, "tools-list": True}, ["ping"], []),
    (
        "l60.base.stale",
        frozenset({"logging-set-level"}),
        {"logging-set-level": True},
        [],
        ["logging-set-level"],
    ),
    ("l60.base.not_run", frozenset({"tasks-lifecycle"}), {"ping": True}, [], []),
    (
        "l60.base.mixed",
        frozenset({"resources-list", "completion-complete", "caching"}),
        {
            "resources-list": True,
            "caching": False,
            "server-stateless": False,
            "dns-rebinding-protection": False,
        },
        ["dns-rebinding-protection", "server-stateless"],
        ["resources-list"],
    ),
)
"""(case, expected failures, scenario -> passed, unexpected failures, stale entries): unseen in lesson 62."""


def _names(value: object) -> list[str] | None:
    """A learner's list of names, sorted; None when it is not a collection of strings."""
    if isinstance(value, str) or not isinstance(value, (list, tuple, set, frozenset)):
        return None
    return sorted(value) if all(isinstance(v, str) for v in value) else None


def check_baseline(baseline_problems: object) -> Verdict:
    """Lesson 62: ``baseline_problems(expected, results)`` returns (unexpected failures, stale entries)."""
    baseline_problems = learner_function(baseline_problems, "baseline_problems", t("l60.base.hint"))
    if isinstance(baseline_problems, Verdict):
        return baseline_problems
    lines = []
    for key, expected, results, unexpected, stale in BASELINE_CASES:
        got, failed = _run(baseline_problems, set(expected), dict(results))
        if failed:
            return failed
        pair = list(got) if isinstance(got, (tuple, list)) and len(got) == 2 else None
        shown = (_names(pair[0]), _names(pair[1])) if pair else (None, None)
        if shown != (unexpected, stale):
            lines.append("✗ " + t("l60.base.wrong", case=t(key), unexpected=unexpected, stale=stale, got=got))
            return found(False, tuple(lines))
        lines.append("✓ " + t(key))
    return found(True, tuple(lines))
