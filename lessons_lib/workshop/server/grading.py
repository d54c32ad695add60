"""The grader of lesson 12: talk to a learner's MCP server and name the first broken expectation.

Introduced in lesson 12. ``grade_server(build)`` builds the learner's server over a hidden
folder (``build(root)`` returns an ``MCPServer`` or a low-level ``Server``) and talks to it in
this process over framed memory streams; ``grade_server_file(path)`` starts the learner's file
as a subprocess (``python FILE FOLDER``) and talks over its stdio, as a host does. Both send the
same requests (:mod:`lessons_lib.workshop.server.cases`) through the official client, then judge
the reply frames in the order of :data:`EXPECTATIONS`; the first that fails ends the grading.
The judges are in :mod:`lessons_lib.workshop.server.judges`.
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final

from lessons_lib.core.messages import t
from lessons_lib.workshop.loop.grading import CaseResult, GradeReport
from lessons_lib.workshop.server.cases import Hidden, asks, build_hidden
from lessons_lib.workshop.server.judges import EXPECTATIONS
from lessons_lib.workshop.server.seen import Seen

if TYPE_CHECKING:
    from lessons_lib.workshop.server.probe import Probe

TITLE: Final = "server_grading.title"
"""The catalogue keys of the report's title, its pass line and the hint on an unfinished blank."""
PASS_TEXT: Final = "server_grading.passed"
HINT_UNFINISHED: Final = "server_grading.unfinished"


class ServerInputError(ValueError):
    """The file cannot be graded (missing, not Python, a syntax error): one line says why."""


@dataclass(frozen=True, repr=False)
class ServerReport(GradeReport):
    """The grader's verdict: the loop grader's report (lesson 11), plus the server's stderr.

    ``link`` is the key of the first broken expectation, ``cases`` the expectations judged so far.
    """

    stderr: str = ""
    """What the server wrote to stderr (stdio only): its log, where a log belongs."""
    title: str = field(default_factory=lambda: t(TITLE))

    def to_dict(self) -> dict[str, object]:
        """The loop grader's row (GRADER_API.md), then the server's ``stderr``."""
        return {**super().to_dict(), "stderr": self.stderr}

    def repr_args(self) -> str:
        return f"passed={self.passed}, link={self.link!r}"


def judge(seen: Seen) -> ServerReport:
    """Every expectation in order; the first that fails is the verdict."""
    done: list[CaseResult] = []
    for exp in EXPECTATIONS:
        problem = exp.check(seen)
        if problem is not None:
            message = t("server_grading.judge.1", title=exp.title, problem=problem)
            checked = (*done, CaseResult(exp.key, exp.title, False))
            return ServerReport(False, (message,), exp.hint, link=exp.key, cases=checked, stderr=seen.stderr)
        done.append(CaseResult(exp.key, exp.title, True))
    return ServerReport(True, (t(PASS_TEXT, n=len(done)),), cases=tuple(done), stderr=seen.stderr)


async def _collect(
    opened: Callable[[Probe], AbstractAsyncContextManager[Probe]],
    hidden: Hidden,
    timeout: float,
    seen: Seen | None = None,
    start_timeout: float | None = None,
) -> Seen:
    """Send every request through one connection; stop sending once the connection is lost.

    ``seen.progress`` is stamped before and after each request, so a watchdog can tell a server
    that stopped answering (each request is bounded) from one that is still working.
    """
    from lessons_lib.workshop.server.probe import START_TIMEOUT, Probe

    seen = seen if seen is not None else Seen(hidden)
    probe = Probe(timeout=timeout, start_timeout=START_TIMEOUT if start_timeout is None else start_timeout)
    seen.progress = time.monotonic()
    try:
        with probe.scope:
            async with opened(probe):
                for ask in asks(hidden):
                    seen.progress, seen.asking = time.monotonic(), ask.key
                    reply = await probe.request(ask.method, ask.params)
                    seen.replies[ask.key], seen.progress = reply, time.monotonic()
                    if "lost" in reply or probe.stray:  # the stdout verdict comes first anyway
                        break
    except Exception as exc:  # noqa: BLE001  (a server that cannot be reached is a verdict)
        seen.failed_start = f"{type(exc).__name__}: {_first_line(exc)}"
    seen.stray, seen.stderr = probe.stray, probe.stderr
    if probe.spoiled is not None and seen.failed_start is None and "list" not in seen.replies:
        seen.failed_start = "a reply frame arrived glued to other text on stdout, so it was lost"
    return seen


def _first_line(exc: BaseException) -> str:
    while isinstance(exc, BaseExceptionGroup):
        exc = exc.exceptions[0]
    return (str(exc).splitlines() or [""])[0][:200]


def grade_server(build: object, *, timeout: float = 5.0) -> ServerReport:
    """Grade a learner's ``build(root)`` that returns an MCP server, in this process. Lesson 12."""
    from lessons_lib.checks.checker import blank_text, has_blank
    from lessons_lib.engine.runsync import run_sync
    from lessons_lib.workshop.server.probe import memory_probe, quiet_logging

    if not callable(build):
        return ServerReport(
            False, (t("server_grading.grade_server.1", type_name=type(build).__name__),), link="start"
        )
    if has_blank(build):
        return ServerReport(False, (blank_text(),), t(HINT_UNFINISHED), True, link="unfinished")
    with tempfile.TemporaryDirectory() as tmp:
        hidden = build_hidden(Path(tmp))
        try:
            with quiet_logging():  # MCPServer() configures the root logger: undone right after
                server = build(hidden.root)
        except Exception as exc:  # noqa: BLE001  (the learner's code)
            seen = Seen(
                hidden,
                failed_start=t(
                    "server_grading.grade_server.2", type_name=type(exc).__name__, exc=_first_line(exc)
                ),
            )
            return judge(seen)

        seen = Seen(hidden, machine_paths=_source_paths(build))

        async def main() -> Seen:
            return await _collect(lambda probe: memory_probe(server, probe), hidden, timeout, seen)

        with quiet_logging():
            return judge(_watched(lambda: run_sync(main), seen, timeout))


