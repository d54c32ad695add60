"""The trusted side of grading one submission: the checkers, the model and the service stay here.

Introduced with the gradebook (lesson 11). :func:`grade_submission` starts a grading process
(``gradebook_worker``) for one learner's copied file and grades each exercise with the course's
own checkers, in this process. The learner's function is a :class:`RemoteFunction`: calling it
sends the arguments to the grading process and waits for its return value; the workbench's
model client and tool service stay here, and the grading process's stand-ins send every use of
them back through the pipe, so the stand-in model and the file service answer, and record their
traffic, in this process. The verdict is :func:`judge` on what came back and what was
recorded, never anything the grading process says about itself.

The time limit is wall clock, kept here: the seconds the grading process spends on an exercise
(while this side serves the model and the service, the clock stops). Past it, the process (and
its process group) is killed and a new one starts for the next exercise; that works the same on
every platform. A process that dies, or sends what was not asked for, fails the exercise.
"""

from __future__ import annotations

import linecache
import os
import signal
import time
from collections.abc import Callable
from itertools import count
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Final

from lessons_lib.core.jsonvalue import JSON
from lessons_lib.core.messages import t
from lessons_lib.workshop.gradebook.pipe import (
    MAX_MESSAGE,
    WireError,
    decode,
    dumps,
    encode,
    exception_data,
    loads,
    rebuild_exception,
)
from lessons_lib.workshop.gradebook.worker import USES, Job, run_job
from lessons_lib.workshop.loop.grading import GradeReport

if TYPE_CHECKING:
    from lessons_lib.checks.checker import Learner

STARTUP: Final = 60
"""Seconds a grading process may take to say ``ready`` (a ``spawn`` imports the SDKs first)."""
HINTS: Final = {
    "time_limit": "gradebook_remote.hint.time_limit",
    "refused": "gradebook_remote.hint.refused",
    "memory_limit": "gradebook_remote.hint.memory_limit",
    "not_a_notebook": "gradebook_remote.hint.not_a_notebook",
    "bad_input": "gradebook_remote.hint.bad_input",
    "no_function": "gradebook_remote.hint.no_function",
    "crashed": "gradebook_remote.hint.crashed",
    "worker_died": "gradebook_remote.hint.worker_died",
    "vanished": "gradebook_remote.hint.vanished",
    "duplicate": "gradebook_remote.hint.duplicate",
}
"""Where to look, for the failures the gradebook itself reports (the grader gives its own): catalogue
keys, looked up when a row is made (:func:`hint_for`)."""


def hint_for(link: str) -> str:
    """Where to look for one of the gradebook's own failures, in the current language ("" if none)."""
    return t(HINTS[link]) if link in HINTS else ""


_names = count(1)


class TimeLimit(BaseException):
    """The exercise ran past its time (a BaseException: ``except Exception`` does not swallow it)."""


class Gone(BaseException):
    """The grading process ended, or broke the protocol: (link, reason)."""


def judge(fn: Learner, function: str) -> GradeReport:
    """The verdict on one exercise: the course's grader on the learner's (remote) function.

    The one seam between the gradebook and the grader: a step's name runs that step's checker,
    the loop and the small exercises of lessons 03, 06 and 07 theirs (as ``grade_file`` does).
    """
    from lessons_lib.workshop.loop.grading_files import grade_function

    return grade_function(fn, function)


