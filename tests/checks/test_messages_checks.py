"""The verifiers' and the doctor's own words in English (issue 28): real checks, run under set_language("en").

Each test runs a converted module's code on a recorded fixture (or one broken the way a learner
might) and asserts the English sentence comes out with no Chinese in what that module wrote.
The Chinese edition is covered by the modules' own tests, which are unchanged.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.usefixtures("english")
DATA = Path(__file__).resolve().parents[2] / "data"
CHINESE = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def _load(*parts: str) -> dict:
    return json.loads(DATA.joinpath(*parts).read_text(encoding="utf-8"))


def test_json_shape_reasons_and_rule_checks_speak_english() -> None:
    from lessons_lib.checks._rules import parse_arguments, rule_summary, values_follow_rule
    from lessons_lib.checks.jsoncheck import Fail, first_text_diff, obj

    with pytest.raises(Fail) as got:
        obj([1], "request_1")
    assert str(got.value) == "request_1 should be a JSON object, but it is an array"
    with pytest.raises(Fail) as got:
        parse_arguments({"arguments": {"path": "/workspace/notes.txt"}})
    assert str(got.value).startswith("model_call.arguments is an object; it should be JSON text")
    with pytest.raises(Fail) as got:
        values_follow_rule({"head": "20"}, {"properties": {"head": {"type": "number"}}})
    assert str(got.value) == 'the value "20" of head is text; the declared type is "number"'
    assert rule_summary({"type": "object", "properties": {}}, "parameters") == "no parameters"
    assert first_text_diff("abc", "abd").startswith("they differ from character 3 on")
    assert not CHINESE.search(str(got.value))


def test_the_doctor_speaks_english() -> None:
    from lessons_lib.checks.doctor import diagnose

    good = diagnose(_load("trace.json"))
    assert good.ok and good.title == "chain diagnosis (in the troubleshooting order)"
    assert good.verdict() == "the chain is whole: every link has its evidence."
    html = good._repr_mimebundle_()["text/html"]
    assert ">link</th>" in html and ">evidence</th>" in html and "Verdict: " in html
    assert not CHINESE.search(good.title + good.verdict())
    with pytest.raises(ValueError) as got:
        diagnose({"format": "lessons_lib.roundtrip/1", "request_1": {}})
    assert "not a complete trace" in str(got.value) and not CHINESE.search(str(got.value))


def test_the_api_checks_speak_english() -> None:
    from lessons_lib.checks.apis.verify import api_checks, api_trials
    from lessons_lib.checks.verify import verify_roundtrip

    rt = _load("chat", "roundtrip.json")
    checks = api_checks(rt, "chat")
    assert [c.name for c in checks][0] == "Chat: arguments is JSON text" and all(c.passed for c in checks)
    broken = copy.deepcopy(rt)
    for m in broken["request_2"]["messages"]:
        m.pop("tool_call_id", None)
    failed = [c for c in api_checks(broken, "chat") if not c.passed]
    assert failed[0].reason.startswith('a role: "tool" message lacks tool_call_id')
    anthropic = api_checks(_load("anthropic", "roundtrip.json"), "anthropic")
    assert all(c.passed for c in anthropic)
    for c in [*checks, *anthropic]:
        assert not CHINESE.search(c.name + c.reason), c
    trials = api_trials(rt, "chat", lambda r: verify_roundtrip(r, sabotage=False).checks)
    assert trials and all(c.passed and c.reason.startswith("rejected: ") for c in trials)
    assert not CHINESE.search(" ".join(c.name for c in trials))


def test_the_pairing_rules_and_the_many_call_report_speak_english() -> None:
    from lessons_lib.checks.ledger import check_calls
    from lessons_lib.checks.manycalls import ManyCallsReport, WindowResult, verify_calls

    trace = _load("trace.json")
    for event in trace["events"]:
        if event.get("label") == "request_2":
            items = event["body"]["input"]
            items.append(copy.deepcopy(next(i for i in items if i.get("type") == "function_call_output")))
    problems = check_calls(trace)
    assert problems and problems[0].startswith("request_2: call ") and "answered 2 times" in problems[0]
    report = verify_calls(trace)
    assert not report.ok and report.text().startswith("many-call check")
    assert "pairing problem: request_2: call" in report.text()
    made = ManyCallsReport((WindowResult(1, 2, "all passed", "the chain is whole", True),), ())
    assert made.verdict().startswith("all passed: 1 rounds")
    assert not CHINESE.search(made.text() + made._repr_mimebundle_()["text/html"])


def test_attachment_notes_and_the_trace_check_speak_english() -> None:
    from lessons_lib.checks.attachments import fragments_from_trace, roundtrip_from_trace
    from lessons_lib.checks.evidence import require_trace, result_text
    from lessons_lib.checks.jsoncheck import Fail

    trace = _load("trace.json")
    note = roundtrip_from_trace(trace)["note"]
    assert note.startswith("The complete two-round round trip taken by python -m lessons_lib record")
    assert not CHINESE.search(note + fragments_from_trace(trace)["note"])
    with pytest.raises(ValueError) as got:
        require_trace({})
    assert str(got.value).startswith("not a trace")
    with pytest.raises(Fail) as failed:
        result_text({"result": {"content": [], "isError": "no"}})
    assert str(failed.value) == 'MCP response.result.isError should be true or false, but it is "no"'
