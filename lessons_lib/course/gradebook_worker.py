"""One learner's submission, graded in a process of its own (started by the gradebook).

Introduced with the gradebook (lesson 11's grader, run over a folder). ``run_job`` is the
body of a process forked for one submission from a fork server that has already imported the
grader and the SDKs (so a submission costs a fork, not an interpreter start). It gets a
:class:`Job` (the copied submission, the exercises, the limits), then, in this order:

1. sets its own limits with ``resource.setrlimit``: address space (memory) and CPU seconds;
2. imports and warms up everything the grader needs (the real SDKs, one offline chain run);
3. installs a Python audit hook (``sys.addaudithook``) that refuses file opens outside the
   allowed folders (the submission's own folder, the course's ``/workspace`` folder, the Python
   installation and ``lessons_lib`` for imports), every network socket (only the Unix socket
   pairs asyncio makes inside the process are let through), and starting other programs;
4. grades each exercise with ``grade_file`` under a per-exercise alarm, sending each row to the
   gradebook through a pipe as soon as it is known.

The learner's prints go to a log file, so they never mix with the results or the CSV; the
process gets a small environment of its own (no API keys). This stops honest
mistakes and casual attempts; it is not a sandbox for hostile code (audit hooks can be
bypassed from Python itself): for that, grade inside the hub's per-learner containers.
"""

from __future__ import annotations

import os
import resource
import signal
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from types import FrameType

REFUSED_EVENTS = (
    "subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
    "os.forkpty", "pty.spawn", "ctypes.dlopen", "socket.connect", "socket.bind", "socket.sendto",
    "socket.sendmsg", "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr",
)  # fmt: skip
HINTS = {
    "time_limit": "循环要有上限（for _ in range(max_rounds)），也不要等输入或长时间 sleep",
    "refused": "评分时只能读 /workspace 里的文件，不能联网、不能启动别的程序：删掉这段代码",
    "memory_limit": "有一步占用了太多内存：看看有没有无限增长的列表或巨大的对象",
    "not_a_notebook": "交第 11 课的 .ipynb 笔记本，或者只含函数的 .py 文件",
    "bad_input": "交第 11 课的 .ipynb 笔记本，或者只含函数的 .py 文件",
    "no_function": "函数名要和练习里的一样，别改名",
    "crashed": "在自己的笔记本里从头运行一遍，看哪一行出错",
    "worker_died": "评分进程意外退出：请老师单独运行 python -m lessons_lib grade 这份作业查看原因",
}
"""Where to look, for the failures the gradebook itself reports (the grader gives its own)."""
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


class TimeLimit(BaseException):
    """An exercise ran past its time (a BaseException: ``except Exception`` does not swallow it)."""


class Guard:
    """The audit hook: what it refused so far, in the order it refused it."""

    def __init__(self, read_roots: list[Path], write_roots: list[Path]) -> None:
        self.read_roots = [os.path.realpath(r) for r in read_roots]
        self.write_roots = [os.path.realpath(r) for r in write_roots]
        self.refused: list[str] = []

    def _inside(self, path: str, roots: list[str]) -> bool:
        real = os.path.realpath(path)
        return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in roots)

    def _refuse(self, what: str) -> None:
        self.refused.append(what)
        raise PermissionError(f"评分时不允许：{what}")

    def __call__(self, event: str, args: tuple[object, ...]) -> None:
        if event == "open":
            path, mode, flags = args
            if not isinstance(path, (str, bytes, os.PathLike)):
                return  # None, or an already open file descriptor
            name = os.fsdecode(path)
            writing = bool(set(str(mode or "")) & set("wax+")) or (
                isinstance(flags, int) and flags & WRITE_FLAGS != 0
            )
            if not self._inside(name, self.write_roots if writing else self.read_roots):
                self._refuse(f"{'写入' if writing else '打开'} {name}（在工作区之外）")
        elif event in ("os.listdir", "os.scandir") and isinstance(args[0], (str, bytes, os.PathLike)):
            name = os.fsdecode(args[0])
            if not self._inside(name, self.read_roots):
                self._refuse(f"列出 {name}（在工作区之外）")
        elif event == "socket.__new__" and args[1] != socket.AF_UNIX:
            self._refuse("打开网络套接字")
        elif event in REFUSED_EVENTS:
            kind = (
                "网络套接字"
                if event.startswith("socket.")
                else "本机代码库"
                if "ctypes" in event
                else "其他程序"
            )
            self._refuse(f"使用{kind}：{event}（{_short(args)}）")


