"""The offline stand-in never claims more than the feedback holds (issue 13, point 7).

Each wrapping (Responses, Chat Completions, Anthropic Messages) answers through the same
paragraph rule, so the checks run on that rule and on one real order-desk call answered by
the Responses stand-in.
"""

from __future__ import annotations

import json

from lessons_lib.engine.offline_model import OfflineModel, feedback_paragraph
from lessons_lib.engine.standin_rules import answer_part

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
