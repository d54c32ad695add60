"""One learner's submission, run in a process of its own: it runs the code, it judges nothing.

Introduced with the gradebook (lesson 11's grader, run over a folder). ``run_job`` is the body
of the grading process the gradebook starts for one submission (a fork of a fork server that
has imported the SDKs once where the platform can fork, else a fresh ``spawn``). In order, it:

1. sends the learner's prints to a log file and clears the environment (no teacher's keys);
2. starts a process group of its own and sets its limits where the platform allows
   (``gradebook_guard``), then imports what the learner's code will use;
3. installs the audit hook (``gradebook_guard.Guard``) and says ``ready``, naming the limits it
   could not set;
4. serves the gradebook's requests, JSON over a pipe (``gradebook_wire``): ``load`` runs the
   learner's file and finds a function, ``call`` calls it with the arguments the gradebook
   sent. The model client and the tool service it passes are stand-ins whose every request
   goes back through the pipe to the real ones in the gradebook, where they are recorded.

So the checkers, the stand-in model, the file service and their records live in the
gradebook's process; what this process says about itself can only make a row fail.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Final

from lessons_lib.core.jsonvalue import JSON
from lessons_lib.core.messages import t
from lessons_lib.workshop.gradebook.pipe import MAX_MESSAGE, decode, dumps, encode, exception_data, loads

USES: Final = {"service": ("send", "next_id", "list_tools"), "model": ("http",)}
"""What a grading process may ask of the gradebook's objects, by kind of handle."""


@dataclass(frozen=True)
class Job:
    """What one grading process runs: the copied submission, its limits, where its output goes."""

    path: str
    cells: str
    memory_mb: int
    cpu_seconds: int
    env: dict[str, str]
    log: str  # the learner's prints and any traceback land here, never in the results
    lang: str = ""  # the language in force in the gradebook (its set_language reaches no new process)


class Pipe:
    """The worker's end of the pipe: requests to the gradebook's objects, and their answers."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def send(self, message: object) -> None:
        self.conn.send_bytes(dumps(message))

    def receive(self) -> dict[str, JSON]:
        return loads(self.conn.recv_bytes(MAX_MESSAGE))

    def use(self, handle: int, method: str, args: list[object], kwargs: dict[str, object]) -> object:
        """Ask the gradebook to use one of its objects; its answer, or its exception raised here."""
        from lessons_lib.workshop.gradebook.pipe import rebuild_exception

        self.send(
            {"op": "use", "handle": handle, "method": method, "args": encode(args), "kwargs": encode(kwargs)}
        )
        answer = self.receive()
        if answer.get("op") == "failed" and isinstance(answer.get("error"), dict):
            raise rebuild_exception(answer["error"])  # type: ignore[arg-type]
        return decode(answer.get("value"))


class RemoteService:
    """The file service as the learner's code sees it here; the real session is in the gradebook."""

    def __init__(self, pipe: Pipe, handle: int, name: str) -> None:
        self._pipe, self._handle, self.name = pipe, handle, name

    def next_id(self) -> int:
        """A JSON-RPC id not yet used on this connection."""
        return self._pipe.use(self._handle, "next_id", [], {})  # type: ignore[return-value]

    def list_tools(self) -> object:
        """The service's ``tools/list`` result (``mcp_types.ListToolsResult``)."""
        return self._pipe.use(self._handle, "list_tools", [], {})

    def send(self, frame: object, *, call_id: str | None = None) -> object:
        """Send a JSON-RPC request dict; the reply dict."""
        return self._pipe.use(self._handle, "send", [frame], {"call_id": call_id})

    def __repr__(self) -> str:
        return t("gradebook_worker.repr.1", name=self.name)


def _stand_ins(pipe: Pipe) -> Callable[[str, int, str], object]:
    from lessons_lib.workshop.gradebook.remote_sdk import remote_model

    def make(kind: str, handle: int, name: str) -> object:
        if kind == "model":
            return remote_model(lambda method, path, body: pipe.use(handle, "http", [method, path, body], {}))  # type: ignore[arg-type,return-value]
        return RemoteService(pipe, handle, name)

    return make


