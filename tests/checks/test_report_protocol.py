"""One report protocol: the verifiers' ``Report``, the doctor's ``Diagnosis`` and ``verify_calls``'
``ManyCallsReport`` are each a ``CheckReport`` (title, ok, a one-line verdict, text, HTML), and the
command lines' runner takes any of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lessons_lib.checks.doctor import diagnose
from lessons_lib.checks.manycalls import verify_calls
from lessons_lib.checks.verify import verify_fields, verify_roundtrip
from lessons_lib.checks.verify_report import CheckReport
from lessons_lib.cli._runner import run_command
from lessons_lib.core.verdict import Verdict

DATA = Path(__file__).resolve().parents[2] / "data"


def _load(name: str) -> object:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def reports() -> list[CheckReport]:
    """One answer of each checker, typed as the protocol (mypy checks each is one)."""
    trace = _load("trace.json")
    return [
        verify_fields(_load("field_fragments.json")),
        verify_roundtrip(_load("responses_roundtrip.json")),
        diagnose(trace),
        verify_calls(trace),
    ]


def test_every_checker_answers_with_a_check_report() -> None:
    for report in reports():
        assert isinstance(report, CheckReport), type(report).__name__
        assert report.ok
        lines = report.text().splitlines()
        assert lines[0] == report.title and lines[-1].endswith(report.verdict())
        assert "text/html" in report._repr_mimebundle_() and report.html()


def test_an_exercise_verdict_is_not_a_check_report() -> None:
    assert not isinstance(Verdict(passed=True, title="x"), CheckReport)


@pytest.mark.parametrize("index", range(4))
def test_the_command_runner_prints_any_of_them(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    report = reports()[index]
    assert (
        run_command(
            "diagnose", ["x.json"], default="x.json", what="file", description="d", judge=lambda _: report
        )
        == 0
    )
    out = capsys.readouterr().out
    assert out.strip().endswith(report.verdict()) and "x.json" in out
