"""Field kinds, verifiers, the doctor, the views and the labs on Chat and Anthropic exchanges."""

from __future__ import annotations

import copy
import importlib
import json
from typing import Any

import pytest
from _apis_support import api_fixture

APIS = ("chat", "anthropic")
MESSAGES = ("request_1.json", "response_1.json", "request_2.json", "response_2.json")


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize("name", MESSAGES)
def test_every_field_of_every_new_message_has_a_declared_kind(api: str, name: str) -> None:
    from lessons_lib.core.fieldkinds.kinds import walk
    from lessons_lib.core.fieldkinds.msgtype import detect_type

    message = api_fixture(api, name)
    assert detect_type(message) == f"{api}_{'request' if name.startswith('request') else 'response'}"
    unclassified = [f.path_text for f in walk(message) if f.match.unclassified]
    assert unclassified == []


KINDS = [
    # (api, file, path, kind): checked by hand against GUIDE section 1
    ("chat", "request_1.json", "tools[0].function.parameters.properties.head.type", "rule"),
    ("chat", "request_1.json", "tools[0].function", "envelope"),
    ("chat", "request_1.json", "tools[0].function.name", "identifier"),
    ("chat", "request_1.json", "messages[0].content", "value"),
    ("chat", "request_1.json", "tool_choice", "setting"),
    ("chat", "response_1.json", "choices[0].message.tool_calls[0].function.arguments", "value"),
    ("chat", "response_1.json", "choices[0].message.tool_calls[0].id", "identifier"),
    ("chat", "response_1.json", "choices[0].finish_reason", "envelope"),
    ("chat", "request_2.json", "messages[2].tool_call_id", "identifier"),
    ("chat", "request_2.json", "messages[2].content", "result"),
    ("chat", "request_2.json", "messages[2].role", "envelope"),
    ("chat", "response_2.json", "choices[0].message.content", "value"),
    ("anthropic", "request_1.json", "tools[0].input_schema.required[0]", "rule"),
    ("anthropic", "request_1.json", "max_tokens", "setting"),
    ("anthropic", "request_1.json", "tool_choice.type", "setting"),
    ("anthropic", "response_1.json", "content[0].input.head", "value"),
    ("anthropic", "response_1.json", "content[0].id", "identifier"),
    ("anthropic", "response_1.json", "stop_reason", "envelope"),
    ("anthropic", "request_2.json", "messages[1].content[0].input.path", "value"),
    ("anthropic", "request_2.json", "messages[2].content[0].tool_use_id", "identifier"),
    ("anthropic", "request_2.json", "messages[2].content[0].content", "result"),
    ("anthropic", "request_2.json", "messages[2].content[0].is_error", "result"),
    ("anthropic", "response_2.json", "content[0].text", "value"),
]


@pytest.mark.parametrize(("api", "name", "path", "kind"), KINDS)
def test_key_fields_have_the_kind_of_the_guide(api: str, name: str, path: str, kind: str) -> None:
    from lessons_lib.core.fieldkinds.kinds import kind_of

    assert kind_of(api_fixture(api, name), path) == kind


def test_field_trees_of_the_new_messages_render_with_titles() -> None:
    from lessons_lib import field_tree

    text = field_tree(api_fixture("anthropic", "request_2.json"))._repr_mimebundle_()["text/plain"]
    assert "Anthropic Messages 请求" in text and "未分类" not in text.split("\n", 2)[2]


@pytest.mark.parametrize("api", APIS)
def test_verify_roundtrip_and_diagnose_accept_each_api(api: str) -> None:
    from lessons_lib.checks.doctor import diagnose
    from lessons_lib.checks.verify import verify_fields, verify_roundtrip

    report = verify_roundtrip(api_fixture(api, "roundtrip.json"))
    assert report.ok, report.text()
    assert [c.key for c in report.checks][:3] == [
        k for k, *_ in importlib.import_module(f"lessons_lib.apis.{api}.checks").CHECKS
    ]
    assert len(report.sabotages) == 3 and all(t.passed for t in report.sabotages)
    trace = api_fixture(api, "trace.json")
    assert verify_roundtrip(trace).ok and verify_fields(trace).ok and diagnose(trace).ok


def test_api_checks_fail_in_the_apis_own_words() -> None:
    from lessons_lib.checks.verify import verify_roundtrip

    rt = copy.deepcopy(api_fixture("anthropic", "roundtrip.json"))
    rt["request_2"]["messages"][2]["content"][0]["is_error"] = True
    failed = {c.key: c.reason for c in verify_roundtrip(rt, sabotage=False).failed}
    assert list(failed)[0] == "anthropic_is_error" and "is_error" in failed["anthropic_is_error"]
    assert "tool_text" in failed  # on the Responses view the marked text no longer equals the service's
    rt = copy.deepcopy(api_fixture("chat", "roundtrip.json"))
    rt["request_2"]["messages"][2]["tool_call_id"] = "call_other"
    failed = {c.key: c.reason for c in verify_roundtrip(rt, sabotage=False).failed}
    assert "chat_tool_call_id" in failed and "call_other" in failed["chat_tool_call_id"]