def serve(pipe: Pipe, path: Path, cells: str, refused: list[str]) -> None:
    """Answer ``load`` and ``call`` until the gradebook says ``bye`` or closes the pipe."""
    from lessons_lib.checks.checker import has_blank
    from lessons_lib.workshop.loop.grading import GradeInputError, MissingFunctionError
    from lessons_lib.workshop.loop.grading_files import load_function

    fn: Callable[..., object] | None = None
    make = _stand_ins(pipe)
    while True:
        try:
            request = pipe.receive()
        except EOFError:
            return
        before = len(refused)
        if request.get("op") == "load":
            try:
                fn = load_function(path, str(request.get("function")), cells)
                reply: dict[str, object] = {"op": "loaded", "blank": has_blank(fn)}
            except GradeInputError as exc:
                no_function = isinstance(exc, MissingFunctionError)
                reply = {
                    "op": "not_loaded",
                    "link": "no_function" if no_function else "bad_input",
                    "message": str(exc),
                }
            except BaseException as exc:  # the learner's top-level code (MemoryError, SystemExit...)
                reply = {
                    "op": "not_loaded",
                    "link": "bad_input",
                    "message": f"{type(exc).__name__}: {exc}"[:300],
                }
        elif request.get("op") == "call" and callable(fn):
            code = getattr(fn, "__code__", None)
            try:
                args, kwargs = decode(request.get("args"), make), decode(request.get("kwargs"), make)
                if not isinstance(args, list) or not isinstance(kwargs, dict):
                    raise TypeError("the gradebook sent no arguments")
                value = fn(*args, **kwargs)
                reply = {"op": "return", "value": encode(value)}
            except BaseException as exc:  # whatever the learner's code raised, as data
                reply = {"op": "raise", "error": exception_data(exc, code.co_filename if code else None)}
        else:
            return
        reply["refused"] = refused[before:]
        pipe.send(reply)


def warm_up() -> None:
    """Import what the learner's code will use, before the audit hook is in place."""
    import lessons_lib.workshop.loop.grading_files  # noqa: F401
    from lessons_lib.core.messages import catalogue
    from lessons_lib.core.paths import DATA_DIR

    catalogue()  # the messages (the guard's own refusals too) are read before the hook is in place
    from lessons_lib.workshop.gradebook.remote_sdk import remote_model, sdk_load

    refusal = (
        '{"error": {"message": "warm-up", "type": "invalid_request_error", "param": null, "code": null}}'
    )
    model = remote_model(lambda method, path, body: (400, refusal))
    try:  # the SDK's lazy imports and its platform probe (it runs ``uname``) happen here, unguarded
        model.responses.create(model="warm-up", input="warm-up")
    except Exception:  # the 400 above, as expected
        pass
    sdk_load("mcp_types:ListToolsResult", {"tools": []})
    response = json.loads((DATA_DIR / "response_1.json").read_text(encoding="utf-8"))
    sdk_load("openai.types.responses:Response", response)  # pydantic builds its validators once


def _clear_environment(
    env: dict[str, str],
    environ: MutableMapping[Any, Any] | None = None,
    native: MutableMapping[Any, Any] | None = None,
) -> None:
    """Only ``env`` is left, in ``os.environ`` and in the interpreter's start-up copy.

    On POSIX that copy (``posix.environ``) is ``os.environ``'s own data: emptied and filled with
    it. On Windows ``nt.environ`` is a separate dict made at start-up: emptied and filled here, so
    it keeps no teacher's variable and still has ``SYSTEMROOT``. ``environ`` and ``native`` are
    ``os.environ`` and that copy unless a test passes its own.
    """
    import importlib

    if environ is None:
        environ = os.environ
    if native is None:
        native = importlib.import_module("nt" if os.name == "nt" else "posix").environ
    environ.clear()
    native.clear()  # POSIX: already empty (the same dict)
    environ.update(env)
    if getattr(environ, "_data", None) is not native:  # a separate copy (Windows)
        native.update(env)


def run_job(job: Job, conn: Connection) -> None:
    """The body of a grading process."""
    from lessons_lib.core.paths import WORKSPACE_DIR
    from lessons_lib.workshop.gradebook.guard import Guard, drop_modules, own_process_group, set_limits

    sys.stdout.flush()
    sys.stderr.flush()
    log = os.open(job.log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(log, 1)
    os.dup2(log, 2)
    _clear_environment(job.env)
    if job.lang:
        from lessons_lib.core.messages import set_language

        set_language(job.lang)
    path = Path(job.path)
    os.chdir(path.parent)
    sys.dont_write_bytecode = True
    missing = own_process_group() + set_limits(job.memory_mb, job.cpu_seconds)
    warm_up()
    package = Path(__file__).resolve().parents[2]  # lessons_lib
    installs = {Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)}
    guard = Guard(
        [path.parent, WORKSPACE_DIR, package, *installs, Path(os.devnull)], [path.parent, Path(os.devnull)]
    )
    drop_modules()
    sys.addaudithook(guard)
    pipe = Pipe(conn)
    pipe.send({"op": "ready", "missing": list(missing)})
    serve(pipe, path, job.cells, guard.refused)
    conn.close()
