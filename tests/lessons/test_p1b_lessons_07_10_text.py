"""Lessons 07-10 say what is true (issue 37 points 4-7) and their stored outputs stay readable.

Each test reads the stored notebooks of both editions: what a learner sees without a kernel.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from lessons_lib.core.paths import NOTEBOOK_DIR
from lessons_lib.views.textwidth import width

EDITIONS = ("zh", "en")
CJK = re.compile(r"[\u4e00-\u9fff]")


def _cells(name: str, edition: str) -> dict[str, dict[str, Any]]:
    folder = NOTEBOOK_DIR if edition == "zh" else NOTEBOOK_DIR / "en"
    nb = json.loads((folder / f"{name}.ipynb").read_text(encoding="utf-8"))
    return {c["id"]: c for c in nb["cells"]}


def _source(cell: dict[str, Any]) -> str:
    return "".join(cell["source"])


def _plain(cell: dict[str, Any]) -> str:
    parts = [o.get("data", {}).get("text/plain", o.get("text", "")) for o in cell.get("outputs", [])]
    return "\n".join("".join(p) for p in parts)


@pytest.mark.parametrize("edition", EDITIONS)
def test_07_counts_six_relations_of_the_seed_and_one_of_the_course(edition: str) -> None:
    text = _source(_cells("07_local_checks", edition)["c06"])
    assert (
        ("六项" in text and "课程自" in text)
        if edition == "zh"
        else ("**six**" in text and "course's own" in text)
    )
    assert "七条检查各自对应原文" not in text


@pytest.mark.parametrize("edition", EDITIONS)
def test_07_runs_the_stand_alone_scripts(edition: str) -> None:
    cells = _cells("07_local_checks", edition)
    ran = _plain(cells["c24-standalone"]) + _plain(cells["c24-standalone-broken"])
    assert "PASS [sabotage:dropped_call]" in ran and "FAIL [values_equal]" in ran
    assert not re.search(r"/tmp/|/work/|/home/|[A-Z]:\\", ran)


@pytest.mark.parametrize("edition", EDITIONS)
def test_08_explains_the_error_marker_before_the_verdicts_use_it(edition: str) -> None:
    cells = _cells("08_benefits_costs_failures", edition)
    assert "`ERROR: `" in _source(cells["c10"]) and "05" in _source(cells["c10"])
    assert "File not found" not in _plain(cells["c15"])


@pytest.mark.parametrize("edition", EDITIONS)
def test_09_says_the_mcp_id_is_the_applications_counter(edition: str) -> None:
    text = _source(_cells("09_what_if", edition)["c05"])
    assert "真实接口每次都会给出新的编号" not in text and "the real API gives new ids every time" not in text
    assert (
        ("应用自己的请求计数器" in text) if edition == "zh" else ("application's own request counter" in text)
    )


@pytest.mark.parametrize("edition", EDITIONS)
def test_09_stored_outputs_are_lean_and_readable(edition: str) -> None:
    cells = _cells("09_what_if", edition)
    stored = sum(len(json.dumps(c.get("outputs", []), ensure_ascii=False).encode()) for c in cells.values())
    assert stored < 230_000, f"09's outputs are {stored // 1024} KB (292 KB before issue 37)"
    assert len(json.dumps(cells["c09"]["outputs"])) < 4_000, "the lab at head=20 stores a 20-vs-20 view"
    scope = "比较范围：" if edition == "zh" else "Compared: messages"
    assert sum(_plain(c).count(scope) for c in cells.values()) == 1
    for cid, cell in cells.items():
        widest = max((width(line) for line in _plain(cell).splitlines()), default=0)
        assert widest <= 220, f"09 [{cid}] has a {widest}-column line (up to 607 before issue 37)"
    assert "…" not in _plain(cells["c20"]).split("\n", 2)[2], "the bad-values fallback cuts a cell"


@pytest.mark.parametrize("edition", EDITIONS)
def test_10_points_on_to_11_and_reviews_11_and_12(edition: str) -> None:
    cells = _cells("10_quick_reference", edition)
    assert "课程到此结束" not in _source(cells["c14"]) and "end of the course" not in _source(cells["c14"])
    assert "(11_write_the_loop.ipynb)" in _source(cells["c14"])
    assert "(11_write_the_loop.ipynb)" in _source(cells["c08"]) and "(12_write_a_server.ipynb)" in _source(
        cells["c08"]
    )
    assert max(width(line) for line in _plain(cells["c07"]).splitlines()) <= 100


def test_07_exercise_cells_speak_both_languages() -> None:
    for cid, cell in _cells("07_local_checks", "zh").items():
        if {"exercise", "solution"} & set(cell.get("metadata", {}).get("tags", [])):
            for line in _source(cell).splitlines():
                if CJK.search(line) and "#" in line:  # a comment or TODO: Chinese / English
                    assert re.search(r" / [A-Za-z]+ [a-z]+", line), (cid, line)
            assert "Return a broken copy" in _source(cell), cid
