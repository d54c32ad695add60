"""The lessons' claims hold (issue 13, points 7, 8 and 12).

The offline stand-in never claims more than the feedback holds: each wrapping (Responses,
Chat Completions, Anthropic Messages) answers through the same paragraph rule, asks which file
when the task names none (under ``tool_choice: auto``), and tells an unknown alias as the
application's routing failure. Outcomes carry a Chinese text beside the stable English reason;
the file service counts its reads; the official schemas say where a failure is marked.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from lessons_lib.apis.responses.standin import OfflineModel
from lessons_lib.core.outcomes import outcome_text
from lessons_lib.core.specfields import spec_fields
from lessons_lib.engine.host import Limits, run_chain
from lessons_lib.engine.standins.rules import Script, answer_part, feedback_paragraph
from lessons_lib.services.files.service import ToolRefusal, read_text_file, service_reads
from lessons_lib.views.narrate import message_counts, narrate

THREE_LINES = "一\n二\n三"


def test_fewer_lines_than_asked_says_how_many_and_that_the_file_ended() -> None:
    for key, side in (("head", "前"), ("tail", "最后")):
        text = feedback_paragraph(json.dumps({"path": "/workspace/a.txt", key: 1000}), THREE_LINES)
        assert f"{side} 1000 行：" not in text
        assert "全部 3 行" in text and "文件到第 3 行就结束了" in text


def test_as_many_lines_as_asked_is_the_plain_claim() -> None:
    text = feedback_paragraph(json.dumps({"path": "/workspace/a.txt", "head": 3}), THREE_LINES)
    assert text.startswith("这是 /workspace/a.txt 的前 3 行：")
    assert "结束" not in text
    whole = feedback_paragraph(json.dumps({"path": "/workspace/a.txt"}), THREE_LINES)
    assert "共 3 行" in whole


def test_a_tool_that_reads_no_file_is_never_called_the_file() -> None:
    # The order desk's tools take an order id, not a path.
    for output in ('{"order_id": "O-1001"}', "ERROR: order not found"):
        text = answer_part({"order_id": "O-1001"}, output, "orders__get_order")
        assert "该文件" not in text and "文件内容" not in text
        assert "orders__get_order" in text


def test_responses_stand_in_names_the_order_tool_in_its_answer() -> None:
    call = {
        "type": "function_call",
        "call_id": "c1",
        "name": "orders__get_order",
        "arguments": '{"order_id": "O-1"}',
    }
    out = {"type": "function_call_output", "call_id": "c1", "output": '{"status": "shipped"}'}
    body = {"model": "m", "input": [{"role": "user", "content": "查订单 O-1"}, call, out]}
    (message,) = OfflineModel().respond(body)["output"]
    text = message["content"][0]["text"]
    assert text.startswith("这是工具 orders__get_order 返回的内容：")
    assert "该文件" not in text


# ---------------------------------------------------------------- asking instead of guessing
ASK_TASK = "帮我看看笔记的前 20 行。"
AUTO = {"responses": "auto", "chat": "auto", "anthropic": {"type": "auto"}}


@pytest.fixture(scope="module", params=sorted(AUTO))
def asked(request: pytest.FixtureRequest) -> Any:
    return run_chain(ASK_TASK, api=request.param, tool_choice=AUTO[request.param])


def test_a_task_without_a_path_gets_a_question_and_no_call(asked: Any) -> None:
    assert not [e for e in asked.events if e["label"] == "tools/call"]
    assert asked.answer.endswith("？") and "哪一个文件" in asked.answer and "前 20 行" in asked.answer
    assert asked.outcome["status"] == "answered"
    assert asked.outcome["reason"].startswith("no tool was called: the model asked")
    assert "提问" in outcome_text(asked.outcome) and "而不是猜" in outcome_text(asked.outcome)


def test_a_task_that_wants_no_file_is_answered_without_a_question() -> None:
    plain = run_chain("你好，你能帮我做什么？", tool_choice="auto")
    assert not plain.answer.endswith("？")
    assert plain.outcome["reason"] == "the model answered without calling a tool"


def test_required_leaves_no_room_to_ask_so_the_service_check_refuses() -> None:
    # The loop's own first request says tool_choice "required": the stand-in must call, and a
    # call without a path is refused by the service, never read.
    forced = run_chain(ASK_TASK)
    request, reply = forced.mcp_pair("tools/call")
    assert "path" not in request["params"]["arguments"]
    assert reply["result"]["isError"] is True
    assert forced.answer.startswith("没有读到") and "01 " not in forced.answer


def test_the_question_is_reachable_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    from lessons_lib.cli import main

    assert main(["run", "--task", ASK_TASK, "--tool-choice", "auto"]) == 0
    out = capsys.readouterr().out
    assert "tools/call" not in out and "哪一个文件？" in out and "向用户提问" in out


# ---------------------------------------------------------------- whose failure it was
@pytest.fixture(scope="module", params=["responses", "chat", "anthropic"])
def unrouted(request: pytest.FixtureRequest) -> Any:
    return run_chain(script=Script(tool="fs__nope"), api=request.param)


def test_an_unknown_alias_is_told_as_the_applications_routing_failure(unrouted: Any) -> None:
    assert not [e for e in unrouted.events if e["channel"] == "mcp" and e["label"] == "tools/call"]
    assert "应用的路由失败，不是工具的失败" in unrouted.answer and "工具报告失败" not in unrouted.answer
    assert "no route for fs__nope" in unrouted.outcome["reason"]
    told = narrate(unrouted)
    assert "别名 fs__nope 不在应用的路由表里，这是应用的路由失败" in told
    assert "没有 tools/call 发给 MCP 服务" in told


def test_a_missing_file_is_told_as_the_tools_failure() -> None:
    missing = run_chain(path="/workspace/missing.txt")
    assert "工具报告失败" in missing.answer and "路由" not in missing.answer
    assert missing.outcome["reason"].endswith("1 tool call(s) failed at the service")
    assert "路由失败" not in narrate(missing) and "没有发出 tools/call" not in narrate(missing)


def test_an_empty_file_is_called_empty() -> None:
    text = feedback_paragraph(json.dumps({"path": "/workspace/empty.txt", "head": 5}), "")
    assert "文件是空的，0 行" in text and "前 5 行：" not in text


# ---------------------------------------------------------------- outcomes in two languages
def test_every_outcome_of_a_run_has_a_chinese_text_and_keeps_its_english_reason() -> None:
    stopped = run_chain(limits=Limits(max_rounds=1))
    assert stopped.outcome["reason"] == (
        "max_rounds=1 reached; the latest tool results were not sent to the model"
    )
    assert outcome_text(stopped.outcome) == (
        "已停止（stopped）：已到轮数上限 max_rounds=1：最近的工具结果没有交给模型，所以没有答复"
    )
    good = run_chain()
    assert outcome_text(good.outcome) == "已答复（answered）：模型在收到反馈之后作了答复"
    assert "the model answered" not in narrate(good)


def test_an_old_outcome_without_text_is_still_shown() -> None:
    assert outcome_text({"status": "stopped", "reason": "test"}) == "已停止（stopped）：test"


def test_message_counts_are_those_of_the_trace() -> None:
    trace = run_chain()
    model = sum(1 for e in trace.events if e["channel"] == "model")
    mcp = sum(1 for e in trace.events if e["channel"] == "mcp")
    counted = message_counts(trace)
    assert f"应用与模型接口之间：{model} 条消息（请求 2 条，回复 2 条）" in counted
    assert f"应用与 MCP 服务之间：{mcp} 帧" in counted and "tools/call 2 帧" in counted
    assert "Counter" not in counted


# ---------------------------------------------------------------- reads counted, failures marked
def test_the_service_counts_reads_and_parsing_is_not_one() -> None:
    before = service_reads()
    json.loads('{"path": "/workspace/notes.txt", "head": 20}')
    assert service_reads() == before
    read_text_file("/workspace/notes.txt", head=3)
    assert service_reads() == before + 1
    with pytest.raises(ToolRefusal):
        read_text_file("/workspace/../etc/passwd")
    assert service_reads() == before + 1  # a refusal reads nothing
    run_chain()
    assert service_reads() == before + 2


def test_the_failure_mark_is_mcps_field_and_only_this_applications_prefix_on_the_model_side() -> None:
    feedback = spec_fields("openai", "FunctionCallOutputItemParam")
    assert {"call_id", "output", "type"} <= set(feedback)
    assert not [f for f in feedback if "error" in f.lower()]
    assert "isError" in spec_fields("mcp", "CallToolResult")
    with pytest.raises(ValueError, match="no definition"):
        spec_fields("mcp", "NoSuchThing")