class Session:
    """One grading process for one submission, started again after it was stopped."""

    def __init__(self, job: Job, context: BaseContext, launch: Callable[[Callable[[], None]], None]) -> None:
        self.job, self.context, self.launch = job, context, launch
        self.proc: BaseProcess | None = None
        self.conn: Connection | None = None
        self.left = 0.0
        self.refused: list[str] = []
        self.missing: list[str] = []
        self.handles: dict[int, object] = {}

    def ensure(self) -> None:
        if self.proc is not None and self.proc.is_alive():
            return
        receive, send = self.context.Pipe(duplex=True)
        process = self.context.Process  # type: ignore[attr-defined]
        self.proc = process(target=run_job, args=(self.job, send), daemon=True)
        self.launch(self.proc.start)
        send.close()
        self.conn = receive
        self.left = STARTUP
        ready = self._wait()
        self.missing = [str(m) for m in ready.get("missing", []) if isinstance(m, str)]  # type: ignore[union-attr]

    def _wait(self) -> dict[str, JSON]:
        """The next message, counting the wait against the budget."""
        assert self.conn is not None
        start = time.monotonic()
        try:
            if not self.conn.poll(max(self.left, 0.0)):
                self.stop()
                raise TimeLimit()
            raw = self.conn.recv_bytes(MAX_MESSAGE)
        except OSError:  # longer than MAX_MESSAGE (while the process lives), or the pipe broke
            if self.proc is None or not self.proc.is_alive():
                raise Gone(*self._death()) from None
            self.stop()
            raise Gone("refused", t("gradebook_remote.wait.1", MAX_MESSAGE=MAX_MESSAGE // 2**20)) from None
        except EOFError:
            raise Gone(*self._death()) from None
        finally:
            self.left -= time.monotonic() - start
        try:
            message = loads(raw)
        except WireError:
            self.stop()
            raise Gone("refused", t("gradebook_remote.wait.2")) from None
        return message

    def request(self, message: JSON, final: tuple[str, ...]) -> dict[str, JSON]:
        """Send one request and serve the uses of this side's objects until its reply comes."""
        assert self.conn is not None
        try:
            self.conn.send_bytes(dumps(message))
        except OSError:
            raise Gone(*self._death()) from None
        while True:
            reply = self._wait()
            if reply.get("op") == "use":
                self.conn.send_bytes(dumps(self._use(reply)))
                continue
            if reply.get("op") not in final:
                self.stop()
                raise Gone("refused", t("gradebook_remote.request.1"))
            self.refused += [str(r) for r in reply.get("refused", []) or [] if isinstance(r, str)]  # type: ignore[union-attr]
            return reply

    def _use(self, ask: dict[str, JSON]) -> dict[str, object]:
        from lessons_lib.workshop.gradebook.remote_sdk import serve_model_request

        target = self.handles.get(ask.get("handle"))  # type: ignore[arg-type]
        method = ask.get("method")
        try:
            args, kwargs = decode(ask.get("args")), decode(ask.get("kwargs"))
            if not isinstance(args, list) or not isinstance(kwargs, dict):
                raise WireError("arguments")
            if target is not None and method in USES["model"] and _kind(target) == "model":
                value: object = serve_model_request(target, *args)  # type: ignore[arg-type]
            elif target is not None and method in USES["service"] and _kind(target) == "service":
                value = getattr(target, str(method))(*args, **kwargs)
            else:
                raise ValueError(t("gradebook_remote.use.1", method=str(method)[:40]))
            return {"op": "answer", "value": encode(value)}
        except Exception as exc:  # the service's own refusal (a bad frame...): raised in the learner's code
            return {"op": "failed", "error": exception_data(exc, None)}

    def _death(self) -> tuple[str, str]:
        """(link, reason) for a grading process that ended early."""
        if self.proc is not None:
            self.proc.join(5)
        code = self.proc.exitcode if self.proc is not None else None
        if code in (-getattr(signal, "SIGXCPU", 24), -9):
            return "time_limit", t("gradebook_remote.death.2")
        try:
            with open(self.job.log, encoding="utf-8", errors="replace") as f:
                last = [line for line in f.read().strip().splitlines() if line.strip()]
        except OSError:
            last = []
        if last and "MemoryError" in last[-1]:
            return "memory_limit", t("gradebook_remote.death.3")
        return "worker_died", t(
            "gradebook_remote.death.1",
            code=code,
            value=last[-1][:160] if last else t("gradebook_remote.no_output"),
        )

    def stop(self) -> None:
        """Kill the grading process and its process group."""
        if self.proc is None:
            return
        pid = self.proc.pid
        if hasattr(os, "killpg") and pid:
            try:
                os.killpg(pid, signal.SIGKILL)  # the worker leads a group of its own
            except OSError:
                pass
        self.proc.kill()
        self.proc.join(5)
        if self.conn is not None:
            self.conn.close()
        self.proc = None

    def close(self) -> None:
        if self.proc is not None and self.conn is not None:
            try:
                self.conn.send_bytes(dumps({"op": "bye"}))
                self.proc.join(2)
            except OSError:
                pass
        self.stop()


def _kind(value: object) -> str | None:
    """Which of this side's objects a value is: the model client or a tool service (duck-typed)."""
    if hasattr(value, "responses") and hasattr(value, "post"):
        return "model"
    if all(hasattr(value, m) for m in USES["service"]):
        return "service"
    return None


def _starter_blank() -> None:
    """Stands for a function that still holds its starter blank, for ``has_blank``."""
    ...


class RemoteFunction:
    """The learner's function as the checkers see it: each call runs in the grading process."""

    def __init__(self, session: Session, name: str, blank: bool) -> None:
        self.session, self.__name__ = session, name
        self.__qualname__ = name
        self._file = f"<learner's {name} #{next(_names)}>"
        self.__code__ = compile("", self._file, "exec")  # so the grader finds the learner's line
        if blank:
            self.__wrapped__ = _starter_blank

    def __call__(self, *args: object, **kwargs: object) -> object:
        def handle(value: object) -> JSON | None:
            kind = _kind(value)
            if kind is None:
                return None
            key = next(_names)
            self.session.handles[key] = value
            return {"$handle": kind, "id": key, "name": str(getattr(value, "name", ""))}

        message = {"op": "call", "args": encode(list(args), handle), "kwargs": encode(kwargs, handle)}
        reply = self.session.request(message, ("return", "raise"))
        self.session.handles.clear()
        if reply["op"] == "return":
            try:
                return decode(reply.get("value"))
            except WireError:
                return None
        error = reply.get("error") if isinstance(reply.get("error"), dict) else {}
        self._raise(rebuild_exception(error), error)  # type: ignore[arg-type]
        return None

    def _raise(self, exc: Exception, error: dict[str, JSON]) -> None:
        """Raise ``exc`` from a frame at the learner's line, as if it came from their code here."""
        lineno = error.get("lineno")
        lineno = lineno if isinstance(lineno, int) and 0 < lineno < 100_000 else 1
        line = str(error.get("line", ""))
        linecache.cache[self._file] = (len(line), None, ["\n"] * (lineno - 1) + [line + "\n"], self._file)
        exec(compile("\n" * (lineno - 1) + "raise error", self._file, "exec"), {"error": exc})


def _time_limit_in(exc: BaseException) -> BaseException | None:
    """The TimeLimit or Gone inside an exception group (anyio wraps what escapes a task group)."""
    if isinstance(exc, BaseExceptionGroup):
        found = exc.subgroup((TimeLimit, Gone))
        while isinstance(found, BaseExceptionGroup):
            found = found.exceptions[0] if found.exceptions else None  # type: ignore[assignment]
        return found
    return None


def grade_exercise(session: Session, function: str, timeout: int) -> dict[str, str | bool]:
    """One exercise of one submission as a gradebook row (without the learner's name)."""
    session.refused = []
    late = t("gradebook_remote.grade_exercise.1", timeout=timeout)
    try:
        try:
            session.ensure()
        except TimeLimit:
            raise Gone("time_limit", t("gradebook_remote.grade_exercise.3", STARTUP=STARTUP)) from None
        session.left = float(timeout)
        loaded = session.request({"op": "load", "function": function}, ("loaded", "not_loaded"))
        if loaded["op"] == "not_loaded":
            link = str(loaded.get("link"))
            passed, link, hint = False, link if link in ("no_function", "bad_input") else "bad_input", ""
            message = str(loaded.get("message", ""))[:300]
        else:
            report = judge(RemoteFunction(session, function, bool(loaded.get("blank"))), function)
            passed, link, hint = report.passed, report.link or "", report.hint
            message = "\n".join(report.lines)
    except BaseException as exc:  # the clock, the process gone, maybe inside an ExceptionGroup
        found = exc if isinstance(exc, (TimeLimit, Gone)) else _time_limit_in(exc)
        if found is None and not isinstance(exc, Exception):
            raise
        session.stop()
        passed, hint = False, ""
        if found is None:  # the grader's own failure: a row that says so, never a lost gradebook
            link, message = (
                "worker_died",
                t("gradebook_remote.grade_exercise.4", type_name=type(exc).__name__, exc=str(exc)[:160]),
            )
        else:
            link, message = ("time_limit", late) if isinstance(found, TimeLimit) else found.args
    if session.refused:  # refused even if the learner's code caught the error
        passed, link, hint, message = (
            False,
            "refused",
            "",
            t("gradebook_remote.grade_exercise.2") + session.refused[0],
        )
    if not passed and not hint:
        hint = hint_for(link)
    return {"exercise": function, "passed": passed, "link": link, "hint": hint, "message": message}


def grade_submission(
    job: Job,
    functions: tuple[str, ...],
    timeout: int,
    context: BaseContext,
    launch: Callable[[Callable[[], None]], None],
) -> tuple[list[dict[str, str | bool]], list[str]]:
    """Every exercise of one copied submission: (rows, the limits its platform could not set)."""
    session = Session(job, context, launch)
    try:
        rows = [grade_exercise(session, function, timeout) for function in functions]
    finally:
        session.close()
    return rows, session.missing
