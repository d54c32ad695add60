"""Property tests: random single-field mutations of a valid round trip, fragments and trace.

The verifiers must always answer (PASS or FAIL with a reason, never an exception), and no
mutation that changes a value, an identifier that is paired, or the feedback text may pass.
Fields that appear only once and pair with nothing (the response ids, ``created_at``, the
model's answer text, the link's service name) cannot be checked offline: they may pass.
"""

from __future__ import annotations

import json
from typing import Any

from _verify_samples import (
    MISSING,
    get_at,
    good_fragments,
    good_roundtrip,
    good_trace,
    paths,
    set_at,
    unchanged_at,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lessons_lib.checks import verify
from lessons_lib.checks._chainsteps import LINK_NAMES
from lessons_lib.checks.attachments import fragments_from_trace, roundtrip_from_trace
from lessons_lib.checks.doctor import diagnose
from lessons_lib.core.jsonvalue import same

RT = good_roundtrip()
FR = good_fragments()
TRACE = good_trace()

# What the round trip carries twice or pairs: any change here must be rejected. (The copy of
# the call in request_2 may leave out its envelope field ``status``; a changed status is still caught.)
CALL_KEYS = ("type", "id", "call_id", "name", "arguments", "status")
RT_PROTECTED: list[tuple[Any, ...]] = [
    ("request_1", "input"),
    ("request_1", "tools"),
    ("request_2", "tools"),
    ("request_2", "input", 0),
    *[("response_1", "output", 0, k) for k in CALL_KEYS],
    *[("request_2", "input", 1, k) for k in CALL_KEYS[:-1]],
    ("request_2", "input", 2, "type"),
    ("request_2", "input", 2, "call_id"),
    ("request_2", "input", 2, "output"),
    ("mcp_request", "id"),
    ("mcp_request", "method"),
    ("mcp_request", "params", "name"),
    ("mcp_request", "params", "arguments"),
    ("mcp_response", "id"),
    ("mcp_response", "result", "content", 0, "type"),
    ("mcp_response", "result", "content", 0, "text"),
    *[("links", 0, k) for k in ("call_id", "mcp_id", "alias", "tool")],
]
FR_PROTECTED: list[tuple[Any, ...]] = [
    ("declaration", "name"),
    ("model_call", "call_id"),
    ("model_call", "name"),
    ("mcp_request", "id"),
    ("mcp_request", "method"),
    ("mcp_request", "params", "name"),
    ("mcp_request", "params", "arguments"),
    ("mcp_result", "id"),
    ("mcp_result", "result", "content", 0, "type"),
    ("mcp_result", "result", "content", 0, "text"),
    ("feedback", "type"),
    ("feedback", "call_id"),
    ("feedback", "output"),
    *[("link", k) for k in ("call_id", "mcp_id", "alias", "tool")],
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=5,
)


@st.composite
def mutations(draw: st.DrawFn, base: Any) -> tuple[tuple[Any, ...], Any, Any]:
    """(path, new value or MISSING, mutated document): replace, delete or nudge one node."""
    path = draw(st.sampled_from(paths(base)))
    old = get_at(base, path)
    how = draw(st.sampled_from(["replace", "delete", "nudge"]))
    if how == "delete":
        new = MISSING
    elif how == "nudge":
        new = draw(nudged(old))
    else:
        new = draw(values.filter(lambda v: not same(v, old)))
    return path, new, set_at(base, path, new)


def nudged(old: Any) -> st.SearchStrategy[Any]:
    """A small realistic change of the same type: one character, plus one, a dropped item, an extra key."""
    if isinstance(old, bool):
        return st.just(not old)
    if isinstance(old, int | float):
        return st.sampled_from([old + 1, old - 1, float(old) if isinstance(old, int) else int(old) + 1])
    if isinstance(old, str):
        return st.builds(
            lambda i, ch: old[:i] + ch + old[i + 1 :],
            st.integers(0, max(len(old) - 1, 0)),
            st.sampled_from('x 0\t"'),
        ).filter(lambda s: s != old)
    if isinstance(old, list):
        return st.just(old[:-1]) if old else st.just([None])
    if isinstance(old, dict):
        return st.builds(lambda v: {**old, "extra_key": v}, scalars)
    return st.just("")


def arguments_unchanged(before: Any, after: Any) -> bool:
    """The model's arguments still parse to exactly the same object (spacing may differ)."""
    a, b = get_at(before, ("model_call", "arguments")), get_at(after, ("model_call", "arguments"))
    if not (isinstance(a, str) and isinstance(b, str)):
        return a is b or same(a, b)
    try:
        return same(json.loads(a), json.loads(b))
    except ValueError:
        return False


def is_error_unchanged(before: Any, after: Any, path: tuple[Any, ...]) -> bool:
    """isError: false and a missing isError mean the same (the MCP default)."""
    a, b = get_at(before, path), get_at(after, path)
    return (False if a is MISSING else a) is (False if b is MISSING else b)


def answered(report: verify.Report) -> None:
    assert report.checks
    for check in report.checks + report.sabotages:
        assert isinstance(check.passed, bool)
        assert isinstance(check.reason, str) and check.reason.strip()
    assert str(report) and report._repr_mimebundle_()["text/html"]


SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(mutations(RT))
def test_roundtrip_mutations_never_crash_and_value_changes_never_pass(case: Any) -> None:
    path, _, mutated = case
    report = verify.verify_roundtrip(mutated)
    answered(report)
    changed: list[Any] = [p for p in RT_PROTECTED if not unchanged_at(RT, mutated, p)]
    changed += [] if is_error_unchanged(RT, mutated, ("mcp_response", "result", "isError")) else ["isError"]
    if changed:
        assert not report.ok, f"mutation at {path} changed {changed[0]} but passed:\n{report.text()}"


@SETTINGS
@given(mutations(FR))
def test_fragment_mutations_never_crash_and_value_changes_never_pass(case: Any) -> None:
    path, _, mutated = case
    report = verify.verify_fields(mutated)
    answered(report)
    changed: list[Any] = [p for p in FR_PROTECTED if not unchanged_at(FR, mutated, p)]
    changed += [] if arguments_unchanged(FR, mutated) else ["model_call.arguments"]
    changed += [] if is_error_unchanged(FR, mutated, ("mcp_result", "result", "isError")) else ["isError"]
    if changed:
        assert not report.ok, f"mutation at {path} changed {changed[0]} but passed:\n{report.text()}"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutations(TRACE))
def test_trace_mutations_never_crash_the_doctor_or_the_converters(case: Any) -> None:
    path, _, mutated = case
    if not isinstance(mutated.get("events"), list):
        return  # not a trace any more: diagnose says so with a ValueError (tested elsewhere)
    diagnosis = diagnose(mutated)
    assert [f.key for f in diagnosis.findings] == [key for key, _ in LINK_NAMES]
    assert all(f.evidence for f in diagnosis.findings)
    answered(verify.verify_fields(fragments_from_trace(mutated)))
    answered(verify.verify_roundtrip(roundtrip_from_trace(mutated)))
    if any(not unchanged_at(TRACE, mutated, p) for p in [("links", 0, "call_id"), ("links", 0, "mcp_id")]):
        assert not diagnosis.ok, f"mutation at {path} broke the links but the doctor passed"


def test_the_unmutated_documents_pass() -> None:
    assert verify.verify_roundtrip(RT).ok and verify.verify_fields(FR).ok and diagnose(TRACE).ok
