"""The sabotage catalogue: every entry is rejected, and the doctor names the link it broke."""

from __future__ import annotations

import json

import pytest
from _verify_samples import good_trace

from lessons_lib import SABOTAGES as EXPORTED
from lessons_lib import run_sabotage as exported_run
from lessons_lib.checks._chainsteps import LINKS
from lessons_lib.checks.sabotage import SABOTAGES, SabotageOutcome, run_sabotage

NAMES = SABOTAGES.names()
EXPECTED_LINKS = {
    "declaration_as_execution": "route",
    "rule_as_value": "parse",
    "parse_as_read": "feedback",
    "format_as_permission": "service",
    "mixed_ids": "ids",
    "logged_not_fed_back": "next_input",
    "raw_as_answer": "next_input",
}
# what the doctor's evidence must say for each entry (the broken link, in the learner's words)
EVIDENCE = {
    "declaration_as_execution": "没有 tools/call 请求",
    "rule_as_value": "这是规则",
    "parse_as_read": "读起来像读取成功",
    "format_as_permission": "格式正确不等于有权限",
    "mixed_ids": "两个编号混用",
    "logged_not_fed_back": "没有 function_call_output",
    "raw_as_answer": "原始工具文本",
}


def test_the_catalogue_covers_the_seven_mistakes_in_order() -> None:
    assert EXPORTED is SABOTAGES and exported_run is run_sabotage
    assert NAMES == list(EXPECTED_LINKS)
    assert all(s.title and s.mistake and s.change and s.link in LINKS for s in SABOTAGES)
    assert [s.link for s in SABOTAGES] == list(EXPECTED_LINKS.values())


@pytest.mark.parametrize("name", NAMES)
def test_apply_is_pure_and_deterministic(name: str) -> None:
    trace = good_trace()
    before = json.dumps(trace, ensure_ascii=False)
    first = SABOTAGES.get(name).apply(trace)
    assert json.dumps(trace, ensure_ascii=False) == before
    assert first != trace
    assert json.dumps(SABOTAGES.get(name).apply(good_trace()), ensure_ascii=False) == json.dumps(
        first, ensure_ascii=False
    )
    assert [e["seq"] for e in first["events"]] == list(range(len(first["events"])))


@pytest.mark.parametrize("name", NAMES)
def test_diagnose_points_at_the_expected_link(name: str) -> None:
    outcome = run_sabotage(name, good_trace())
    assert outcome.rejected
    assert outcome.found_link == EXPECTED_LINKS[name], outcome.diagnosis.text()
    assert outcome.as_expected
    broken = outcome.diagnosis.broken
    assert broken is not None and EVIDENCE[name] in broken.evidence, outcome.diagnosis.text()


@pytest.mark.parametrize("name", NAMES)
def test_the_verifiers_reject_every_entry_except_permission(name: str) -> None:
    outcome = run_sabotage(name, good_trace())
    if name == "format_as_permission":
        # The seed's own table: the offline checks cannot prove that the service had permission.
        assert outcome.fields.ok and outcome.roundtrip.ok
        assert "不能证明服务有权限" in outcome.fields.text()
    else:
        assert not outcome.fields.ok and not outcome.roundtrip.ok
        assert all(c.reason for c in outcome.fields.failed + outcome.roundtrip.failed)


def test_run_sabotage_defaults_to_the_recorded_trace() -> None:
    outcome = run_sabotage("mixed_ids")
    assert outcome.found_link == "ids"
    assert repr(outcome) == "SabotageOutcome(name='mixed_ids', rejected=True, found_link='ids')"
    text = outcome.text()
    assert text.startswith("破坏「混用两个编号」") and "与预期一致" in text
    assert "verify-fields：拒绝" in text


def test_unknown_name_and_non_trace_input_give_clear_errors() -> None:
    with pytest.raises(ValueError, match="可选：declaration_as_execution"):
        run_sabotage("no_such_thing")
    with pytest.raises(ValueError, match="不是 trace"):
        SABOTAGES[0].apply({"format": "x"})


def test_catalogue_and_outcome_display() -> None:
    bundle = SABOTAGES._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert bundle["text/html"].count("<tr>") == len(SABOTAGES) + 1
    assert "at 0x" not in repr(SABOTAGES) and "at 0x" not in repr(SABOTAGES[0])
    assert SABOTAGES.rows()[3]["link_name"] == "服务检查"
    outcome = run_sabotage("format_as_permission", good_trace())
    assert isinstance(outcome, SabotageOutcome)
    html = outcome._repr_mimebundle_()["text/html"]
    assert "/workspace/../etc/passwd" in html and "<script" not in html
