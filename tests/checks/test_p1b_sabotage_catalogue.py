"""Lesson 08's sabotage catalogue against seed 000 section 8 (issue 37 point 5).

Each entry makes the mistake it is labelled with: mistake 1 feeds the declaration back as if it
had run (nothing executed), mistake 3 is a real refusal of the file service taken for a read.
"""

from __future__ import annotations

import json

import pytest

from lessons_lib.checks._mistakes import BOTH_HEAD_AND_TAIL
from lessons_lib.checks.evidence import mcp_exchange, model_body, output_items
from lessons_lib.checks.sabotage import SABOTAGES, _default_trace
from lessons_lib.core.messages import speaking
from lessons_lib.services.files.service import ToolRefusal, read_text_file

SEED_SECTION_8 = (
    "把声明当作执行代码",
    "把规则当成实际参数",
    "解析成功就标成读取成功",
    "把格式正确当作拥有权限",
    "混用两个编号",
    "只写入服务日志却没有把结果加入模型输入",
    "把原始工具数据直接说成最终回答",
)
"""Seed 000, section 8: "常见错误包括：…" in the seed's order and words."""


def test_the_catalogue_lists_the_seeds_seven_mistakes_in_order() -> None:
    with speaking("zh"):
        assert tuple(s.mistake for s in SABOTAGES) == SEED_SECTION_8


def _feedback(trace: dict) -> str:
    return output_items(model_body(trace, "request_2"))[0]["output"]


def test_mistake_1_feeds_back_the_declaration_and_runs_nothing() -> None:
    good = _default_trace()
    broken = SABOTAGES[0].apply(good)
    assert SABOTAGES[0].name == "declaration_as_execution"
    assert mcp_exchange(broken) == (None, None)
    declared = json.loads(_feedback(broken))
    assert declared == model_body(good, "request_1")["tools"][0]
    assert "01 " not in _feedback(broken)  # no line of the file: nothing was read


def test_mistake_3_is_the_services_own_refusal_of_an_existing_file() -> None:
    good = _default_trace()
    broken = SABOTAGES[2].apply(good)
    assert SABOTAGES[2].name == "parse_as_read"
    request, response = mcp_exchange(broken)
    args = request["params"]["arguments"]
    assert args == {"path": "/workspace/notes.txt", "head": 20, "tail": 5}
    assert read_text_file("/workspace/notes.txt", head=20)  # the file exists
    with pytest.raises(ToolRefusal, match=BOTH_HEAD_AND_TAIL):
        read_text_file(**args)
    assert response["result"] == {"content": [{"type": "text", "text": BOTH_HEAD_AND_TAIL}], "isError": True}
    assert "File not found" not in json.dumps(broken)
    assert _feedback(broken) == _feedback(good)  # the file's lines, claimed as read
