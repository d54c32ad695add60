"""Lesson 09: the other what-ifs of seed section 9, each a real offline run judged by the verifiers."""

from __future__ import annotations

import json
import re

import pytest

from lessons_lib.core.example import FAILURE_PREFIX
from lessons_lib.core.paths import WORKSPACE_DIR
from lessons_lib.core.traces import queries as q
from lessons_lib.examples.files.scenarios import ARCHIVE_DIR, SCENARIOS, run_scenario


def mcp_pairs(t: object) -> list[tuple[dict, dict | None, str]]:
    """Each tools/call request with its reply and service, through the one set of trace queries."""
    return [(x.request, x.reply, x.service) for x in q.mcp_exchanges(t)]


def feedback_items(t: object) -> dict[object, object]:
    """call_id -> function_call_output.output as the model received it."""
    return {f.call_id: f.output for f in q.sent_feedback(t)}


NOTES = (WORKSPACE_DIR / "notes.txt").read_text(encoding="utf-8").splitlines()
ARCHIVE = (ARCHIVE_DIR / "notes.txt").read_text(encoding="utf-8").splitlines()


def report(result, name):  # type: ignore[no-untyped-def]
    return dict(result.reports)[name]


def test_every_scenario_has_a_chinese_title_and_the_seed_question() -> None:
    assert list(SCENARIOS) == ["no_second_request", "two_services", "missing_file", "outside_workspace"]
    for s in SCENARIOS.values():
        assert re.search(r"[\u4e00-\u9fff]", s.title) and s.question.endswith("？")
    with pytest.raises(ValueError, match="choose one of"):
        run_scenario("nope")


def test_no_second_request() -> None:
    r = run_scenario("no_second_request")
    t = r.trace
    assert r.ok, r.text()
    assert t.outcome["status"] == "stopped" and "not sent to the model" in t.outcome["reason"]
    assert [e["label"] for e in t.events if e["channel"] == "model"] == ["request_1", "response_1"]
    request, reply, _ = mcp_pairs(t)[0]
    assert reply is not None and reply["result"]["isError"] is False
    assert reply["result"]["content"][0]["text"] == "\n".join(
        NOTES[:20]
    )  # the feedback exists in the application
    assert feedback_items(t) == {} and t.answer is None  # ...and the model never saw it
    assert dict(r.facts)["模型输入里的 function_call_output"] == "没有"
    diagnosis = report(r, "diagnose")
    assert not diagnosis.ok and diagnosis.broken_link == "next_input"
    assert not report(r, "verify_roundtrip").ok
    assert "不能说模型已结合执行结果回答" in r.verdict


def test_two_services() -> None:
    r = run_scenario("two_services")
    t = r.trace
    assert r.ok, r.text()
    assert [x["alias"] for x in t.tools] == ["fs__read_text_file", "archive__read_text_file"]
    calls = [i for i in (t.body("response_1") or {})["output"] if i["type"] == "function_call"]
    assert [c["name"] for c in calls] == ["fs__read_text_file", "archive__read_text_file"]
    assert len({c["call_id"] for c in calls}) == 2
    by_service = {service: (req, reply) for req, reply, service in mcp_pairs(t)}
    assert set(by_service) == {"fs", "archive"}
    for call in calls:
        req, reply = by_service[call["name"].split("__")[0]]
        assert req["params"]["name"] == "read_text_file"
        assert (
            req["params"]["arguments"]
            == json.loads(call["arguments"])
            == {"path": "/workspace/notes.txt", "head": 3}
        )
    outputs = feedback_items(t)
    assert outputs[calls[0]["call_id"]] == "\n".join(NOTES[:3])
    assert outputs[calls[1]["call_id"]] == "\n".join(ARCHIVE[:3])
    assert NOTES[0] in (t.answer or "") and ARCHIVE[0] in (t.answer or "")
    assert {(k["alias"], k["service"], k["tool"]) for k in t.links} == {
        ("fs__read_text_file", "fs", "read_text_file"),
        ("archive__read_text_file", "archive", "read_text_file"),
    }
    assert report(r, "diagnose").ok and report(r, "verify_roundtrip").ok


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("missing_file", "File not found: /workspace/missing.txt"),
        (
            "outside_workspace",
            "Access denied - path outside allowed directories: /workspace/../etc/passwd not in /workspace",
        ),
    ],
)
def test_schema_passes_but_the_read_fails(name: str, message: str) -> None:
    r = run_scenario(name)
    t = r.trace
    assert r.ok, r.text()
    assert dict(r.facts)["schema 检查（jsonschema，示意）"] == "通过"
    _, reply, _ = mcp_pairs(t)[0]
    assert reply is not None and reply["result"]["isError"] is True
    assert reply["result"]["content"][0]["text"] == message
    assert list(feedback_items(t).values()) == [FAILURE_PREFIX + message]
    answer = t.answer or ""
    assert message in answer and "没有读到" in answer and not any(line in answer for line in NOTES)
    assert t.outcome["status"] == "answered"
    diagnosis = report(r, "diagnose")
    assert diagnosis.ok and diagnosis.tool_failed and "失败如实回到了模型输入" in diagnosis.verdict()
    assert report(r, "verify_roundtrip").ok


def test_results_display_deterministically() -> None:
    for name in SCENARIOS:
        r = run_scenario(name)
        bundle = r._repr_mimebundle_()
        assert set(bundle) == {"text/plain", "text/html"}
        assert bundle["text/plain"].startswith(SCENARIOS[name].title)
        assert "结论：" in bundle["text/plain"] and "验证器：" in bundle["text/plain"]
        for out in (*bundle.values(), repr(r)):
            assert not re.search(r"0x[0-9a-f]{6,}|/work/|/tmp/|/root/", out)
    assert repr(run_scenario("two_services")) == "ScenarioResult('two_services', ok=True, outcome='answered')"