def test_the_api_sabotage_catalogue_breaks_the_expected_links() -> None:
    from lessons_lib.apis.sabotage import API_SABOTAGES, run_api_sabotage

    assert API_SABOTAGES.names() == [
        "chat_tool_call_id_missing",
        "anthropic_input_stringified",
        "anthropic_tool_result_as_assistant",
    ]
    for entry in API_SABOTAGES:
        good = api_fixture(entry.name.split("_")[0], "trace.json")
        before = json.dumps(good, sort_keys=True)
        outcome = run_api_sabotage(entry.name, good)
        assert json.dumps(good, sort_keys=True) == before  # the input is never touched
        assert outcome.roundtrip.ok is False and outcome.as_expected, outcome.text()


def test_sequence_and_narration_speak_each_apis_words() -> None:
    from lessons_lib.core.traces.trace import Trace
    from lessons_lib.views.narrate import narrate
    from lessons_lib.views.sequence import build_rows

    trace = api_fixture("anthropic", "trace.json")
    _, rows = build_rows(trace)
    labels = "\n".join(r.label for r in rows)
    assert "tool_use fs__read_text_file" in labels and "tool_result（role: user）" in labels
    assert "function_call" not in labels and not any(r.missing for r in rows)
    broken = copy.deepcopy(api_fixture("chat", "trace.json"))
    request_2 = next(e for e in broken["events"] if e["label"] == "request_2")
    request_2["body"]["messages"] = request_2["body"]["messages"][:2]
    missing = [r.label for r in build_rows(broken)[1] if r.missing]
    assert any('role: "tool" 消息' in m and "tool_call_id=call_offline_001_1" in m for m in missing), missing
    told = narrate(Trace.from_dict(api_fixture("chat", "trace.json")))
    assert "tool_calls[] fs__read_text_file id=call_offline_001_1" in told


def test_head_20_to_5_changes_values_and_results_never_rules_in_each_api() -> None:
    from lessons_lib.examples.files.whatif import compare_head

    for api in APIS:
        changed = compare_head(20, 5, api=api).changed()
        kinds = {row.kind for row in changed.rows}
        assert kinds <= {"value", "result"}, (api, kinds)
        paths = {row.path for row in changed.rows}
        assert ("content[0].input.head" if api == "anthropic" else "messages[0].content") in paths


def test_the_exercise_checker_explains_without_raising() -> None:
    from lessons_lib.apis.exercise import check_feedback_message

    assert check_feedback_message("anthropic", ...).text().startswith("还没有完成")
    text = api_fixture("anthropic", "mcp_response.json")["result"]["content"][0]["text"]
    good: dict[str, Any] = {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "toolu_offline_001_1", "content": text, "is_error": False}
        ],
    }
    assert check_feedback_message("anthropic", good).passed
    wrong = dict(good, role="assistant")
    result = check_feedback_message("anthropic", wrong)
    assert not result.passed and "HTTP 400" in result.text()
    assert not check_feedback_message("chat", {"role": "tool", "content": text}).passed
    assert check_feedback_message(
        "chat", {"role": "tool", "tool_call_id": "call_offline_001_1", "content": text}
    ).passed


def test_tool_choice_lab_rows_follow_each_value() -> None:
    from lessons_lib.apis.choices import compare_tool_choices

    table = compare_tool_choices("chat")
    # the first cell is the value's name and its JSON (one column, so the table fits 1,000 px)
    rows = {row[0][0].split("｜")[0]: [cell for cell, _ in row[1:]] for row in table.rows}
    assert rows["none"][0].startswith("没有调用") and rows["none"][2].startswith("没有调用")
    assert rows["auto"][0].endswith("tools/call 2 次") and rows["auto"][2].startswith("没有调用")
    assert rows["required"][2].endswith("tools/call 1 次")  # forced even when no file is asked
    assert rows["named"][0] == "fs__read_text_file｜tools/call 1 次"
    assert table.rows[3][0][0] == 'named｜{"type": "function", "function": {"name": "fs__read_text_file"}}'
    anthropic = {row[0][0].split("｜")[0]: row[1][0] for row in compare_tool_choices("anthropic").rows}
    assert anthropic["any"].endswith("2 次") and anthropic["any + disable_parallel_tool_use"].endswith("1 次")
    with pytest.raises(ValueError):
        compare_tool_choices("responses")


def test_whatif_command_takes_the_api() -> None:
    from lessons_lib.cli import main

    assert main(["whatif", "--api", "anthropic", "--changed"]) == 0
    assert main(["whatif", "--tail", "3", "--api", "chat"]) == 2