def _short(args: tuple[object, ...]) -> str:
    text = ", ".join(str(a) for a in args[:2])
    return text if len(text) <= 80 else text[:77] + "..."


def set_limits(memory_mb: int, cpu_seconds: int) -> None:
    """Address space and CPU time of this process; past the CPU limit the kernel ends it."""
    memory = memory_mb * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))


def warm_up() -> None:
    """Import and run everything the grader needs once, before the audit hook is in place."""
    import lessons_lib.course.exercises  # noqa: F401
    import lessons_lib.course.grading_files  # noqa: F401
    from lessons_lib.engine.host import run_chain

    run_chain()  # the SDKs' lazy imports and platform probes happen here, not under the hook


def _alarm(seconds: int) -> Callable[[int, FrameType | None], None]:
    def ring(signum: int, frame: FrameType | None) -> None:
        raise TimeLimit(f"比 {seconds} 秒的时间限制还长，评分停下了（死循环？还在等什么？）")

    return ring


def _time_limit_in(exc: BaseException) -> BaseException | None:
    """The TimeLimit inside an exception group (anyio wraps what escapes a task group)."""
    if isinstance(exc, BaseExceptionGroup):
        found = exc.subgroup(TimeLimit)
        while isinstance(found, BaseExceptionGroup):
            found = found.exceptions[0] if found.exceptions else None  # type: ignore[assignment]
        return found
    return None


def grade_one(path: Path, function: str, cells: str, timeout: int, guard: Guard) -> dict[str, str | bool]:
    """One exercise as a gradebook row (without the learner's name)."""
    from lessons_lib.course.grading import GradeInputError
    from lessons_lib.course.grading_files import grade_file

    before = len(guard.refused)
    signal.signal(signal.SIGALRM, _alarm(timeout))
    signal.alarm(timeout)
    try:
        report = grade_file(path, function=function, cells=cells)
        passed, link, hint, message = report.passed, report.link or "", report.hint, report.message
    except GradeInputError as exc:
        passed, link, hint, message = (
            False,
            "no_function" if "没有函数" in str(exc) else "bad_input",
            "",
            str(exc),
        )
    except MemoryError:
        passed, link, hint, message = False, "memory_limit", "", "超出了内存限制"
    except BaseException as exc:  # the alarm (maybe inside a task group's ExceptionGroup), or a crash
        late = exc if isinstance(exc, TimeLimit) else _time_limit_in(exc)
        if late is not None:
            passed, link, hint, message = False, "time_limit", "", str(late)
        elif isinstance(exc, Exception):  # the learner's top-level code or the grader: one line
            passed, link, hint, message = False, "crashed", "", f"{type(exc).__name__}: {exc}"
        else:
            raise
    finally:
        signal.alarm(0)
    if len(guard.refused) > before:  # refused even if the learner's code caught the error
        passed, link, hint, message = False, "refused", "", "评分时被拒绝：" + guard.refused[before]
    if not passed and not hint:
        hint = HINTS.get(link, "")
    row: dict[str, str | bool] = {"passed": passed, "link": link, "hint": hint, "message": message}
    return {"exercise": function, **row}


@dataclass(frozen=True)
class Job:
    """What one grading process does: the copied submission, the exercises, the limits."""

    path: str
    functions: tuple[str, ...]
    cells: str
    timeout: int
    memory_mb: int
    cpu_seconds: int
    env: dict[str, str]
    log: str  # the learner's prints and any traceback land here, never in the results


def run_job(job: Job, results: Connection) -> None:
    """The body of a grading process (forked from the gradebook's preloaded fork server)."""
    sys.stdout.flush()
    sys.stderr.flush()
    log = os.open(job.log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.environ.clear()  # no teacher's keys or tokens for the learner's code to read
    os.environ.update(job.env)
    path = Path(job.path)
    os.chdir(path.parent)
    sys.dont_write_bytecode = True
    set_limits(job.memory_mb, job.cpu_seconds)
    warm_up()
    from lessons_lib.core.paths import WORKSPACE_DIR

    package = Path(__file__).resolve().parent.parent
    installs = {Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)}
    guard = Guard([path.parent, WORKSPACE_DIR, package, *installs, Path(os.devnull)], [path.parent])
    sys.addaudithook(guard)
    for function in job.functions:
        results.send(grade_one(path, function, job.cells, job.timeout, guard))
    results.close()
