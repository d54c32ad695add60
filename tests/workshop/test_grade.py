"""The lesson-11 grader: the reference loop passes, and each typical wrong loop is rejected by name.

The reference is the ``solution`` cells of ``notebooks/11_write_the_loop.ipynb`` (the code a
learner sees folded at the end of the lesson). Every wrong loop is that reference with one
mistake typed in (a text replacement that must apply exactly once), so the catalogue follows
the lesson. The grader must name the mistake itself, in the case that exposes it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from conftest import NOTEBOOKS_DIR

from lessons_lib.workshop.loop import grading
from lessons_lib.workshop.loop.grading import GradeInputError, GradeReport, grade_loop
from lessons_lib.workshop.loop.grading_cases import CASES
from lessons_lib.workshop.loop.grading_files import grade_file, load_function

NOTEBOOK = NOTEBOOKS_DIR / "11_write_the_loop.ipynb"


def tagged_source(tag: str, notebook: Path = NOTEBOOK) -> str:
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    cells = [
        "".join(c["source"])
        for c in nb["cells"]
        if c["cell_type"] == "code" and tag in c["metadata"].get("tags", [])
    ]
    assert cells, f"{notebook.name} has no cells tagged {tag}"
    return "\n\n".join(cells) + "\n"


REFERENCE = tagged_source("solution")


@dataclass(frozen=True)
class Wrong:
    """One typical mistake: what to type over the reference, and how the grader must name it."""

    old: str
    new: str
    link: str  # the key of the first broken link or of the grader's own check
    case: str  # the case that exposes it
    phrase: str  # words of the message that name this mistake


WRONG = {
    "alias not mapped back": Wrong(
        'routes[entry["name"]] = (fs.name, tool.name)',
        'routes[entry["name"]] = (fs.name, entry["name"])',
        "alias",
        "example",
        "别名没有映射回去",
    ),
    "wrong call_id": Wrong(
        "outputs.append(to_feedback(call.call_id, reply))",
        "outputs.append(to_feedback(call.id, reply))",
        "ids",
        "example",
        "反馈对不回原调用",
    ),
    "missing call_id": Wrong(
        '{"type": "function_call_output", "call_id": call_id, "output": output}',
        '{"type": "function_call_output", "output": output}',
        "ids",
        "example",
        "call_id 是 null",
    ),
    "original function_call dropped": Wrong(
        "return items + [item.to_dict() for item in response.output] + outputs",
        "return items + outputs",
        "context",
        "example",
        "丢了或改了原调用",
    ),
    "no second request": Wrong(
        "        items = next_input(items, response, outputs)\n",
        '        return outputs[0]["output"]\n',
        "next_input",
        "example",
        "没有把反馈交回模型",
    ),
    "first output item assumed (indexing)": Wrong(
        'return [item for item in response.output if item.type == "function_call"]',
        "return [response.output[0]]",
        "first_item",
        "example",
        "假定了 output 的第一项就是调用",
    ),
    "first output item assumed (checked)": Wrong(
        'return [item for item in response.output if item.type == "function_call"]',
        'return response.output[:1] if response.output[0].type == "function_call" else []',
        "unexecuted",
        "text_first",
        "一个也没有执行",
    ),
    "failure reported as success": Wrong(
        'output = FAILURE_PREFIX + text if result.get("isError", False) else text',
        "output = text",
        "feedback",
        "missing_file",
        "读起来像读取成功",
    ),
    "JSON-RPC id reused": Wrong(
        "request_id = fs.next_id()", "request_id = 3", "id_reused", "two_calls", "已经用过"
    ),
    "no round limit": Wrong(
        "for _ in range(max_rounds):", "while True:", "no_limit", "endless", "没有守住轮数上限"
    ),
    "values hard-coded": Wrong(
        "args = json.loads(call.arguments)",
        'args = {"path": "/workspace/notes.txt", "head": 20}',
        "hard_coded",
        "another_head",
        "不能写死示例里的值",
    ),
    "nothing said at the limit": Wrong(
        '    return say(f"已经问了模型 {max_rounds} 轮',
        '    return None\n    return say(f"已经问了模型 {max_rounds} 轮',
        "stop_message",
        "endless",
        "返回一句说明",
    ),
    "bad arguments not caught": Wrong(
        "            except ValueError as problem:  # not executed",
        "            except KeyError as problem:  # not executed",
        "bad_arguments",
        "bad_arguments",
        "不是 JSON 对象",
    ),
}
"""Mistakes typed into the notebook's reference (the first occurrence: the stage-2 app_loop)."""


def define(source: str, name: str = "app_loop", path: Path | None = None) -> object:
    namespace: dict[str, object] = {"__name__": "submission"}
    exec(compile(source, str(path or f"<{name}>"), "exec"), namespace)
    return namespace[name]


@cache
def graded(label: str) -> GradeReport:
    if label == "reference":
        return grade_loop(define(REFERENCE))
    wrong = WRONG[label]
    assert wrong.old in REFERENCE, f"{label}: the reference no longer holds {wrong.old!r}"
    return grade_loop(define(REFERENCE.replace(wrong.old, wrong.new, 1)))


def test_reference_passes_every_case() -> None:
    report = graded("reference")
    assert report.passed, report.text()
    assert [c.key for c in report.cases] == [c.key for c in CASES]
    assert {"another_head", "missing_file", "outside_root", "two_calls"} <= {c.key for c in report.cases}
    assert report.link is None and report.case is None


def test_the_catalogue_has_the_mistakes_the_issue_names() -> None:
    assert len(WRONG) >= 10
    assert len({w.link for w in WRONG.values()}) >= 9  # distinct links or checks, not one catch-all
    # (the wider catalogue, in four styles, is tests/loop_catalogue with test_grade_catalogue.py)


