"""The gradebook: lesson 11's grader over a folder of learners' submissions, one CSV row each.

Introduced with lesson 11 (``python -m lessons_lib grade FOLDER``). A submission is a
notebook or a ``.py`` file at the top of the folder (the learner's name is the file's stem),
or a sub-folder named after the learner holding one (the layout of nbgrader's and a hub's
exchange folders); a learner with two of them is one ``duplicate`` row per exercise. Each
submission is copied into a fresh folder and its functions run in a grading process of their
own (``gradebook_worker``: a fork of a preloaded fork server where the platform can fork, else
``spawn``), started with a scrubbed environment; the checkers, the stand-in model and the file
service stay in this process and judge what they saw (``gradebook_remote``). A submission that
crashes, hangs, reads outside the workspace or attacks its neighbours is a failed row with a
reason, and the run goes on. Rows are sorted (learner, then the exercises in lesson order), hold
no path, time or machine detail, and no cell a spreadsheet would run as a formula.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, fields
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import Any, Final

from lessons_lib.core.messages import language, t

SUFFIXES: Final = (".ipynb", ".py")
TIMEOUT: Final = 20
"""Seconds one exercise may take (the reference grades all seven in about 2 s)."""
MEMORY_MB: Final = 1536
"""Address-space limit of a grading process (it needs about 250 MB)."""
STARTUP: Final = 30
"""Seconds of CPU a grading process may spend besides its exercises (imports)."""


class GradebookInputError(ValueError):
    """The folder cannot be graded at all (missing, empty): one line says why."""


@dataclass(frozen=True)
class Row:
    """One learner and exercise: passed or not, the first broken link, the hint, the reason."""

    learner: str
    file: str
    exercise: str
    passed: bool
    link: str = ""
    hint: str = ""
    message: str = ""


COLUMNS: Final = tuple(f.name for f in fields(Row))


def exercises() -> tuple[str, ...]:
    """The functions of lesson 11, in the order the lesson asks for them: the seven steps
    (``app_loop`` last of them), then stage 3, ``app_loop_many`` over two services."""
    from lessons_lib.workshop.loop.grading_cases import FUNCTION_CASES
    from lessons_lib.workshop.loop.steps import STEP_NAMES

    steps = tuple(sorted(STEP_NAMES, key=STEP_NAMES.__getitem__))
    return steps + tuple(f for f in FUNCTION_CASES if f not in steps)


def submissions(folder: Path) -> list[tuple[str, Path | None, str]]:
    """(learner, submission file or None, why not) for every entry of the folder, sorted."""
    found = []
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith((".", "_")):
            continue  # .ipynb_checkpoints, .DS_Store, __pycache__
        if entry.is_dir():
            files = sorted(
                p for p in entry.rglob("*") if p.suffix in SUFFIXES and ".ipynb_checkpoints" not in p.parts
            )
            why = "" if files else t("gradebook.submissions.1", name=entry.name)
            found.append((entry.name, files[0] if files else None, why))
        elif entry.suffix in SUFFIXES:
            found.append((entry.stem, entry, ""))
        else:
            found.append((entry.stem, None, t("gradebook.submissions.2", name=entry.name)))
    return found


PRELOAD: Final = ["lessons_lib.workshop.gradebook.preload"]
"""What the fork server imports once (the grading processes' warm-up)."""
KEPT_ENV: Final = ("PATH", "LANG", "LC_ALL", "SYSTEMROOT", "LESSONS_DATA_DIR", "LESSONS_DOT", "PYTHONPATH")
"""The only variables of the teacher's environment a grading process gets (no keys, no tokens)."""
_launching = threading.Lock()


def _context() -> BaseContext:
    """A fork server that imports the SDKs once where the platform can fork, else ``spawn``."""
    import multiprocessing

    if hasattr(os, "fork") and "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        return context
    return multiprocessing.get_context("spawn")


def _launch(start: Callable[[], None]) -> None:
    """Start a process (or the fork server) while the environment holds only ``KEPT_ENV``.

    A started process keeps the environment it started with (``posix.environ``, and
    ``/proc/self/environ`` on Linux), whatever it clears later: so it starts without the keys.
    """
    with _launching:
        saved = dict(os.environ)
        try:
            for key in [k for k in os.environ if k not in KEPT_ENV]:
                del os.environ[key]
            start()
        finally:
            os.environ.clear()
            os.environ.update(saved)


def _ensure_server(context: BaseContext) -> None:
    if context.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        _launch(forkserver.ensure_running)


def _job_rows(
    learner: str, shown: str, path: Path, functions: tuple[str, ...], cells: str, timeout: int, memory_mb: int
) -> tuple[list[Row], list[str]]:
    """Grade one submission in its own process and folder; every outcome becomes rows."""
    from lessons_lib.workshop.gradebook.trusted import grade_submission, hint_for
    from lessons_lib.workshop.gradebook.worker import Job

    with tempfile.TemporaryDirectory(prefix="lessons-grade-") as work:
        copy = Path(work) / "submission" / path.name
        copy.parent.mkdir()
        try:
            shutil.copyfile(path, copy)
        except OSError as exc:  # gone (or unreadable) since the folder was listed
            why = t("gradebook.job_rows.1", shown=shown, type_name=type(exc).__name__)
            return [
                Row(learner, shown, f, False, "vanished", hint_for("vanished"), why) for f in functions
            ], []
        env = {key: os.environ[key] for key in KEPT_ENV if key in os.environ}
        env.update(HOME=work, PYTHONDONTWRITEBYTECODE="1")
        cpu_seconds = STARTUP + timeout * len(functions)
        job = Job(str(copy), cells, memory_mb, cpu_seconds, env, str(Path(work) / "output.log"), language())
        found, missing = grade_submission(job, functions, timeout, _context(), _launch)
    rows = [_row(learner, shown, data) for data in found]
    return rows, missing


def _row(learner: str, shown: str, data: dict[str, str | bool]) -> Row:
    return Row(
        learner,
        shown,
        str(data["exercise"]),
        bool(data["passed"]),
        str(data["link"]),
        str(data["hint"]),
        str(data["message"]),
    )


def grade(
    folder: str | Path,
    functions: Iterable[str] | None = None,
    cells: str = "exercise",
    timeout: int = TIMEOUT,
    memory_mb: int = MEMORY_MB,
    jobs: int = 2,
) -> tuple[list[Row], list[str]]:
    """Every submission in ``folder`` graded: (one row per learner and exercise, limits not set)."""
    from lessons_lib.workshop.gradebook.trusted import hint_for

    root = Path(folder)
    if not root.is_dir():
        raise GradebookInputError(t("gradebook.grade.1", root=root))
    chosen = tuple(functions) if functions else exercises()
    found = submissions(root)
    if not found:
        raise GradebookInputError(t("gradebook.grade.2", root=root))
    by_learner: dict[str, list[tuple[Path | None, str]]] = {}
    for learner, path, why in found:
        by_learner.setdefault(learner, []).append((path, why))
    rows: list[Row] = []
    todo = []
    for learner, entries in by_learner.items():
        if len(entries) > 1:  # ada.ipynb and ada.py: which one counts is the teacher's call
            names = ", ".join(p.relative_to(root).as_posix() for p, _ in entries if p is not None)
            why = t("gradebook.grade.3", learner=learner, value=names or len(entries))
            rows += [Row(learner, names, f, False, "duplicate", hint_for("duplicate"), why) for f in chosen]
            continue
        path, why = entries[0]
        if path is None:
            rows += [
                Row(learner, "", f, False, "not_a_notebook", hint_for("not_a_notebook"), why) for f in chosen
            ]
        else:
            todo.append((learner, path.relative_to(root).as_posix(), path))
    if todo:
        _ensure_server(_context())
        from lessons_lib.engine.host import run_chain

        run_chain()  # this side's imports, while the fork server does its own on the other core
    missing: set[str] = set()
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [
            pool.submit(_job_rows, ln, shown, p, chosen, cells, timeout, memory_mb) for ln, shown, p in todo
        ]
        for future in futures:
            got, lacks = future.result()
            rows += got
            missing.update(lacks)
    order = {name: i for i, name in enumerate(chosen)}
    return sorted(rows, key=lambda r: (r.learner, order.get(r.exercise, len(order)), r.file)), sorted(missing)


def grade_folder(folder: str | Path, functions: Iterable[str] | None = None, **options: Any) -> list[Row]:
    """Grade every submission in ``folder``: one row per learner and exercise. Lesson 11.

    ``options`` are those of :func:`grade` (``cells``, ``timeout``, ``memory_mb``, ``jobs``).
    """
    return grade(folder, functions, **options)[0]


FORMULA_START: Final = ("=", "+", "-", "@", "\t", "\r")
"""How a spreadsheet formula can begin (OWASP, "CSV Injection")."""


def safe_cell(value: object) -> str:
    """A cell no spreadsheet runs as a formula: a leading ``'`` where the text could start one.

    A carriage return becomes a line feed: ``csv`` quotes a cell holding the line terminator
    (``\\n``) but not a bare ``\\r``, which a reader would take for the end of the row.
    """
    text = str(value)
    text = "'" + text if text.startswith(FORMULA_START) else text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def to_csv(rows: Iterable[Row]) -> str:
    """The gradebook as CSV text (header, then one row per learner and exercise)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    writer.writeheader()
    for row in rows:
        cells = {**asdict(row), "passed": 1 if row.passed else 0}
        writer.writerow({key: safe_cell(value) for key, value in cells.items()})
    return buffer.getvalue()