def _source_paths(build: object) -> tuple[str, ...]:
    """The file that defines ``build`` (a notebook's cell has none on disk): no reply may show it."""
    import inspect

    try:
        source = inspect.getsourcefile(build)  # type: ignore[arg-type]
    except TypeError:
        return ()
    if not source or not Path(source).is_file():
        return ()
    return (str(Path(source)), str(Path(source).resolve()))


def _watched(work: Callable[[], Seen], seen: Seen, timeout: float) -> Seen:
    """Run the grading in a daemon thread; give up when the server stops answering and cannot stop.

    The SDK runs a synchronous tool in a worker thread that cannot be cancelled, and waits for
    it when the connection closes: a tool that never returns would hold the notebook forever.
    Each request is bounded by ``timeout``, so no progress for two of them means the server is
    stuck; the threads the grading started are then asked to stop (:func:`_stop_threads`) and
    the verdict names the request that got no answer.
    """
    done = threading.Event()
    failure: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:  # noqa: BLE001  (re-raised in the caller's thread)
            failure.append(exc)
        finally:
            done.set()

    before = set(threading.enumerate())
    threading.Thread(target=run, name="grade-server", daemon=True).start()
    while not done.wait(0.05):
        if seen.progress and time.monotonic() - seen.progress > 2 * timeout + 1:
            seen.stuck = t("graders.server.stuck", key=seen.asking or "initialize", timeout=f"{timeout:g}")
            _stop_threads(set(threading.enumerate()) - before)
            done.wait(1.0)
            return seen
    if failure:
        raise failure[0]
    return seen


class ToolStopped(BaseException):
    """Raised inside a learner's tool that never returned, so its worker thread can end."""


def _stop_threads(threads: set[threading.Thread]) -> None:
    """Raise :class:`ToolStopped` in these threads (CPython; a blocking C call ends only when it returns)."""
    try:
        import ctypes

        set_async = ctypes.pythonapi.PyThreadState_SetAsyncExc
    except (ImportError, AttributeError):  # another interpreter: the daemon thread stays until exit
        return
    for thread in threads:
        if thread.ident is not None and thread.name != "grade-server":
            set_async(ctypes.c_ulong(thread.ident), ctypes.py_object(ToolStopped))


def grade_server_file(
    path: str | Path,
    *,
    module: bool = False,
    args: tuple[str, ...] = (),
    timeout: float = 5.0,
    start_timeout: float | None = None,
) -> ServerReport:
    """Grade a server file over stdio: ``python FILE FOLDER`` (``module``: ``python -m NAME``). Lesson 12.

    ``timeout`` bounds each reply; ``start_timeout`` bounds ``initialize`` (default 30 s: the
    child imports the SDK first).
    """
    from lessons_lib.engine.runsync import run_sync
    from lessons_lib.workshop.server.probe import quiet_logging, stdio_probe

    target = Path(path)
    if not module:
        _check_file(target)
    with tempfile.TemporaryDirectory() as tmp, quiet_logging():
        hidden = build_hidden(Path(tmp))

        def opened(probe: Probe) -> AbstractAsyncContextManager[Probe]:
            return stdio_probe(target, hidden.root, probe, module=module, args=args)

        seen = Seen(hidden, machine_paths=() if module else (str(target.resolve()),))

        async def main() -> Seen:
            return await _collect(opened, hidden, timeout, seen, start_timeout)

        return judge(run_sync(main))


def _check_file(path: Path) -> None:
    if not path.is_file():
        raise ServerInputError(f"no such file: {path.name}; give the path of the server's .py file")
    if path.suffix != ".py":
        raise ServerInputError(f"{path.name} is not a .py file; save the server as a Python file first")
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ServerInputError(f"cannot read {path.name} as UTF-8 text ({type(exc).__name__})") from None
    try:
        compile(source, path.name, "exec")
    except SyntaxError as exc:
        raise ServerInputError(f"{path.name} line {exc.lineno}: syntax error ({exc.msg})") from None


__all__ = ["ServerInputError", "ServerReport", "grade_course_server", "grade_server", "grade_server_file"]


COURSE_SERVERS: Final = {
    "reference": "lessons_lib.services.notes.server",
    "noisy": "lessons_lib.services.notes.noisy_server",
}


def grade_course_server(name: str = "reference", *, glued: bool = False) -> ServerReport:
    """Grade one of the course's own server modules over stdio (lesson 12's stdout pitfall)."""
    if name not in COURSE_SERVERS:
        raise ServerInputError(f"no course server {name!r}; choose one of {', '.join(COURSE_SERVERS)}")
    args = ("--glued",) if glued else ()
    return grade_server_file(COURSE_SERVERS[name], module=True, args=args)
