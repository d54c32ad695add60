"""The offline verifiers, the chain doctor's steps and the sabotages speak English (issue 28).

The same checks run under ``set_language("en")``: the report's lines, headings, verdicts and
the reasons the converted modules write come out in English, with no Chinese; back in Chinese
the texts are the old ones.
"""

from __future__ import annotations

import re

import pytest
from _verify_samples import good_fragments, good_roundtrip, good_trace

from lessons_lib.checks._chainsteps import LINK_NAMES
from lessons_lib.checks.doctor import diagnose
from lessons_lib.checks.sabotage import SABOTAGES, run_sabotage
from lessons_lib.checks.verify import verify_fields, verify_roundtrip
from lessons_lib.core.messages import set_language

CHINESE = re.compile(r"[\u3400-\u9fff]")


def test_verify_fields_reports_in_english(english: None) -> None:
    report = verify_fields(good_trace())
    text, html = report.text(), report.html()
    assert report.ok and not CHINESE.search(text) and not CHINESE.search(html), text
    assert text.startswith("Checking the field fragments (verify-fields)\nPASS  the rule stays a rule: ")
    assert "What the local checks cannot prove:" in text and text.endswith("Verdict: all passed.")
    assert "cannot prove the service has permission" in html and "all passed" in html


def test_a_field_check_fails_with_an_english_reason(english: None) -> None:
    fragments = good_fragments()
    fragments["feedback"]["call_id"] = fragments["mcp_request"]["id"]
    report = verify_fields(fragments)
    bad = report.failed
    assert [c.key for c in bad] == ["call_pair"]
    assert bad[0].name == "the model's call and the feedback pair by call_id"
    assert "the two identifiers are mixed up; it should be" in bad[0].reason, bad[0].reason
    assert not CHINESE.search(bad[0].reason) and report.text().endswith("Verdict: 1 failed.")


def test_the_chinese_texts_are_unchanged_after_english() -> None:
    set_language("en")
    set_language(None)
    text = verify_fields(good_trace()).text()
    assert text.startswith("核对字段片段（verify-fields）\nPASS  规则保持规则：") and text.endswith(
        "结论：全部通过。"
    )


def test_verify_roundtrip_and_its_sabotages_report_in_english(english: None) -> None:
    report = verify_roundtrip(good_roundtrip())
    text = report.text()
    assert report.ok and "Sabotage trials (each one should be rejected):" in text, text
    assert [c.name for c in report.checks][:2] == [
        "the tool declarations are kept in both rounds",
        "the context carries on across both rounds",
    ]
    dropped = next(c for c in report.sabotages if c.key == "dropped_call")
    assert dropped.name.startswith("dropped original call") and dropped.reason.startswith("rejected — ")
    assert "the second request dropped the original call" in dropped.reason, dropped.reason
    for check in report.checks:  # the reasons of the round-trip checks themselves
        if check.key in ("declaration_kept", "context", "answer"):
            assert not CHINESE.search(check.reason), check.reason
    assert not CHINESE.search(dropped.name + dropped.reason)


def test_the_doctor_names_the_links_and_gives_the_evidence_in_english(english: None) -> None:
    assert [name for _, name in LINK_NAMES][3:5] == ["service check", "actual feedback"]
    for sabotage, link, words in (
        ("mixed_ids", "linking identifiers", "the two identifiers are mixed up"),
        ("format_as_permission", "service check", "a correct format is not permission"),
        ("declaration_as_execution", "route target", "neither a declaration nor a call is an execution"),
    ):
        broken = diagnose(SABOTAGES.get(sabotage).apply(good_trace())).broken
        assert broken is not None and broken.name == link, broken
        assert words in broken.evidence and not CHINESE.search(broken.evidence), broken.evidence
    set_language("zh")
    assert [name for _, name in LINK_NAMES][3] == "服务检查"


def test_the_sabotage_catalogue_and_an_outcome_speak_english(english: None) -> None:
    text, html = SABOTAGES.text(), SABOTAGES.html()
    assert text.startswith("Sabotage catalogue (the common mistakes of section 8, each made once)\n1. ")
    assert not CHINESE.search(text) and not CHINESE.search(html), text
    entry = SABOTAGES.get("logged_not_fed_back")
    assert entry.title == "only logged, not added to the model's input" and entry.mistake != entry.title
    assert entry.link_name == "next model input"
    outcome = run_sabotage("mixed_ids", good_trace())
    head, fields = outcome.text().split("\n")[:2]
    assert head.startswith("Sabotage \u201cmixing up the two identifiers\u201d (mixed_ids): the call_id of ")
    assert fields.startswith("verify-fields: rejected — the model's call and the feedback pair by call_id: ")
    assert not CHINESE.search(head + fields)
    with pytest.raises(
        ValueError, match="no sabotage named 'nothing'; choose one of: declaration_as_execution"
    ):
        SABOTAGES.get("nothing")