def test_the_learners_own_pairing_record_is_not_needed() -> None:
    """``fs.send(frame)`` without ``call_id``: the model and the service saw a whole chain, so it passes."""
    source = REFERENCE.replace("fs.send(frame, call_id=call_id)", "fs.send(frame)")
    assert grade_loop(define(source)).passed


@pytest.mark.parametrize("label", list(WRONG))
def test_wrong_loop_is_rejected_with_its_own_mistake(label: str) -> None:
    wrong, report = WRONG[label], graded(label)
    assert not report.passed, f"{label}: the grader let it pass"
    assert (report.link, report.case) == (wrong.link, wrong.case), report.text()
    assert wrong.phrase in report.lines[0], report.text()
    assert report.hint, "every failure says where to look"
    others = [w.phrase for k, w in WRONG.items() if w.link != wrong.link]
    assert not [p for p in others if p in report.lines[0]], f"{label}: the message names another mistake"


def test_a_mistake_only_a_variation_shows_passes_the_example() -> None:
    """Hard-coding the example's values is invisible on the example itself."""
    report = graded("values hard-coded")
    assert [(c.key, c.passed) for c in report.cases[:2]] == [("example", True), ("another_head", False)]


def test_report_is_plain_data() -> None:
    data = graded("failure reported as success").to_dict()
    assert json.loads(json.dumps(data, ensure_ascii=False)) == data
    assert set(data) >= {"passed", "message", "case", "link", "hint", "cases"}
    bundle = graded("reference")._repr_mimebundle_()
    assert "通过" in bundle["text/plain"] and "<div" in bundle["text/html"]


def test_the_learners_recorded_messages_are_valid_api_shapes() -> None:
    """Two calls and a leading message (the new stand-in options) stay within the OpenAI schema."""
    from test_engine_fixtures import errors, openai_errors

    for case in CASES:
        if case.key not in ("two_calls", "text_first", "bad_arguments", "unknown_alias"):
            continue
        record = grading.run_local(define(REFERENCE), case)
        assert record.raised is None and isinstance(record.answer, str)
        bodies = {e["label"]: e["body"] for e in record.events if e["channel"] == "model"}
        for label in ("request_1", "request_2"):
            # a model message sent back as input is an OutputMessage item (the mapping there knows
            # only the user's message)
            given = [i for i in bodies[label]["input"] if i.get("role") == "assistant"]
            rest = [i for i in bodies[label]["input"] if i.get("role") != "assistant"]
            assert not openai_errors(request={**bodies[label], "input": rest}), (case.key, label)
            assert not [e for i in given for e in errors("openai", "OutputMessage", i)], (case.key, label)
        for label in ("response_1", "response_2"):
            assert not openai_errors(response=bodies[label]), (case.key, label)
        kinds = [i["type"] for i in bodies["response_1"]["output"]]
        assert kinds == (["message", "function_call"] if case.key == "text_first" else ["function_call"] * 2)


# --- grade_file and the command line -----------------------------------------------------------


def test_grade_file_reads_py_and_notebooks(tmp_path: Path) -> None:
    good = tmp_path / "good.py"
    good.write_text(REFERENCE, encoding="utf-8")
    assert grade_file(good).passed
    assert grade_file(good, function="route_call").passed  # a step name runs that step's checker
    as_given = grade_file(NOTEBOOK)  # the exercise cells, blanks and all
    assert not as_given.passed and "还没有完成" in as_given.lines[0]
    assert grade_file(NOTEBOOK, cells="solution").passed
    early = NOTEBOOKS_DIR / "07_local_checks.ipynb"  # a small exercise, graded by its function's name
    assert "还没有完成" in grade_file(early, function="break_chain").lines[0]
    assert grade_file(early, function="break_chain", cells="solution").passed


@pytest.mark.parametrize(
    ("content", "args", "needle"),
    [
        (None, [], "没有这个文件"),
        ("def app_loop(:\n", [], "语法错误"),
        ("def other():\n    pass\n", [], "没有函数 app_loop"),
        (REFERENCE, ["--function", "nope"], "没有函数 nope"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, args: list[str], needle: str
) -> None:
    from lessons_lib.cli import main

    path = tmp_path / "submission.py"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["grade", str(path), *args]) == 2
    out, err = capsys.readouterr()
    assert needle in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert out == ""


def test_cli_pass_and_fail_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from lessons_lib.cli import main

    good, bad = tmp_path / "good.py", tmp_path / "bad.py"
    good.write_text(REFERENCE, encoding="utf-8")
    wrong = WRONG["failure reported as success"]
    bad.write_text(REFERENCE.replace(wrong.old, wrong.new), encoding="utf-8")
    assert main(["grade", str(good)]) == 0
    assert "通过" in capsys.readouterr().out
    assert main(["grade", str(bad), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["passed"] is False and report["link"] == "feedback" and report["case"] == "missing_file"


def test_a_crash_names_the_learners_line(tmp_path: Path) -> None:
    path = tmp_path / "crash.py"
    path.write_text(
        REFERENCE.replace("service, tool = routes[call.name]", "service, tool = routes[0]"), "utf-8"
    )
    report = grade_file(path)
    assert report.link == "crashed" and "KeyError" in report.lines[0]
    assert "出错的一行：service, tool = routes[0]" in report.lines[0]


def test_grade_input_error_is_a_value_error() -> None:
    assert issubclass(GradeInputError, ValueError)
    with pytest.raises(GradeInputError):
        load_function(NOTEBOOKS_DIR / "missing.ipynb")
