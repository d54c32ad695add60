"""The chain doctor: the troubleshooting order, honest failures, hand-edited traces, the CLI."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _verify_samples import event_body, good_trace, honest_failure

from lessons_lib import diagnose as exported
from lessons_lib.checks import verify
from lessons_lib.checks._chainsteps import LINK_NAMES
from lessons_lib.checks.doctor import Diagnosis, diagnose
from lessons_lib.checks.evidence import ROUNDTRIP_FORMAT
from lessons_lib.cli.checks import main_diagnose as main
from lessons_lib.core.traces.trace import Trace, dump_json

ORDER = ["模型响应", "解析结果", "路由目标", "服务检查", "实际反馈", "关联标识", "后续模型输入"]


def test_the_recorded_chain_is_whole_and_walked_in_the_seed_order() -> None:
    diagnosis = diagnose(good_trace())
    assert exported is diagnose
    assert [name for _, name in LINK_NAMES] == ORDER
    assert [f.name for f in diagnosis.findings] == ORDER
    assert diagnosis.ok and diagnosis.broken_link is None
    assert all(f.status == "ok" and f.evidence for f in diagnosis.findings)
    assert diagnosis.text().endswith("结论：链路完整：每一环都有证据。")
    assert "不表示已执行" in diagnosis.findings[0].evidence


def test_accepts_a_trace_object_and_a_path(tmp_path: Path) -> None:
    path = tmp_path / "trace.json"
    path.write_text(dump_json(good_trace()), encoding="utf-8")
    assert diagnose(Trace.from_dict(good_trace())).ok
    assert diagnose(path).ok and diagnose(str(path)).ok


def test_an_honest_tool_failure_is_not_a_broken_link() -> None:
    diagnosis = diagnose(honest_failure(good_trace()))
    assert diagnosis.ok, diagnosis.text()
    assert diagnosis.tool_failed and "失败如实回到了模型输入" in diagnosis.verdict()


def test_a_real_refusal_outside_the_root_is_a_whole_chain() -> None:
    from lessons_lib.engine.host import run_chain

    trace = run_chain(path="/workspace/../etc/passwd")
    diagnosis = diagnose(trace)
    assert diagnosis.ok, diagnosis.text()
    assert "拒绝了根目录之外的路径" in diagnosis.findings[3].evidence
    assert verify.verify_fields(trace).ok and verify.verify_roundtrip(trace).ok


def broken(edit: Any) -> Diagnosis:
    trace = good_trace()
    edit(trace)
    return diagnose(trace)


def set_args(trace: dict[str, Any], text: str) -> None:
    event_body(trace, "response_1")["output"][0]["arguments"] = text


# (what is edited, the link the doctor must name, words of its evidence)
CASES = [
    (
        lambda t: event_body(t, "response_1").update(
            output=[
                {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "好的"}]}
            ]
        ),
        "model_response",
        "模型直接回答了文字",
    ),
    (lambda t: event_body(t, "response_1")["output"][0].pop("call_id"), "model_response", "缺少 call_id"),
    (lambda t: set_args(t, '{"path": "/workspace/notes.txt", "head": '), "parse", "不是合法的 JSON"),
    (lambda t: set_args(t, '{"path": "/workspace/notes.txt", "head": "20"}'), "parse", "声明的类型"),
    (
        lambda t: event_body(t, "request_1")["tools"][0]["parameters"]["properties"].update(head=20),
        "parse",
        "这是值",
    ),
    (
        lambda t: event_body(t, "response_1")["output"][0].update(name="fs__write_file"),
        "route",
        "不在应用的工具表里",
    ),
    (lambda t: event_body(t, "tools/call")["params"].update(name="write_file"), "route", "映射到"),
    (lambda t: event_body(t, "tools/call")["params"]["arguments"].update(head=5), "route", "值在路由中变了"),
    (lambda t: t["events"].pop(8), "service", "服务没有回答"),
    (
        lambda t: event_body(t, "tools/call", 1)["result"]["content"][0].update(text="\n".join(["x"] * 25)),
        "service",
        "返回了 25 行",
    ),
    (lambda t: event_body(t, "request_2")["input"][2].update(output="ERROR: 失败"), "feedback", "写成了失败"),
    (lambda t: event_body(t, "tools/call", 1).update(id=4), "ids", "回答的不是这次请求"),
    (lambda t: t["links"][0].update(mcp_id=7), "ids", "MCP id 7"),
    (lambda t: t.update(links=[]), "ids", "links 里没有"),
    (
        lambda t: event_body(t, "request_2")["input"][2].update(call_id="call_other"),
        "ids",
        "反馈对不回原调用",
    ),
    (lambda t: event_body(t, "request_2")["input"].pop(0), "next_input", "用户任务"),
    (lambda t: event_body(t, "request_2")["input"].pop(1), "next_input", "丢了原调用"),
    (lambda t: t.update(answer="编造的回答"), "next_input", "不是模型最后的答复"),
]


@pytest.mark.parametrize(("edit", "link", "words"), CASES, ids=[f"{c[1]}-{c[2]}" for c in CASES])
def test_the_first_broken_link_is_named_with_evidence(edit: Any, link: str, words: str) -> None:
    diagnosis = broken(edit)
    assert diagnosis.broken_link == link, diagnosis.text()
    assert diagnosis.broken is not None and words in diagnosis.broken.evidence, diagnosis.text()
    later = diagnosis.findings[[k for k, _ in LINK_NAMES].index(link) + 1 :]
    assert all(f.status == "unchecked" for f in later)


def test_a_protocol_error_fed_back_honestly_is_whole() -> None:
    trace = good_trace()
    reply = event_body(trace, "tools/call", 1)
    del reply["result"]
    reply["error"] = {"code": -32602, "message": "Unknown tool: read_text_file"}
    event_body(trace, "request_2")["input"][2]["output"] = (
        "ERROR: protocol error -32602: Unknown tool: read_text_file"
    )
    diagnosis = diagnose(trace)
    assert diagnosis.ok and diagnosis.tool_failed, diagnosis.text()
    assert verify.verify_fields(trace).ok


@pytest.fixture(scope="module")
def two_services() -> dict[str, Any]:
    """One run whose response_1 calls read_text_file on two services (fs and archive)."""
    from lessons_lib.core.paths import DATA_DIR
    from lessons_lib.engine.host import run_chain

    trace = run_chain(
        "从 fs 和 archive 读取 /workspace/notes.txt 的前 2 行",
        services={"fs": DATA_DIR / "workspace", "archive": DATA_DIR / "archive"},
    )
    data = trace.to_dict()
    assert [c["name"] for c in event_body(data, "response_1")["output"]] == [
        "fs__read_text_file",
        "archive__read_text_file",
    ]
    return data


def test_every_call_of_a_two_service_trace_is_walked(two_services: dict[str, Any]) -> None:
    diagnosis = diagnose(copy.deepcopy(two_services))
    assert diagnosis.ok, diagnosis.text()
    for finding in diagnosis.findings:
        assert "【第 1 个调用】" in finding.evidence and "【第 2 个调用】" in finding.evidence, finding
    assert "archive__read_text_file → 服务 archive" in diagnosis.findings[2].evidence
    assert "call_offline_001_2" in diagnosis.findings[5].evidence


def second_output(trace: dict[str, Any]) -> dict[str, Any]:
    return [i for i in event_body(trace, "request_2")["input"] if i.get("type") == "function_call_output"][1]


# edits of the SECOND call only: a doctor that walks just the first call sees a whole chain
SECOND_CALL_CASES = [
    (lambda t: t["links"][1].update(mcp_id=99), "ids", "MCP id 99"),
    (lambda t: second_output(t).update(output="编造的文件内容"), "feedback", "不是服务返回的原文"),
    (
        # the calls of one reply run concurrently: both requests leave before either reply
        lambda t: event_body(t, "tools/call", 1)["params"]["arguments"].update(head=5),
        "route",
        "值在路由中变了",
    ),
    (
        lambda t: event_body(t, "request_2")["input"].remove(second_output(t)),
        "next_input",
        "没有 function_call_output",
    ),
]


@pytest.mark.parametrize(("edit", "link", "words"), SECOND_CALL_CASES, ids=[c[1] for c in SECOND_CALL_CASES])
def test_a_break_in_the_second_call_is_found(
    two_services: dict[str, Any], edit: Any, link: str, words: str
) -> None:
    trace = copy.deepcopy(two_services)
    edit(trace)
    diagnosis = diagnose(trace)
    assert diagnosis.broken is not None and diagnosis.broken_link == link, diagnosis.text()
    assert diagnosis.broken.evidence.startswith("【第 2 个调用】"), diagnosis.broken.evidence
    assert words in diagnosis.broken.evidence, diagnosis.broken.evidence


@pytest.mark.parametrize("data", [None, [], {}, {"events": "x"}, {"format": ROUNDTRIP_FORMAT}, "nope.json"])
def test_input_that_is_not_a_trace_raises_one_clear_value_error(data: Any) -> None:
    with pytest.raises(ValueError) as info:
        diagnose(data)
    assert "trace" in str(info.value) or "no such file" in str(info.value)


@pytest.mark.parametrize(
    "events",
    [
        [],
        [1, "x", None],
        [{"label": "request_1", "body": None}],
        [{"label": "response_1", "body": {"output": "x"}}],
    ],
)
def test_odd_events_break_a_link_instead_of_raising(events: list[Any]) -> None:
    diagnosis = diagnose({"events": events})
    assert diagnosis.broken_link == "model_response"
    assert len(diagnosis.findings) == len(LINK_NAMES)


def test_display_is_escaped_and_stable() -> None:
    trace = good_trace()
    trace["answer"] = "<b>不是模型的</b>"
    diagnosis = diagnose(trace)
    bundle = diagnosis._repr_mimebundle_()
    assert "<b>不是" not in bundle["text/html"] and "&lt;b&gt;" in bundle["text/html"]
    assert repr(diagnosis) == "Diagnosis(ok=False, broken_link='next_input')"
    assert diagnose(copy.deepcopy(trace)).text() == diagnosis.text()


def test_cli_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "trace.json"
    good.write_text(dump_json(good_trace()), encoding="utf-8")
    assert main([str(good)]) == 0
    assert capsys.readouterr().out.startswith("链路诊断（按排查顺序）：trace.json\n1. 模型响应  通过")
    bad = tmp_path / "bad.json"
    trace = good_trace()
    trace["links"][0]["mcp_id"] = 9
    bad.write_text(dump_json(trace), encoding="utf-8")
    assert main([str(bad)]) == 1
    assert "第一个断开的环节是「关联标识」" in capsys.readouterr().out
    for args in ([str(tmp_path / "missing.json")], [str(tmp_path)]):
        assert main(args) == 2
        err = capsys.readouterr().err
        assert err.startswith("diagnose: ") and len(err.strip().splitlines()) == 1
    assert main([]) == 0


def test_cli_through_the_dispatcher_prints_no_traceback(tmp_path: Path) -> None:
    broken_json = tmp_path / "broken.json"
    broken_json.write_text("{", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "lessons_lib", "diagnose", str(broken_json)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr and "is not valid JSON" in run.stderr
    run = subprocess.run(
        [sys.executable, "-m", "lessons_lib", "verify-roundtrip"], capture_output=True, text=True, timeout=60
    )
    assert run.returncode in (0, 2) and "Traceback" not in run.stderr


# every module the verifiers, the doctor and the catalogue are made of (lessons 07-08)
VERIFIER_MODULES = [
    "verify",
    "doctor",
    "sabotage",
    "verify_report",
    "jsoncheck",
    "evidence",
    "_rules",
    "fieldchecks",
    "roundtripchecks",
    "attachments",
    "_chainsteps",
    "_mistakes",
]


def test_verifiers_doctor_and_catalogue_run_on_the_standard_library_alone(repo_root: Path) -> None:
    code = (
        "import sys, importlib; sys.path.insert(0, sys.argv[1])\n"
        "for name in sys.argv[2:]: importlib.import_module('lessons_lib.checks.' + name)\n"
        "from lessons_lib.checks import verify, doctor, sabotage\n"
        "assert sabotage.run_sabotage('mixed_ids').found_link == 'ids'\n"
        "from lessons_lib.cli import checks as cli\n"
        "assert cli.main_diagnose([]) == 0 and cli.main_fields([]) == 0 and cli.main_roundtrip([]) == 0\n"
        "heavy = {'openai', 'mcp', 'httpx2', 'anyio', 'pydantic', 'pandas'}\n"
        "third = {m.split('.')[0] for m in sys.modules} & heavy\n"
        "assert not third, third\n"
        "other = {m.split('.')[0] for m in sys.modules} - set(sys.stdlib_module_names) - {'lessons_lib'}\n"
        "assert not {m for m in other if not m.startswith('_')}, other\n"
    )
    run = subprocess.run(
        [sys.executable, "-S", "-c", code, str(repo_root), *VERIFIER_MODULES],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
