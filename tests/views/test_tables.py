"""Tables read left to right (issue 13, point 5): every ``th`` and ``td`` the course shows is
left-aligned by an inline style (JupyterLab right-aligns cells otherwise), no ``<pre>`` breaks a
word, and every verdict cell carries its status colours beside a mark.

Two views of the same promise: the objects built here from real runs (one per table class; the
slowest, the acceptance matrix and the tool_choice comparison, only through their lessons), and
every stored notebook output (which strict nbval keeps equal to a fresh run).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

import pytest
from conftest import course_notebooks

from lessons_lib.core.glossary import STATUSES

VERDICT_WORDS = {"PASS", "FAIL", "通过", "不通过", "未通过", "断开", "未检查", "已拒绝", "没有被发现"}
"""A cell whose whole text is one of these is a verdict and must carry its status."""


def _props(style: str) -> dict[str, str]:
    out = {}
    for part in style.split(";"):
        if ":" in part:
            key, value = part.split(":", 1)
            out[key.strip().lower()] = value.strip().lower()
    return out


class _Cells(HTMLParser):
    """Every th/td with its attributes and text, and every pre's style."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.cells: list[dict[str, Any]] = []
        self.pres: list[dict[str, str]] = []
        self._open: list[dict[str, Any]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag in ("td", "th"):
            cell = {"tag": tag, "attrs": a, "text": ""}
            self.cells.append(cell)
            self._open.append(cell)
        elif tag == "pre":
            self.pres.append(_props(a.get("style", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        for cell in self._open:
            cell["text"] += data


def problems(page: str) -> list[str]:
    """What in one HTML output breaks the promise (empty when it holds)."""
    parsed = _Cells()
    parsed.feed(page)
    found = []
    for cell in parsed.cells:
        # inline, as JupyterLab keeps style attributes even where it strips <style> (untrusted outputs)
        props = _props(cell["attrs"].get("style", ""))
        if props.get("text-align") != "left":
            found.append(f"<{cell['tag']}> not left-aligned: {cell['text'][:40]!r}")
        if props.get("word-break") == "break-all" or "anywhere" in props.get("overflow-wrap", ""):
            found.append(f"<{cell['tag']}> breaks words: {cell['text'][:40]!r}")
        word = cell["text"].strip().lstrip("✓✗○… ").strip()
        state = cell["attrs"].get("data-status")
        if word in VERDICT_WORDS and state is None:
            found.append(f"verdict cell without a status: {word!r}")
        if state is not None:
            look = STATUSES[state]  # type: ignore[index]
            if props.get("background", "").upper() != look.background or not cell["text"].startswith(
                look.mark
            ):
                found.append(f"status cell {word!r} without its colour and mark")
    for pre in parsed.pres:
        if pre.get("word-break") != "normal":
            found.append("<pre> without word-break:normal (JupyterLab breaks its words)")
    return found


def _html(obj: object) -> str:
    bundle = obj._repr_mimebundle_() if hasattr(obj, "_repr_mimebundle_") else {}  # type: ignore[attr-defined]
    page = bundle.get("text/html") or (obj._repr_html_() if hasattr(obj, "_repr_html_") else "")  # type: ignore[attr-defined]
    assert page, f"{type(obj).__name__} has no HTML form"
    return str(page)


def _builders() -> dict[str, Callable[[], object]]:
    """One builder per table class the course shows (the real code paths the lessons call)."""
    import lessons_lib as L
    from lessons_lib.checks.checker import step_verdict
    from lessons_lib.course.quiz import Feedback

    trace = L.load_trace(L.DATA_DIR / "trace.json")  # the recorded offline run
    parallel = L.run_order_scenario("parallel").trace  # one order-desk run shared by its tables

    return {
        "verify_fields": lambda: L.verify_fields(trace.to_dict()),
        "verify_roundtrip": lambda: L.verify_roundtrip(L.load_fixture("responses_roundtrip.json")),
        "diagnose": lambda: L.diagnose(trace),
        "diagnose_broken": lambda: L.diagnose(L.SABOTAGES.get("mixed_ids").apply(trace.to_dict())),
        "sabotages": lambda: L.SABOTAGES,
        "run_sabotage": lambda: L.run_sabotage("parse_as_read"),
        "api_sabotages": lambda: L.API_SABOTAGES,
        "compare_head": lambda: L.compare_head(20, 5).changed(),
        "bad_value": lambda: L.run_bad_value("head_text"),
        "scenario": lambda: L.run_scenario("missing_file"),
        "quick_reference": L.quick_reference,
        "command_list": L.command_list,
        "colour_legend": L.colour_legend,
        "environment_check": L.environment_check,
        "side_by_side": lambda: L.side_by_side("response_1", "mcp_request"),
        "api_map": L.api_map,
        "api_side_by_side": L.api_side_by_side,
        "order_scenarios": L.order_scenarios,
        "ledger_table": lambda: L.ledger_table(parallel),
        "verify_calls": lambda: L.verify_calls(parallel),
        "call_sabotages": lambda: L.try_call_sabotages(
            {"parallel": parallel, "retry": L.run_order_scenario("retry").trace}
        ),
        "choice_table": lambda: L.choice_table(L.run_three_ways()),
        "revision_table": lambda: L.revision_table(L.record_revisions(head=5)),
        "left_aligned": lambda: L.left_aligned(_frame()),
        "step_result": lambda: step_verdict("第 1 步", False, "还差一点", "看 call_id"),
        "quiz_feedback": lambda: Feedback("q1", "b", True, "对"),
    }


def _frame() -> Any:
    import pandas as pd

    from lessons_lib.core.glossary import STEP_ZH, TERMS_ZH

    return pd.DataFrame(list(STEP_ZH.items()) + list(TERMS_ZH.items()), columns=["English", "中文"])


@pytest.fixture(scope="session")
def course_tables() -> dict[str, str]:
    return {name: _html(build()) for name, build in _builders().items()}


def test_every_table_of_the_course_reads_left_to_right(course_tables: dict[str, str]) -> None:
    bad = {name: found[:3] for name, page in course_tables.items() if (found := problems(page))}
    assert not bad, bad


def test_status_cells_carry_the_status_colours(course_tables: dict[str, str]) -> None:
    states = {name: set(re.findall(r'data-status="(\w+)"', page)) for name, page in course_tables.items()}
    assert states["verify_fields"] == {"pass"}
    assert {"pass", "fail", "unchecked"} <= states["diagnose_broken"]  # 通过, 断开, 未检查
    assert "fail" in states["step_result"] and "pass" in states["quiz_feedback"]
    assert "fail" in states["bad_value"]  # the schema check says 不通过
    assert states["call_sabotages"] == {"pass"}  # every sabotage rejected: 已拒绝


def test_the_checker_fails_on_right_aligned_cells() -> None:
    """The check itself can fail: a bare table, a break-all pre, a colourless verdict."""
    assert problems("<table><tr><th>a</th></tr><tr><td>b</td></tr></table>")
    assert problems('<pre style="white-space:pre-wrap">x</pre>')
    assert problems('<table><tr><td style="text-align:left">断开</td></tr></table>')
    assert not problems('<table><tr><td style="text-align:left">说明</td></tr></table>')


@pytest.mark.parametrize("path", course_notebooks(), ids=lambda p: p.stem[:2])
def test_stored_notebook_tables_read_left_to_right(path: Any) -> None:
    nb = json.loads(path.read_text(encoding="utf-8"))
    bad = []
    for n, cell in enumerate(nb["cells"]):
        for out in cell.get("outputs", []):
            page = out.get("data", {}).get("text/html")
            if page:
                bad += [f"cell {n}: {p}" for p in problems("".join(page))]
    assert not bad, bad[:5]


_RENDER = """
import pandas as pd
from lessons_lib import left_aligned
df = pd.DataFrame([("<声明>", "file system 文件系统"), ("调用", 20)], columns=["步骤", "值"])
print(left_aligned(df)._repr_mimebundle_()["text/html"], end="")
"""


def test_styler_output_is_the_same_bytes_in_two_fresh_interpreters() -> None:
    """Two separate runs (as two kernels would) give byte-identical Styler HTML, left-aligned."""
    pages = [
        subprocess.run([sys.executable, "-c", _RENDER], capture_output=True, text=True, check=True).stdout
        for _ in range(2)
    ]
    assert pages[0] == pages[1]
    assert not problems(pages[0]) and "&lt;声明&gt;" in pages[0]  # escaped, every cell left
    assert "row0_col0" in pages[0] and ">0<" not in pages[0]  # the counting index is hidden


def test_styler_keeps_a_meaningful_index_and_a_given_uuid() -> None:
    import pandas as pd

    from lessons_lib import left_aligned

    df = pd.DataFrame({"值": [1, 2]}, index=["head", "tail"])
    page = left_aligned(df, uuid="fixed").html()
    assert 'id="T_fixed"' in page and ">head<" in page and not problems(page)
    assert left_aligned(df).html() == left_aligned(df.copy()).html()
