"""The offline verifiers, the chain doctor's steps and the sabotages speak English (issue 28).

The same checks run under ``set_language("en")``: the report's lines, headings, verdicts and
the reasons the converted modules write come out in English, with no Chinese; back in Chinese
the texts are the old ones.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from _verify_samples import good_fragments, good_trace

from lessons_lib.checks.verify import verify_fields
from lessons_lib.core.messages import set_language

CHINESE = re.compile(r"[\u3400-\u9fff]")


@pytest.fixture
def english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("LESSONS_LANG", raising=False)
    set_language("en")
    try:
        yield
    finally:
        set_language(None)


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
