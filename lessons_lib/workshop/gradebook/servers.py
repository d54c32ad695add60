"""``grade-server FOLDER``: lesson 12's grader over a class's folder of servers, one CSV row each.

Introduced with lesson 12 (a teacher with thirty servers). A submission is a ``.py`` file at the
top of the folder (the learner is its stem) or a sub-folder named after the learner holding
one, as for the loop gradebook (:func:`lessons_lib.workshop.gradebook.loops.submissions`). Each file is
copied into a fresh folder and started under the guard (:mod:`server_guarded`): a process group
of its own, a scrubbed environment, limits, no file changes outside its copy. Rows have the loop
gradebook's columns and CSV rules (:func:`lessons_lib.workshop.gradebook.loops.to_csv`); the exercise is
``search_notes``.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Final

from lessons_lib.core.messages import t
from lessons_lib.workshop.gradebook.loops import GradebookInputError, Row, submissions
from lessons_lib.workshop.server.guarded import REFUSED_MARK

EXERCISE: Final = "search_notes"
GUARDED: Final = "lessons_lib.workshop.server.guarded"


def grade_server_folder(folder: str | Path, *, timeout: float = 5.0) -> list[Row]:
    """Every server of the folder graded under the guard: one row per learner, sorted."""
    from lessons_lib.workshop.gradebook.trusted import hint_for
    from lessons_lib.workshop.server.grading import ServerInputError, _check_file, grade_server_file

    root = Path(folder)
    if not root.is_dir():
        raise GradebookInputError(t("gradebook.grade.1", root=root))
    found = submissions(root)
    if not found:
        raise GradebookInputError(t("gradebook.grade.2", root=root))
    rows = []
    for learner, path, why in found:
        shown = path.relative_to(root).as_posix() if path is not None else ""
        if path is None or path.suffix != ".py":
            message = why or t("graders.folder.not_py", name=shown)
            rows.append(Row(learner, shown, EXERCISE, False, "bad_input", "", message))
            continue
        with tempfile.TemporaryDirectory(prefix="lessons-server-") as work:
            copy = Path(work) / "submission" / path.name
            copy.parent.mkdir()
            shutil.copyfile(path, copy)
            try:
                _check_file(copy)
                report = grade_server_file(GUARDED, module=True, args=(str(copy),), timeout=timeout)
            except ServerInputError as exc:
                rows.append(Row(learner, shown, EXERCISE, False, "bad_input", "", str(exc)))
                continue
        refused = [line for line in report.stderr.splitlines() if line.startswith(REFUSED_MARK)]
        if refused:
            hint = hint_for("refused")
            rows.append(Row(learner, shown, EXERCISE, False, "refused", hint, refused[0][:300]))
            continue
        message = "\n".join(report.lines)
        rows.append(Row(learner, shown, EXERCISE, report.passed, report.link or "", report.hint, message))
    return sorted(rows, key=lambda r: (r.learner, r.file))
