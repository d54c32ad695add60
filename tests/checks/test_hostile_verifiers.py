"""The verifiers first check that they were given a trace (issue 40, point 2).

``verify-calls`` once said "all passed", exit 0, for ``"events": null``, ``[]``, ``[1, 2, 3]``,
null bodies or a trace with every model event removed. Now what is not a trace is refused in one
line (exit 2) saying what it is not, and a trace without a model round fails (exit 1).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from lessons_lib.checks.manycalls import verify_calls
from lessons_lib.checks.verify import verify_fields, verify_roundtrip
from lessons_lib.core.paths import DATA_DIR
from lessons_lib.examples.orders.cli import main_verify_calls

TRACE: dict[str, Any] = json.loads((DATA_DIR / "trace.json").read_text(encoding="utf-8"))


def _null_bodies() -> dict[str, Any]:
    data = copy.deepcopy(TRACE)
    for event in data["events"]:
        event["body"] = None
    return data


def _without(channel: str) -> dict[str, Any]:
    data = copy.deepcopy(TRACE)
    data["events"] = [e for e in data["events"] if e["channel"] != channel]
    return data


NOT_TRACES: dict[str, Any] = {
    "events null": {"events": None},
    "events empty, nothing else": {"events": []},
    "a list": [1, 2, 3],
    "events of numbers": {"events": [1, 2, 3]},
    "null bodies": _null_bodies(),
    "events null in a real trace": {**TRACE, "events": None},
}


@pytest.mark.parametrize("name", sorted(NOT_TRACES))
def test_verify_calls_refuses_what_is_not_a_trace_in_one_line(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(NOT_TRACES[name]), encoding="utf-8")
    assert main_verify_calls([str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert ("not a" in err or "不是" in err) and "trace" in err, err


@pytest.mark.parametrize("name", ["no model events", "no events at all"])
def test_a_trace_without_a_model_round_never_passes(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _without("model") if name == "no model events" else {**TRACE, "events": [], "links": []}
    assert not verify_calls(data).ok
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main_verify_calls([str(path)]) == 1
    out = capsys.readouterr().out
    assert "0 " not in out.splitlines()[-1] or "passed" not in out.splitlines()[-1].lower()


def test_the_recorded_trace_still_passes() -> None:
    assert verify_calls(TRACE).ok and verify_roundtrip(TRACE).ok and verify_fields(TRACE).ok


@pytest.mark.parametrize("verify", [verify_calls, verify_roundtrip, verify_fields])
def test_the_verify_functions_say_what_a_malformed_trace_is_not(verify: Any) -> None:
    with pytest.raises(ValueError, match=r"trace\.events\[0\]\.body should be an object, got null"):
        verify(_null_bodies())
