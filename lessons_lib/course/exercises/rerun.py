"""Run a learner's one-argument function again in fresh Python processes. Lesson 50's checker.

A fingerprint stored today must match tomorrow: Python's ``hash()`` of text is salted per process
(``PYTHONHASHSEED``), so an answer built on it agrees with itself inside one process and nowhere
else. :func:`in_fresh_processes` rebuilds the function from its source (with the modules and the
plain values it names) in two child processes with different hash salts, calls it on one JSON
argument and returns both results as text. Stdlib only.
"""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
import textwrap
import types
from typing import Final, TypedDict

from lessons_lib.core.jsonvalue import JSON, JSONObject

SALTS: Final = ("1", "2")
"""The ``PYTHONHASHSEED`` of the two processes: two different salts, as on two different days."""
TIMEOUT: Final = 20.0

_CHILD: Final = r"""
import importlib, json, sys
spec = json.loads(sys.stdin.read())
space = {name: importlib.import_module(module) for name, module in spec["modules"].items()}
space.update(spec["values"])
for source in spec["sources"]:
    exec(compile("from __future__ import annotations\n" + source, "<learner>", "exec"), space)
name = spec["name"]
function = space.get(name) or [v for v in space.values() if getattr(v, "__name__", "") == name][-1]
print(repr(function(spec["argument"])))
"""


class CannotRerun(Exception):
    """The function could not be rebuilt in another process (its source or a name it uses)."""


def _source(function: types.FunctionType) -> str:
    try:
        return textwrap.dedent(inspect.getsource(function))
    except (OSError, TypeError) as exc:
        raise CannotRerun(f"no source for {function.__name__}: {exc}") from exc


def _names(code: types.CodeType) -> list[str]:
    """Every global name a code object uses, its nested comprehensions and lambdas included."""
    found = list(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found += _names(const)
    return found


class _Spec(TypedDict):
    """What the child process needs to rebuild and call the function (sent as JSON on its stdin)."""

    modules: dict[str, str]
    values: JSONObject
    sources: list[str]
    name: str
    argument: JSON


def _spec(function: object, argument: JSON) -> _Spec:
    """The function's source and what its body names: modules, other functions, JSON values."""
    if not isinstance(function, types.FunctionType):
        raise CannotRerun(f"{type(function).__name__} is not a plain function")
    modules: dict[str, str] = {}
    values: JSONObject = {}
    sources: list[str] = []
    seen: set[str] = set()
    todo = [function]
    while todo:
        current = todo.pop()
        if current.__qualname__ in seen:
            continue
        seen.add(current.__qualname__)
        sources.insert(0, _source(current))
        for name in _names(current.__code__):
            value = current.__globals__.get(name)
            if isinstance(value, types.ModuleType):
                modules[name] = value.__name__
            elif isinstance(value, types.FunctionType):
                todo.append(value)
            elif value is not None and not callable(value):
                try:
                    values[name] = json.loads(json.dumps(value))
                except (TypeError, ValueError):
                    raise CannotRerun(f"{name} is not a plain value") from None
    name = function.__name__  # a lambda is found again by its name "<lambda>" after its line runs
    return {"modules": modules, "values": values, "sources": sources, "name": name, "argument": argument}


def in_fresh_processes(function: object, argument: JSON) -> list[str]:
    """``repr`` of ``function(argument)`` in each of two new processes with different hash salts.

    Raises :class:`CannotRerun` when the function cannot be rebuilt or fails there.
    """
    spec = json.dumps(_spec(function, argument), ensure_ascii=False)
    results = []
    for salt in SALTS:
        env = {**os.environ, "PYTHONHASHSEED": salt, "PYTHONIOENCODING": "utf-8"}
        try:
            done = subprocess.run(
                [sys.executable, "-c", _CHILD],
                input=spec.encode("utf-8"),
                capture_output=True,
                env=env,
                timeout=TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise CannotRerun(f"no answer within {TIMEOUT:.0f} s") from exc
        if done.returncode != 0:
            lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise CannotRerun(lines[-1] if lines else f"exit code {done.returncode}")
        results.append(done.stdout.decode("utf-8", "replace").strip())
    return results
