"""The gradebook and the single-file grader agree (issue 39): lesson 11's reference cells get the
same verdict per exercise alone and in a class folder, stage 3 (``app_loop_many``) is a row of
the CSV, and an exception crosses the gradebook's pipe as the same class (a ``JSONDecodeError``
stays a ``ValueError``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from lessons_lib.workshop.gradebook.loops import exercises, grade
from lessons_lib.workshop.gradebook.pipe import exception_data, rebuild_exception
from lessons_lib.workshop.loop.grading_files import grade_file

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "11_write_the_loop.ipynb"


def _across_the_pipe(exc: BaseException) -> Exception:
    return rebuild_exception(json.loads(json.dumps(exception_data(exc, None))))


def test_a_json_decode_error_stays_a_value_error_across_the_pipe() -> None:
    try:
        json.loads("{")
    except ValueError as exc:
        rebuilt = _across_the_pipe(exc)
    assert isinstance(rebuilt, json.JSONDecodeError) and isinstance(rebuilt, ValueError)
    assert "Expecting property name" in str(rebuilt)


def test_a_learners_own_exception_keeps_its_builtin_base() -> None:
    class NoSuchTool(LookupError):
        pass

    rebuilt = _across_the_pipe(NoSuchTool("notes__x"))
    assert type(rebuilt).__name__ == "NoSuchTool" and isinstance(rebuilt, LookupError)


def test_stage_three_is_an_exercise_of_the_gradebook() -> None:
    assert exercises()[-2:] == ("app_loop", "app_loop_many")


STRICT = "    try:\n        args = json.loads(call.arguments)\n    except ValueError as exc:\n"
LETS_IT_RISE = "    args = json.loads(call.arguments)  # a JSONDecodeError is a ValueError\n    if False:\n"


def test_the_same_verdict_alone_and_in_a_folder(tmp_path: Path) -> None:
    """The reference cells, and a route_call that lets json.loads raise (correct: it is a ValueError)."""
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copyfile(NOTEBOOK, folder / "reference.ipynb")
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    solution = "\n\n".join(
        "".join(c["source"]) for c in cells if "solution" in c.get("metadata", {}).get("tags", [])
    )
    assert solution.count(STRICT) == 1
    (folder / "plain.py").write_text(solution.replace(STRICT, LETS_IT_RISE), encoding="utf-8")
    rows, _ = grade(folder, cells="solution", jobs=1)
    assert [r.exercise for r in rows if r.learner == "reference"] == list(exercises())
    for row in rows:
        path = folder / row.file
        alone = grade_file(path, function=row.exercise, cells="solution")
        assert (row.passed, row.link or None) == (alone.passed, alone.link), (row, alone.text())
        assert row.passed, row
