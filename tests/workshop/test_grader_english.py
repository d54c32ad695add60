"""The graders of lessons 11 and 12 and the gradebook speak English too (issue 28): run under
``set_language("en")``, the verdicts, case names, hints and refusals they print hold no Chinese
(the user's task text stays Chinese in both editions, so the cases checked here do not quote it)."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import cast

import pytest

from lessons_lib.core.messages import set_language, t, zh
from lessons_lib.workshop.gradebook.guard import Guard
from lessons_lib.workshop.gradebook.loops import GradebookInputError, grade
from lessons_lib.workshop.gradebook.trusted import HINTS, hint_for
from lessons_lib.workshop.loop.grading import GradeInputError, grade_loop
from lessons_lib.workshop.loop.grading_cases import LINK_ZH, LOOP_CASES, MANY_CASES, WHERE, link_name, where
from lessons_lib.workshop.loop.grading_files import grade_file, load_function
from lessons_lib.workshop.server.cases import SCHEMA_REJECTS, Hidden, invalid
from lessons_lib.workshop.server.grading import judge
from lessons_lib.workshop.server.judges import EXPECTATIONS
from lessons_lib.workshop.server.seen import Seen

CHINESE = re.compile(r"[\u3400-\u9fff]")
CATALOGUE = Path(__file__).parents[1] / "loop_catalogue"
sys.path.insert(0, str(CATALOGUE))
from wrong_loops import WRONG  # noqa: E402


def _english(text: str) -> str:
    assert text and not CHINESE.search(text), text
    return text


def _wrong(label: str, tmp_path: Path) -> Path:
    wrong = WRONG[label]
    source = (CATALOGUE / f"{wrong.base}.py").read_text(encoding="utf-8")
    path = tmp_path / "submission.py"
    path.write_text(source.replace(wrong.old, wrong.new), encoding="utf-8")
    return path


@pytest.mark.usefixtures("english")
def test_the_loop_grader_names_the_broken_link_in_english(tmp_path: Path) -> None:
    report = grade_file(_wrong("JSON-RPC id reused", tmp_path))
    assert not report.passed and report.link == "id_reused"
    text = _english(report.text())
    assert "the first broken link is “correlating identifier”" in text
    assert text.startswith("Application loop grading") and "look at: execution:" in text
    assert _english(grade_loop(42).lines[0]) == "what is graded should be a function; got int"


@pytest.mark.usefixtures("english")
def test_every_case_link_and_hint_has_english_words() -> None:
    for case in (*LOOP_CASES, *MANY_CASES):
        _english(case.title)
        assert case.hint == "" or _english(case.hint)
    assert {_english(where(k)) for k in WHERE} and {_english(link_name(k)) for k in LINK_ZH}
    assert {_english(hint_for(k)) for k in HINTS} and hint_for("nothing") == ""
    assert LOOP_CASES[-1].title == "the model keeps calling tools (max_rounds=5)"


def test_the_chinese_case_names_are_the_old_ones(english: None) -> None:
    assert zh(LOOP_CASES[-1].title_key, rounds=5) == "模型一直要求调用工具（max_rounds=5）"
    set_language(None)
    assert LOOP_CASES[0].title == "示例：前 20 行" and where("unfinished") == "函数里还留着 ...：换成你的代码"


@pytest.mark.usefixtures("english")
def test_the_file_and_folder_errors_are_english(tmp_path: Path) -> None:
    with pytest.raises(GradeInputError) as missing:
        load_function(tmp_path / "nothing.py", "app_loop")
    _english(str(missing.value))
    empty = tmp_path / "empty.py"
    empty.write_text("x = 1\n", encoding="utf-8")
    with pytest.raises(GradeInputError, match=r"has no function app_loop \(it defines: none\)"):
        load_function(empty, "app_loop")
    with pytest.raises(GradebookInputError) as folder:
        grade(tmp_path / "no-folder")
    _english(str(folder.value))


@pytest.mark.usefixtures("english")
def test_the_server_grader_and_its_expectations_speak_english(tmp_path: Path) -> None:
    assert all(_english(exp.title) and _english(exp.hint) for exp in EXPECTATIONS)
    hidden = Hidden(tmp_path, tmp_path, False)
    report = judge(Seen(hidden, stray=["hello"]))
    assert not report.passed and report.link == "stdout"
    assert _english(report.lines[0]).startswith(
        "the first broken expectation is “stdout holds only protocol frames”"
    )
    assert _english(report.title).startswith("MCP server grading")
    schema = {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}
    assert _english(cast(str, invalid({"query": 5}, schema))).startswith("query: ")
    assert _english(cast(str, invalid({}, {"type": 3}))).startswith("the schema itself is invalid: ")
    assert all(_english(t(why)) for _, why in SCHEMA_REJECTS)


@pytest.mark.usefixtures("english")
def test_the_gradebook_guard_refuses_in_english() -> None:
    guard = Guard([Path("/nonexistent-read")], [Path("/nonexistent-write")])
    with pytest.raises(PermissionError) as refused:
        guard("open", ("/etc/passwd", "r", 0))
    assert str(refused.value) == "not allowed during grading: opening /etc/passwd (outside the workspace)"
    with pytest.raises(PermissionError) as spawned:
        guard("os.system", ("ls",))
    assert _english(guard.refused[-1]) == "using other programs: os.system (ls)" and str(spawned.value)


@pytest.mark.usefixtures("english")
def test_a_gradebook_worker_speaks_the_gradebooks_language(tmp_path: Path) -> None:
    """The grading process is a new interpreter: the language in force goes with its job."""
    (tmp_path / "alice.py").write_text(
        (CATALOGUE / "ok_inline.py").read_text(encoding="utf-8"), encoding="utf-8"
    )
    rows, _ = grade(tmp_path, functions=["app_loop", "read_lines"], jobs=1)
    assert [(r.exercise, r.passed, r.link) for r in rows] == [
        ("app_loop", True, ""),
        ("read_lines", False, "no_function"),
    ]
    assert _english(rows[0].message).startswith("Passed: your application loop")
    assert (
        _english(rows[1].message)
        == "alice.py has no function read_lines (it defines: app_loop); name it with --function"
    )
    assert _english(rows[1].hint)
