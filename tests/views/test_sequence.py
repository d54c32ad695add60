"""The sequence diagram's lanes (lessons 04, 05; issue 13 point 3), read back from the drawn SVG.

Lesson 04 says there is no line between the model and the service: so no MCP arrow may pass
the model's lifeline, and model arrows run only between the application and the model.
"""

from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from _seq_geometry import SVG_NS, Arrow, Lane, read_svg, violations

from lessons_lib import trace_diagram
from lessons_lib.core.paths import DATA_DIR
from lessons_lib.views import sequence
from lessons_lib.views.sequence import LABEL_EM, LABEL_PT, build_rows
from lessons_lib.views.textwidth import ems, wrap

PX_PER_PT = 96 / 72
# The notebook's output column in JupyterLab 4 at a 1,000 px wide window with the file browser
# open, as tests/platform/test_browser.py::test_lessons_05_and_09_at_1000px measures it: a wider SVG is
# neither shrunk nor wrapped, it is cut off and needs a horizontal scroll.
OUTPUT_COLUMN_PX = 568


def trace_data(api: str = "") -> dict[str, Any]:
    path = DATA_DIR / api / "trace.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def broken(drop: set[int]) -> dict[str, Any]:
    """The recorded run with some events removed: the diagram draws the missing messages."""
    data = copy.deepcopy(trace_data())
    data["events"] = [e for e in data["events"] if e["seq"] not in drop]
    data.update(answer=None, outcome={"status": "stopped", "reason": "test"})
    return data


def drawn(trace: dict[str, Any] | Path) -> tuple[list[Lane], list[Arrow]]:
    return read_svg(trace_diagram(trace).svg())


CASES = {
    "recorded": lambda: trace_data(),
    "anthropic": lambda: trace_data("anthropic"),
    "chat": lambda: trace_data("chat"),
    "no feedback": lambda: broken({9, 10}),  # missing: the next model request
    "no tools/call": lambda: broken({7, 8, 9, 10}),  # missing: the MCP request
    "no reply": lambda: broken({8, 9, 10}),  # missing: the MCP result
    "no answer": lambda: broken({10}),  # missing: response_2
}


@pytest.mark.parametrize("case", list(CASES))
def test_no_mcp_arrow_crosses_the_model_lane(case: str) -> None:
    data = CASES[case]()
    lanes, arrows = drawn(data)
    _, rows = build_rows(data)
    assert [a.row for a in arrows] == list(range(len(rows))), "every row is drawn as one tagged arrow"
    assert [a.channel for a in arrows] == [sequence.channel(r) for r in rows]
    assert {a.channel for a in arrows} == {"user", "model", "mcp"}
    assert violations(lanes, arrows) == []
    model_x = next(lane.x for lane in lanes if lane.kind == "model")
    for a in arrows:
        if a.channel == "mcp":
            assert min(a.x1, a.x2) > model_x, f"row {a.row}: {rows[a.row].label!r} reaches the model lane"


def test_model_arrows_touch_only_the_application_and_the_model() -> None:
    lanes, arrows = drawn(trace_data())
    x = {lane.kind: lane.x for lane in lanes}
    model_rows = [a for a in arrows if a.channel == "model"]
    assert len(model_rows) == 4  # request_1, response_1, request_2, response_2
    for a in model_rows:
        lo, hi = sorted((a.x1, a.x2))
        assert lo == pytest.approx(x["model"], abs=4) and hi == pytest.approx(x["application"], abs=4)
    user = [a for a in arrows if a.channel == "user"]
    assert [a.row for a in user] == [0, len(arrows) - 1]  # the task at the top, the answer at the bottom
    assert all(abs(a.x1 - x["application"]) < 5 and abs(a.x2 - x["application"]) < 5 for a in user)


def test_the_rule_fails_on_the_old_lane_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """The order before issue 13 (user | application | model | service) breaks the rule."""
    real = sequence.build_rows

    def old_order(data: Any) -> tuple[list[str], list[sequence.SeqRow]]:
        lanes, rows = real(data)
        return ["user", "application", "model", *lanes[3:]], rows

    monkeypatch.setattr(sequence, "build_rows", old_order)
    lanes, arrows = drawn(trace_data())
    found = violations(lanes, arrows)
    mcp_rows = [a.row for a in arrows if a.channel == "mcp"]
    assert len(mcp_rows) == 7 and len(found) == 7  # initialize ... tools/call result: all seven cross
    assert all("(mcp)" in line and "'model'" in line for line in found)


def test_lanes_are_drawn_model_application_services() -> None:
    lanes, _ = drawn(trace_data())
    assert [lane.kind for lane in sorted(lanes, key=lambda lane: lane.x)] == [
        "model",
        "application",
        "service",
    ]
    assert build_rows(trace_data())[0] == ["user", "model", "application", "fs"]
    assert trace_diagram(trace_data()).description.startswith(
        "图：运行记录的时序（纵列：模型接口 | 应用 | 工具服务 fs；用户在应用一列的上下两端）"
    )


def test_readable_at_1000px() -> None:
    """Shown whole at its own size in Lab at 1,000 px; every label line within LABEL_EM ems."""
    for data in (trace_data(), broken({7, 8, 9, 10})):  # the longest labels: a missing tools/call
        root = ET.fromstring(trace_diagram(data).svg().encode("utf-8"))
        width_pt = float(root.get("width", "").removesuffix("pt"))
        assert width_pt * PX_PER_PT <= OUTPUT_COLUMN_PX, f"{width_pt}pt is wider than the output column"
        labels = [t.text or "" for t in root.iter(f"{SVG_NS}text") if t.get("font-size") == f"{LABEL_PT:.2f}"]
        assert len(labels) > 20 and max(ems(line) for line in labels) <= LABEL_EM


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        (
            '{"path": "/workspace/notes.txt", "head": 20}',
            18,
            ['{"path": "/workspace/notes.txt",', '"head": 20}'],
        ),
        (
            "call_id=call_offline_001_1 没有对应的 MCP 请求",
            18,
            ["call_id=call_offline_001_1", "没有对应的 MCP 请求"],
        ),
        ("[04] tools/list · id=2", 18, ["[04] tools/list · id=2"]),
        ("", 18, [""]),
    ],
)
def test_wrap_breaks_at_spaces_within_the_limit(text: str, limit: float, expected: list[str]) -> None:
    lines = wrap(text, limit)
    assert lines == expected
    assert all(ems(line) <= limit for line in lines)
    assert " ".join(lines) == text  # nothing lost, no word cut in the middle
