"""verify_roundtrip and roundtrip_from_trace: the two-round exchange and its built-in sabotages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _verify_samples import good_roundtrip, good_trace, honest_failure

from lessons_lib.checks import verify
from lessons_lib.checks.attachments import fragments_from_trace, roundtrip_from_trace
from lessons_lib.checks.evidence import ROUNDTRIP_FORMAT
from lessons_lib.cli import checks as cli_checks
from lessons_lib.core.paths import DATA_DIR
from lessons_lib.core.traces.trace import dump_json

RT_KEYS = ["declaration_kept", "context", "values", "ids", "tool_text", "answer"]


def test_roundtrip_has_the_documented_shape() -> None:
    rt = good_roundtrip()
    assert list(rt) == [
        "format",
        "note",
        "request_1",
        "response_1",
        "mcp_request",
        "mcp_response",
        "request_2",
        "response_2",
        "links",
    ]
    assert rt["format"] == ROUNDTRIP_FORMAT
    assert rt["mcp_request"]["id"] == rt["mcp_response"]["id"] == rt["links"][0]["mcp_id"]


def test_recorded_attachment_matches_the_trace_byte_for_byte() -> None:
    path = DATA_DIR / "responses_roundtrip.json"
    if not path.exists():
        pytest.fail("data/responses_roundtrip.json is missing: run `python -m lessons_lib record`")
    assert path.read_text(encoding="utf-8") == dump_json(roundtrip_from_trace(good_trace()))


def test_roundtrip_bodies_are_the_message_fixtures() -> None:
    rt = good_roundtrip()
    for name in ("request_1", "response_1", "request_2", "response_2", "mcp_request", "mcp_response"):
        fixture = DATA_DIR / f"{name}.json"
        if fixture.exists():
            assert rt[name] == json.loads(fixture.read_text(encoding="utf-8")), name


def test_untouched_roundtrip_passes_and_rejects_its_three_sabotages() -> None:
    report = verify.verify_roundtrip(good_roundtrip())
    assert report.ok, report.text()
    assert [c.key for c in report.checks] == RT_KEYS
    assert [s.key for s in report.sabotages] == ["wrong_id", "dropped_call", "arguments_object"]
    assert all(s.passed and s.reason.startswith("已拒绝") for s in report.sabotages)
    text = report.text()
    assert "破坏试验" in text and "不能证明真实接口连通" in text


@pytest.mark.parametrize(
    ("sabotage", "check"),
    [
        ("wrong_id", "两个编号各自配对"),
        ("dropped_call", "两轮上下文连续"),
        ("arguments_object", "调用值原样传给服务"),
    ],
)
def test_each_built_in_sabotage_names_the_check_that_caught_it(sabotage: str, check: str) -> None:
    trial = next(s for s in verify.verify_roundtrip(good_roundtrip()).sabotages if s.key == sabotage)
    assert trial.passed and check in trial.reason, trial.reason


def test_a_trace_is_converted_and_an_honest_failure_passes() -> None:
    assert verify.verify_roundtrip(good_trace()).ok
    report = verify.verify_roundtrip(honest_failure(good_trace()))
    assert report.ok, report.text()


def test_a_trace_object_is_accepted_directly() -> None:
    from lessons_lib.core.traces.trace import Trace

    report = verify.verify_roundtrip(Trace.from_dict(good_trace()))
    assert report.ok and len(report.sabotages) == 3, report.text()
    assert report.text() == verify.verify_roundtrip(good_trace()).text()
    lost = good_trace()
    lost["links"] = []
    assert [c.key for c in verify.verify_roundtrip(Trace.from_dict(lost)).failed] == ["ids"]


def test_a_sabotage_that_is_not_rejected_fails_the_report() -> None:
    broken = good_roundtrip()
    broken["request_2"]["input"][2]["call_id"] = "other"  # already wrong: the checks fail
    report = verify.verify_roundtrip(broken)
    assert not report.ok and "ids" in [c.key for c in report.failed]


def mutate(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    rt = good_roundtrip()
    node: Any = rt
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return rt


BREAKS = [
    (
        ("request_2", "tools", 0, "parameters", "properties", "head", "type"),
        "string",
        "declaration_kept",
        "不同",
    ),
    (("request_2", "tools"), [], "declaration_kept", "不同"),
    (("request_1", "tools"), [], "declaration_kept", "为空"),
    (("response_1", "output", 0, "name"), "fs__other", "declaration_kept", "不在声明的工具里"),
    (("request_2", "input", 0, "content"), "别的任务", "context", "用户任务"),
    (
        ("request_2", "input", 1, "arguments"),
        '{"path": "/workspace/notes.txt", "head": 5}',
        "context",
        "被改了",
    ),
    (("request_2", "input"), "只剩一段文本", "context", "应当是数组"),
    (("request_2",), KeyError, "context", "没有第二次请求"),
    (("mcp_request", "params", "arguments", "path"), "/workspace/other.txt", "values", "path 变了"),
    (("mcp_response", "id"), 4, "ids", "回答的不是这次请求"),
    (("links",), [], "ids", "缺少应用的关联记录"),
    (("mcp_response", "result", "content", 0, "text"), "别的文本", "tool_text", "不是服务返回的原文"),
    (("response_2", "output"), [], "answer", "没有模型的答复"),
]


@pytest.mark.parametrize(
    ("path", "value", "key", "words"), BREAKS, ids=[".".join(map(str, b[0])) for b in BREAKS]
)
def test_each_broken_link_fails_its_check(path: tuple[Any, ...], value: Any, key: str, words: str) -> None:
    report = verify.verify_roundtrip(mutate(path, value))
    check = next(c for c in report.checks if c.key == key)
    assert not check.passed, report.text()
    assert words in check.reason, check.reason


@pytest.mark.parametrize("data", [None, 1, "x", [], {}, {"request_1": 5}, {"format": ROUNDTRIP_FORMAT}])
def test_wrong_shapes_fail_with_reasons_and_never_raise(data: Any) -> None:
    report = verify.verify_roundtrip(data)
    assert not report.ok
    assert all(c.reason for c in report.checks + report.sabotages)


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "responses_roundtrip.json"
    good.write_text(dump_json(good_roundtrip()), encoding="utf-8")
    assert cli_checks.main_roundtrip([str(good)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("核对两轮往返（verify-roundtrip）：responses_roundtrip.json")
    assert out.count("已拒绝") == 3
    bad = tmp_path / "bad.json"
    bad.write_text(dump_json(mutate(("request_2", "input", 2, "call_id"), "3")), encoding="utf-8")
    assert cli_checks.main_roundtrip([str(bad)]) == 1
    fragments = tmp_path / "field_fragments.json"
    fragments.write_text(dump_json(fragments_from_trace(good_trace())), encoding="utf-8")
    capsys.readouterr()
    assert cli_checks.main_roundtrip([str(fragments)]) == 2
    err = capsys.readouterr().err
    assert "is not a roundtrip / trace file" in err and "Traceback" not in err
