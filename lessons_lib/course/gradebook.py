"""The gradebook: lesson 11's grader over a folder of learners' submissions, one CSV row each.

Introduced with lesson 11 (``python -m lessons_lib grade FOLDER``). A submission is a
notebook or a ``.py`` file at the top of the folder (the learner's name is the file's stem),
or a sub-folder named after the learner holding one (the layout of nbgrader's and a hub's
exchange folders). Each submission is copied into a fresh folder of its own and graded by
``gradebook_worker`` in a separate process (a fork of a server that has imported the grader
once) with a time limit, a memory limit and an audit hook
(see that module); a submission that crashes, hangs, reads outside the workspace or opens a
socket is a failed row with a reason, and the run goes on. Rows are sorted (learner, then the
exercises in lesson order), and hold no path, time or machine detail, so a gradebook is
the same bytes on every run.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, fields
from multiprocessing.context import ForkServerContext
from pathlib import Path
from typing import Final

from lessons_lib.course.gradebook_worker import HINTS

SUFFIXES: Final = (".ipynb", ".py")
TIMEOUT: Final = 20
"""Seconds one exercise may take (the reference grades all seven in about 2 s)."""
MEMORY_MB: Final = 1536
"""Address-space limit of a grading process (it needs about 250 MB)."""
STARTUP: Final = 30
"""Seconds a grading process may spend before its first exercise (imports, one warm-up run)."""


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
    """The functions of lesson 11, in the order the lesson asks for them."""
    from lessons_lib.course.exercises import STEP_NAMES

    return tuple(sorted(STEP_NAMES, key=STEP_NAMES.__getitem__))


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
            why = "" if files else f"文件夹 {entry.name} 里没有 .ipynb 笔记本或 .py 文件"
            found.append((entry.name, files[0] if files else None, why))
        elif entry.suffix in SUFFIXES:
            found.append((entry.stem, entry, ""))
        else:
            found.append((entry.stem, None, f"{entry.name} 不是 .ipynb 笔记本，也不是 .py 文件"))
    return found


PRELOAD: Final = [
    "lessons_lib.course.gradebook_worker",
    "lessons_lib.course.grading_files",
    "lessons_lib.course.exercises",
]
PRELOAD_SDKS: Final = ["openai", "mcp", "lessons_lib.engine.host", "lessons_lib.engine.kit"]


def _context() -> ForkServerContext:
    """A fork server that imports the grader and the SDKs once; each submission is a fork of it."""
    import multiprocessing

    context = multiprocessing.get_context("forkserver")
    assert isinstance(context, ForkServerContext)
    context.set_forkserver_preload([*PRELOAD, *PRELOAD_SDKS])
    return context


def _job_rows(
    learner: str, shown: str, path: Path, functions: tuple[str, ...], cells: str, timeout: int, memory_mb: int
) -> list[Row]:
    """Grade one submission in its own process and folder; every outcome becomes rows."""
    from lessons_lib.course.gradebook_worker import Job, run_job

    rows: list[Row] = []
    link = ended = ""
    with tempfile.TemporaryDirectory(prefix="lessons-grade-") as work:
        copy = Path(work) / "submission" / path.name
        copy.parent.mkdir()
        shutil.copyfile(path, copy)
        env = {
            key: os.environ[key]
            for key in ("PATH", "LANG", "LC_ALL", "LESSONS_DATA_DIR", "LESSONS_DOT")
            if key in os.environ
        }
        env.update(HOME=work, PYTHONDONTWRITEBYTECODE="1")
        cpu_seconds = STARTUP + timeout * len(functions)
        job = Job(
            str(copy), functions, cells, timeout, memory_mb, cpu_seconds, env, str(Path(work) / "output.log")
        )
        context = _context()
        receive, send = context.Pipe(duplex=False)
        proc = context.Process(target=run_job, args=(job, send), name=f"grade {learner}", daemon=True)
        proc.start()
        send.close()
        deadline = time.monotonic() + cpu_seconds + STARTUP  # wall clock: a process asleep uses no CPU
        while len(rows) < len(functions):
            left = deadline - time.monotonic()
            if left <= 0:
                proc.kill()
                link, ended = "time_limit", f"评分进程超过 {cpu_seconds + STARTUP} 秒仍未结束，被停止"
                break
            if receive.poll(min(left, 1.0)):
                try:
                    rows.append(_row(learner, shown, receive.recv()))
                except EOFError:  # the process ended early
                    break
        proc.join(10)
        if proc.is_alive():
            proc.kill()
            proc.join(5)
        if not ended and proc.exitcode and len(rows) < len(functions):
            link, ended = _death(proc.exitcode, Path(job.log).read_text(encoding="utf-8", errors="replace"))
    done = {row.exercise for row in rows}
    missing = ended or "评分进程没有给出这一题的结果"
    link = link or "worker_died"
    rows += [Row(learner, shown, f, False, link, HINTS[link], missing) for f in functions if f not in done]
    return rows


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


def _death(code: int, err: str) -> tuple[str, str]:
    """(link, reason) for a grading process that ended early."""
    if code in (-signal.SIGXCPU, -signal.SIGKILL):
        return "time_limit", "评分进程用完了 CPU 时间限制，被停止"
    last = [line for line in err.strip().splitlines() if line.strip()]
    if last and "MemoryError" in last[-1]:
        return "memory_limit", "评分进程超出了内存限制"
    return "worker_died", f"评分进程异常退出（{code}）：{last[-1][:160] if last else '没有输出'}"


def grade_folder(
    folder: str | Path,
    functions: Iterable[str] | None = None,
    cells: str = "exercise",
    timeout: int = TIMEOUT,
    memory_mb: int = MEMORY_MB,
    jobs: int = 2,
) -> list[Row]:
    """Grade every submission in ``folder``: one row per learner and exercise. Lesson 11."""
    root = Path(folder)
    if not root.is_dir():
        raise GradebookInputError(f"没有这个文件夹：{root}（请给出收上来的作业所在的文件夹）")
    chosen = tuple(functions) if functions else exercises()
    found = submissions(root)
    if not found:
        raise GradebookInputError(f"{root} 里没有作业（.ipynb 笔记本、.py 文件，或每人一个文件夹）")
    rows: list[Row] = []
    todo = []
    for learner, path, why in found:
        if path is None:
            rows += [
                Row(learner, "", f, False, "not_a_notebook", HINTS["not_a_notebook"], why) for f in chosen
            ]
        else:
            todo.append((learner, path.relative_to(root).as_posix(), path))
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [
            pool.submit(_job_rows, ln, shown, p, chosen, cells, timeout, memory_mb) for ln, shown, p in todo
        ]
        for future in futures:
            rows += future.result()
    order = {name: i for i, name in enumerate(chosen)}
    return sorted(rows, key=lambda r: (r.learner, order.get(r.exercise, len(order)), r.file))


def to_csv(rows: Iterable[Row]) -> str:
    """The gradebook as CSV text (header, then one row per learner and exercise)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({**asdict(row), "passed": 1 if row.passed else 0})
    return buffer.getvalue()
