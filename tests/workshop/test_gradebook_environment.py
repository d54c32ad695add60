"""A grading process keeps exactly its job's ``env``: in ``os.environ`` and in the start-up copy.

``gradebook_worker._clear_environment`` once emptied ``posix.environ`` after filling
``os.environ``; on POSIX the two are one dict, so the learner's code ran with no variable at all
(no ``PATH``, no ``HOME``; on Windows no ``SYSTEMROOT``, which sockets and ``random`` need).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lessons_lib.workshop.gradebook.worker import Job, _clear_environment

SECRET = "sk-teacher-secret-environment-42"
PROBE = """
import os, sys

def probe():
    native = sys.modules["nt" if os.name == "nt" else "posix"].environ
    def text(v):
        return v.decode("utf-8", "replace") if isinstance(v, bytes) else v
    return {"environ": dict(os.environ), "native": {text(k): text(v) for k, v in native.items()}}
"""


class _SharedEnviron(dict[str, str]):
    """POSIX's layout: ``os.environ``'s data is the start-up copy itself (``posix.environ``)."""

    @property
    def _data(self) -> dict[str, str]:
        return self


def test_the_windows_layout_keeps_only_env_in_both_dicts() -> None:
    # A simulation of Windows on any platform: there ``os.environ`` and ``nt.environ`` are two
    # separate dicts, and the start-up copy must be emptied and filled by hand.
    env = {"PATH": "/usr/bin", "SYSTEMROOT": r"C:\Windows"}
    environ = {"PATH": "/usr/bin", "OPENAI_API_KEY": SECRET}
    native = dict(environ)
    _clear_environment(env, environ=environ, native=native)
    assert environ == env and native == env


def test_the_posix_layout_keeps_only_env_in_the_shared_dict() -> None:
    # A simulation of POSIX's layout: one dict seen as both (the real one is tested below).
    env = {"PATH": "/usr/bin", "HOME": "/tmp/work"}
    shared = _SharedEnviron(PATH="/usr/bin", OPENAI_API_KEY=SECRET)
    _clear_environment(env, environ=shared, native=shared)
    assert shared == env


def test_a_graded_job_sees_exactly_its_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A real grading process (``spawn``, started with the secret in its environment)."""
    import multiprocessing

    from lessons_lib.workshop.gradebook.loops import MEMORY_MB
    from lessons_lib.workshop.gradebook.pipe import decode, encode
    from lessons_lib.workshop.gradebook.trusted import Session

    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    submission = tmp_path / "submission" / "probe.py"
    submission.parent.mkdir()
    submission.write_text(PROBE, encoding="utf-8")
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "PYTHONDONTWRITEBYTECODE": "1"}
    job = Job(str(submission), "exercise", MEMORY_MB, 60, env, str(tmp_path / "output.log"))
    session = Session(job, multiprocessing.get_context("spawn"), lambda start: start())
    try:
        session.ensure()
        loaded = session.request({"op": "load", "function": "probe"}, ("loaded", "not_loaded"))
        assert loaded["op"] == "loaded", loaded
        reply = session.request({"op": "call", "args": encode([]), "kwargs": encode({})}, ("return", "raise"))
    finally:
        session.close()
    assert reply["op"] == "return", reply
    seen = decode(reply["value"])
    assert isinstance(seen, dict)
    assert seen["environ"] == env, "os.environ holds the job's env, PATH included, and no secret"
    assert seen["native"] == env, "the start-up copy too"
    assert SECRET not in str(seen)
