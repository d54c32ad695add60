"""verify_fields and fragments_from_trace: the seed's section 7 checks on the field fragments."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _verify_samples import event_body, good_fragments, good_trace, honest_failure

from lessons_lib.checks import verify
from lessons_lib.checks.attachments import fragments_from_trace, roundtrip_from_trace
from lessons_lib.checks.evidence import FRAGMENTS_FORMAT
from lessons_lib.cli import checks as cli_checks
from lessons_lib.core.paths import DATA_DIR
from lessons_lib.core.traces.trace import Trace, dump_json

FIELD_KEYS = ["rule", "text_object", "values_equal", "route", "mcp_pair", "call_pair", "feedback"]


def failed(report: verify.Report) -> list[str]:
    return [c.key for c in report.failed]


def test_fragments_have_the_documented_shape() -> None:
    fr = good_fragments()
    assert list(fr) == [
        "format",
        "note",
        "declaration",
        "mcp_declaration",
        "model_call",
        "mcp_request",
        "mcp_result",
        "feedback",
        "link",
    ]
    assert fr["format"] == FRAGMENTS_FORMAT
    assert isinstance(fr["model_call"]["arguments"], str)
    assert isinstance(fr["mcp_request"]["params"]["arguments"], dict)
    assert fr["mcp_declaration"]["inputSchema"] == fr["declaration"]["parameters"]
    assert fr["feedback"]["type"] == "function_call_output"


def test_fragments_are_a_pure_deterministic_copy() -> None:
    trace = good_trace()
    before = json.dumps(trace, sort_keys=True)
    first = fragments_from_trace(trace)
    first["model_call"]["call_id"] = "changed"
    assert json.dumps(trace, sort_keys=True) == before
    assert dump_json(fragments_from_trace(trace)) == dump_json(fragments_from_trace(good_trace()))
    assert fragments_from_trace(Trace.from_dict(good_trace())) == fragments_from_trace(trace)


def test_recorded_attachment_matches_the_trace_byte_for_byte() -> None:
    path = DATA_DIR / "field_fragments.json"
    assert path.read_text(encoding="utf-8") == dump_json(fragments_from_trace(good_trace()))


def test_untouched_fragments_pass_every_check() -> None:
    report = verify.verify_fields(good_fragments())
    assert report.ok, report.text()
    assert [c.key for c in report.checks] == FIELD_KEYS
    assert all(c.reason for c in report.checks)


@pytest.mark.parametrize("convert", ["trace", "roundtrip"])
def test_a_trace_or_a_roundtrip_is_converted(convert: str) -> None:
    data: Any = good_trace() if convert == "trace" else roundtrip_from_trace(good_trace())
    report = verify.verify_fields(data)
    assert report.ok, report.text()


def test_a_trace_object_is_accepted_directly() -> None:
    report = verify.verify_fields(Trace.from_dict(good_trace()))
    assert report.ok, report.text()
    assert report.text() == verify.verify_fields(good_trace()).text()
    mixed = good_trace()
    event_body(mixed, "request_2")["input"][2]["call_id"] = "3"
    assert failed(verify.verify_fields(Trace.from_dict(mixed))) == ["call_pair"]


def test_the_public_names_stay_on_verify() -> None:
    from lessons_lib.checks import verify_report

    assert verify.Report is verify_report.Report and verify.Check is verify_report.Check
    for name in ("verify_fields", "verify_roundtrip", "fragments_from_trace", "roundtrip_from_trace"):
        assert callable(getattr(verify, name)), name
    assert (
        cli_checks.main_fields.__module__ == cli_checks.main_roundtrip.__module__ == "lessons_lib.cli.checks"
    )


def test_an_honest_failure_passes() -> None:
    report = verify.verify_fields(honest_failure(good_trace()))
    assert report.ok, report.text()
    assert "失败" in report.checks[-1].reason


def edit(path: str, value: Any) -> dict[str, Any]:
    fr = good_fragments()
    *parents, last = path.split(".")
    node: Any = fr
    for key in parents:
        node = node[int(key)] if key.isdigit() else node[key]
    if value is KeyError:
        del node[last]
    else:
        node[int(last) if last.isdigit() else last] = value
    return fr


# (field to edit, new value, the check that must fail, words its reason must contain)
BREAKS = [
    ("declaration.parameters.properties.head", 20, "rule", "这是值"),
    ("declaration.parameters.properties.path.default", "/workspace/notes.txt", "rule", "本次的值"),
    ("mcp_declaration.inputSchema.properties.head.const", 20, "rule", "MCP 声明"),
    (
        "model_call.arguments",
        '{"path": "/workspace/notes.txt", "head": {"type": "number"}}',
        "rule",
        "这是规则",
    ),
    ("model_call.arguments", '{"path": "/workspace/notes.txt", "head": "20"}', "rule", "声明的类型"),
    ("model_call.arguments", {"path": "/workspace/notes.txt", "head": 20}, "text_object", "JSON 文本"),
    ("model_call.arguments", '{"path": "/workspace/notes.txt", "head": ', "text_object", "不是合法的 JSON"),
    (
        "mcp_request.params.arguments",
        '{"path": "/workspace/notes.txt", "head": 20}',
        "text_object",
        "应当是对象",
    ),
    ("mcp_request.params.arguments.head", 5, "values_equal", "head 变了"),
    ("mcp_request.params.arguments.head", 20.0, "values_equal", "head 变了"),
    ("mcp_request.params.name", "write_file", "route", "write_file"),
    ("link.mcp_id", 4, "route", "MCP id 4"),
    ("mcp_result.id", 4, "mcp_pair", "回答的不是这次请求"),
    ("feedback.call_id", "3", "call_pair", "两个编号混用"),
    ("feedback.call_id", "call_other", "call_pair", "对不上"),
    ("feedback", None, "call_pair", "没有 function_call_output"),
    ("feedback.output", "（编造的内容）", "feedback", "不是服务返回的原文"),
    ("mcp_result.result.isError", True, "feedback", "没有以"),
    ("mcp_request", None, "text_object", "不会自己执行"),
]


@pytest.mark.parametrize(
    ("path", "value", "key", "words"), BREAKS, ids=[f"{b[0]}={b[1]!r}"[:60] for b in BREAKS]
)
def test_each_broken_field_fails_its_check_with_a_reason(path: str, value: Any, key: str, words: str) -> None:
    report = verify.verify_fields(edit(path, value))
    assert not report.ok
    check = next(c for c in report.checks if c.key == key)
    assert not check.passed, report.text()
    assert words in check.reason, check.reason


@pytest.mark.parametrize("data", [None, 3, "text", [], {}, {"model_call": []}, {"format": FRAGMENTS_FORMAT}])
def test_wrong_shapes_fail_with_reasons_and_never_raise(data: Any) -> None:
    report = verify.verify_fields(data)
    assert not report.ok
    assert len(report.checks) == len(FIELD_KEYS)
    assert all(c.reason and not c.passed for c in report.checks)


def test_report_renders_text_and_escaped_html() -> None:
    fr = edit("feedback.output", "<script>alert(1)</script>")
    report = verify.verify_fields(fr)
    text = str(report)
    assert text.splitlines()[0] == "核对字段片段（verify-fields）"
    assert sum(line.startswith(("PASS  ", "FAIL  ")) for line in text.splitlines()) == len(FIELD_KEYS)
    assert "不能证明文件被读取" in text and "不能证明服务有权限" in text
    bundle = report._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert "<script>" not in bundle["text/html"] and "&lt;script&gt;" in bundle["text/html"]
    assert "at 0x" not in repr(report) and "feedback" in repr(report)
    assert str(verify.verify_fields(good_fragments())) == str(verify.verify_fields(good_fragments()))


# ----------------------------------------------------------------------------- command line


def write(tmp_path: Path, name: str, data: Any) -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else dump_json(data), encoding="utf-8")
    return str(path)


def test_cli_passes_on_the_attachment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_checks.main_fields([write(tmp_path, "field_fragments.json", good_fragments())]) == 0
    out = capsys.readouterr().out
    assert out.startswith("核对字段片段（verify-fields）：field_fragments.json\n")
    assert str(tmp_path) not in out and "结论：全部通过。" in out


def test_cli_default_path_is_the_fixture(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli_checks.main_fields([])
    captured = capsys.readouterr()
    if (DATA_DIR / "field_fragments.json").exists():
        assert code == 0, captured.out
    else:
        assert code == 2 and "field_fragments.json" in captured.err


def test_cli_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_checks.main_fields([write(tmp_path, "trace.json", good_trace())]) == 0
    assert cli_checks.main_fields([write(tmp_path, "bad.json", edit("feedback.call_id", "3"))]) == 1
    assert "FAIL  模型调用与反馈按 call_id 配对" in capsys.readouterr().out
    for args, words in [
        ([str(tmp_path / "nope.json")], f"no such file: {tmp_path / 'nope.json'}"),  # the path as given
        ([write(tmp_path, "broken.json", "{not json")], "is not valid JSON"),
        ([write(tmp_path, "list.json", [1, 2])], "is not a fragments / roundtrip / trace file"),
        ([str(tmp_path)], "cannot read"),
    ]:
        assert cli_checks.main_fields(args) == 2
        err = capsys.readouterr().err
        assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert cli_checks.main_fields(["--help"]) == 0
    assert cli_checks.main_fields(["a", "b"]) == 2


def test_the_request_shapes_match_the_recorded_messages() -> None:
    trace = good_trace()
    fr = fragments_from_trace(trace)
    assert fr["model_call"] == event_body(trace, "response_1")["output"][0]
    assert fr["feedback"] == event_body(trace, "request_2")["input"][-1]
