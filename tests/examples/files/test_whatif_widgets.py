"""Lesson 09: the head slider, driven without a browser (slider.value = 5 fires observers)."""

from __future__ import annotations

import json
import statistics
import time

import pytest

from lessons_lib.examples.files.whatif import notes_line_count
from lessons_lib.examples.files.widgets import head_view


def test_head_view_holds_the_mcp_request_and_the_result() -> None:
    view = head_view(5)
    assert '"head": 5' in view.mcp_request_json
    assert view.mcp_request_json == json.dumps(view.mcp_request, ensure_ascii=False, indent=2)
    assert json.loads(view.mcp_request_json)["params"]["arguments"] == {
        "path": "/workspace/notes.txt",
        "head": 5,
    }
    assert len(view.result_text.splitlines()) == 5 and view.result_text.startswith("01 ")
    assert view.highlights == {"mcp_request": ["params.arguments.head"], "function_call_output": ["output"]}
    bundle = view._repr_mimebundle_()
    assert '"head": 5' in bundle["text/plain"] and view.result_text in bundle["text/plain"]
    assert "&quot;head&quot;: 5" in bundle["text/html"]
    assert bundle == head_view(5)._repr_mimebundle_()
    assert repr(view) == "HeadView(head=5, baseline=20, changed=12)"


def test_head_view_trees_highlight_the_changed_fields() -> None:
    trees = head_view(5).trees()
    assert len(trees) == 2
    request, feedback = (t.text() for t in trees)
    head_line = next(line for line in request.splitlines() if line.strip().startswith("└── head: 5"))
    assert "◀ 高亮" in head_line
    assert all("◀ 高亮" not in line for line in request.splitlines() if "path:" in line or "name:" in line)
    assert any("output:" in line and "◀ 高亮" in line for line in feedback.splitlines())


def test_head_view_without_a_change_highlights_nothing() -> None:
    view = head_view(20)
    assert view.highlights == {"mcp_request": [], "function_call_output": []}
    assert "一个也没有改变" in view.summary()
    assert "◀ 高亮" not in view._repr_mimebundle_()["text/plain"]


def test_head_view_shows_the_chain_diagram() -> None:
    html = head_view(5)._repr_mimebundle_()["text/html"]
    assert "<svg" in html or "digraph" in html
    assert "新值从“调用”进入链路" in html


def test_slider_moves_and_the_output_follows() -> None:
    from lessons_lib.examples.files.widgets import PAST_END, head_lab

    lab = head_lab()
    slider, out = lab.slider, lab.out
    lines = notes_line_count()
    assert (slider.description, slider.min, slider.max, slider.value) == ("head", 1, lines + PAST_END, 20)
    first = out.outputs[0]["data"]["text/plain"]
    assert '"head": 20' in first and "没有改变" in first

    slider.value = 5
    assert len(out.outputs) == 1 and out.outputs[0]["output_type"] == "display_data"
    data = out.outputs[0]["data"]
    assert (
        '"head": 5' in data["text/plain"]
        and '"head": 20' not in data["text/plain"].split("MCP 请求（mcp_request，")[1]
    )
    assert "params.arguments.head" in data["text/plain"] and "head=20 → head=5" in data["text/plain"]
    assert "◀ 高亮" in data["text/html"]
    assert lab.view.head == 5 and lab.view.highlights["mcp_request"] == ["params.arguments.head"]
    row = lab.view.table.row("mcp_request", "params.arguments.head")
    assert (row.before, row.after, row.changed) == (20, 5, True)
    assert repr(lab) == f"HeadLab(head=5, baseline=20, max={lines + PAST_END})"


def test_past_the_end_the_feedback_holds_the_whole_file_and_says_so() -> None:
    from lessons_lib.examples.files.widgets import head_lab

    lab = head_lab()
    lab.slider.value = lab.slider.max
    assert lab.slider.max > notes_line_count() == 36
    view = lab.view
    assert view.table.row("读出的行", "line_count").after == 36
    assert len(view.result_text.splitlines()) == 36
    assert f'"head": {lab.slider.max}' in view.mcp_request_json
    assert "只返回 36 行" in view.summary() and "36 行" in view.feedback_caption()
    assert "文件只有 36 行" in lab.status.value
    assert head_view(36).past_end() == "" and head_view(5).past_end() == ""


def test_the_lab_bundle_holds_the_widget_and_the_static_view() -> None:
    from lessons_lib.examples.files.widgets import head_lab

    lab = head_lab()
    bundle = lab._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == lab.model_id
    # at the baseline nothing changed: the stored bundle is a short note, not a 20-vs-20 view (issue 37)
    assert "head=20" in bundle["text/html"] and "lessons-headview" not in bundle["text/html"]
    assert bundle["text/plain"].startswith("HeadLab(head=20, baseline=20, max=40)\n")
    assert len(bundle["text/html"]) + len(bundle["text/plain"]) < 2000
    lab.slider.value = 7
    assert head_view(7)._repr_mimebundle_()["text/plain"] in lab._repr_mimebundle_()["text/plain"]
    assert head_view(7)._repr_mimebundle_()["text/html"] in lab._repr_mimebundle_()["text/html"]


def test_a_cached_redraw_takes_well_under_100_ms() -> None:
    for head in (4, 5, 6):
        head_view(head)._repr_mimebundle_()
    times = []
    for head in (4, 5, 6, 5, 4, 6, 5):
        start = time.perf_counter()
        head_view(head)._repr_mimebundle_()
        times.append(time.perf_counter() - start)
    assert statistics.median(times) < 0.1, times


def test_the_lab_runs_a_head_only_when_it_is_first_asked_for() -> None:
    from lessons_lib.examples.files.whatif import _cached, has_run
    from lessons_lib.examples.files.widgets import head_lab

    _cached.cache_clear()  # other tests may have run any head already
    lab = head_lab()
    assert _cached.cache_info().misses == 1, "building the lab runs the baseline only"
    assert [h for h in range(1, lab.slider.max + 1) if has_run(h)] == [20]
    head = 7
    misses = _cached.cache_info().misses
    lab.slider.value = head
    assert _cached.cache_info().misses == misses + 1 and has_run(head)
    assert lab.status.value.startswith(f"head={head}：刚刚完成这个 head 的离线运行")
    lab.slider.value = 20
    lab.slider.value = head
    assert _cached.cache_info().misses == misses + 1
    assert (
        "之前已经运行过" in lab.status.value
        and f"、{head}" in lab.status.value
        or str(head) in lab.status.value
    )


def test_has_run_says_no_once_the_cache_dropped_a_run(monkeypatch: pytest.MonkeyPatch) -> None:
    from lessons_lib.engine import host
    from lessons_lib.examples.files import whatif

    monkeypatch.setattr(host, "run_chain", lambda **kw: kw)  # what a run was asked for stands in
    monkeypatch.setattr(whatif, "chain_fields", lambda trace: ())
    cache = whatif._RunCache(1)
    monkeypatch.setattr(whatif, "_cached", cache)
    whatif.cached_run(3)
    assert whatif.has_run(3)
    whatif.cached_run(4)  # the one slot now holds head 4: head 3 was dropped
    assert whatif.has_run(4) and not whatif.has_run(3) and cache.cache_info().misses == 2
