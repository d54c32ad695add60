"""Shared pytest configuration: repository paths and the CI rule for missing tools.

Keep this file small: fixtures that only one test module needs live in that module.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

# The shared helpers (``tests/_*.py``) import by name from every folder of tests/ (issue 35).
TESTS_DIR = Path(__file__).resolve().parent
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))

import _forkkernel  # noqa: E402
import pytest  # noqa: E402

REPO_ROOT = TESTS_DIR.parent
NOTEBOOKS_DIR = REPO_ROOT / "notebooks"
ARTIFACTS_DIR = REPO_ROOT / "artifacts"
_ZYGOTE = pytest.StashKey[tuple]()


def in_ci() -> bool:
    """True when the suite runs under CI (``CI=true``, as ``.ci/run`` is started)."""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def skip_or_fail(reason: str) -> NoReturn:
    """Skip locally when a tool is missing, but fail under CI, where it must be there."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true: this test must run in CI, see .ci/run)", pytrace=False)
    pytest.skip(reason)


def course_notebooks() -> list[Path]:
    """The committed lesson notebooks, sorted by name (empty until the lessons land)."""
    return sorted(NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb"))


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    """Forked kernels for nbval in each process that runs notebooks (``tests/_forkkernel.py``)."""
    is_controller = bool(getattr(config.option, "numprocesses", None)) and not hasattr(config, "workerinput")
    if not getattr(config.option, "nbval", False) or is_controller or not _forkkernel.available():
        return
    import subprocess
    import sys
    import tempfile

    import ipykernel.kernelspec

    folder = tempfile.mkdtemp(prefix="lessons-zygote-")
    path = os.path.join(folder, "zygote.sock")
    proc = subprocess.Popen(
        [sys.executable, str(_forkkernel.CLIENT), "zygote", path],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        cwd=folder,
        env={**os.environ, "JPY_PARENT_PID": str(os.getpid())},  # what jupyter_client gives a kernel
    )
    plain = ipykernel.kernelspec.get_kernel_dict

    def forked(extra_arguments: list[str] | None = None, python_arguments: list[str] | None = None) -> dict:
        spec = plain(extra_arguments, python_arguments)
        return {**spec, "argv": _forkkernel.plain_argv_to_client(spec["argv"])}

    ipykernel.kernelspec.get_kernel_dict = forked  # nbval's current-environment kernel asks this
    os.environ[_forkkernel.SOCKET_VARIABLE] = path
    config.stash[_ZYGOTE] = (proc, folder)


def pytest_unconfigure(config: pytest.Config) -> None:
    zygote = config.stash.get(_ZYGOTE, None)
    if zygote is not None:
        import shutil
        import subprocess

        proc, folder = zygote
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(folder, ignore_errors=True)


def readme_block(name: str) -> str:
    """The fenced block after ``<!-- name -->`` in README.md, as ``.ci/run`` extracts it."""
    lines = (REPO_ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    start = lines.index(f"<!-- {name} -->")
    fence = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("```"))
    end = next(i for i in range(fence + 1, len(lines)) if lines[i].startswith("```"))
    return "\n".join(lines[fence + 1 : end]).strip()


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture
def english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """English for one test (issue 28); the language chosen before it, and ``LESSONS_LANG``, come back."""
    from lessons_lib.core.messages import speaking

    monkeypatch.delenv("LESSONS_LANG", raising=False)
    with speaking("en"):
        yield


# The system checks (marker ``system``): whole-system runs that need a browser, a hub, Node.js,
# another platform's simulation or console, the benchmark script or the type checker. They are
# the README's second command; the first, the test command, leaves them out (``-m "not system"``)
# so that it stays near five minutes on the 2-core machine; `.ci/run` runs both. A node id here is
# a file (every test in it) or one test; seconds from `--durations` of the whole suite.
SYSTEM_CHECKS = (
    "tests/platform/test_browser.py",  # 186 s: JupyterLab in Chromium
    "tests/platform/test_hub.py",  # 83 s: a real JupyterHub, three learners
    "tests/package/test_quality.py::test_quality_gate[mypy]",  # 56 s: mypy from an empty cache
    "tests/package/test_benchmarks.py",  # 53 s: the benchmark script's own figures
    "tests/platform/test_platform_winsim.py",  # 46 s: nbval and commands under the simulated Windows profile
    "tests/workshop/test_gradebook_windows.py",  # 37 s: the grader with spawn and no POSIX calls
    "tests/platform/test_platform_console.py",  # 36 s: the README's commands in code-page consoles
    "tests/workshop/test_gradebook_attacks.py",  # 25 s: issue 24's attacks on a gradebook run
    "tests/lessons/test_edition.py::test_a_built_lesson_runs_in_english_under_nbclient_and_nbval",  # 15 s
    "tests/services/test_engine_stdio.py::test_same_head_as_the_reference_node_server",  # the Node.js server
    "tests/platform/test_forkkernel.py",  # 12 s: the test command's forked kernels act as plain ones
    # 31 s: the official MCP conformance suite (Node 24 from its wheel), 3 examples x 2 revisions, over HTTP
    "tests/examples/network/test_net_conformance.py::test_the_official_suite_passes_with_only_justified_failures",
    # 65 s: the suite's client scenarios (auth included) on the course's client, 2 revisions
    "tests/examples/network/test_wire_conformance_client.py::test_the_suites_client_scenarios_pass_with_only_justified_failures",
    # 35-50 s: issue 36's load, 1,000 tools/call over HTTP 100 at a time, a tenth hostile, memory traced
    "tests/examples/network/test_wire_hostile.py::test_load_a_tenth_hostile_no_wrong_answer_no_leak_memory_bounded[1000x100]",
    # 6 s: serve --http --auth and run --mcp-oauth under the Windows profile
    "tests/platform/test_wire_winsim.py",
    # the checkers' own proofs on a copy of the package (the checks themselves stay in the test command)
    "tests/package/test_layering.py::test_a_planted_violation_is_found",  # 26 s
    "tests/package/test_reexports.py::test_a_planted_reexport_is_found",  # 21 s
    "tests/package/test_facade_typed.py::test_mypy_sees_the_real_types_of_facade_names",  # mypy on the facade
)

# Files that take longest, longest first. With `--dist loadfile --no-loadscope-reorder` (README),
# xdist hands out files in this order: the long ones start first, on both workers, and the short
# ones fill the gaps, so the run does not end waiting for one slow file that started last (xdist's
# own reorder sorts files by their number of tests, which put the three-test browser file last).
SLOW_FIRST = (
    "tests/platform/test_browser.py",
    "tests/platform/test_hub.py",
    "tests/platform/test_platform_winsim.py",
    "tests/workshop/test_gradebook_windows.py",
    "tests/platform/test_platform_console.py",
    "tests/workshop/test_gradebook_attacks.py",
    "tests/cli/test_engine_cli.py",
    "tests/workshop/test_gradebook.py",
    "notebooks/30_business_tools.ipynb",
    "notebooks/en/30_business_tools.ipynb",
    "notebooks/12_write_a_server.ipynb",
    "notebooks/en/12_write_a_server.ipynb",
    "notebooks/11_write_the_loop.ipynb",
    "notebooks/en/11_write_the_loop.ipynb",
)


def _repo_name(item: pytest.Item) -> str | None:
    try:
        return item.path.resolve().relative_to(REPO_ROOT).as_posix()
    except ValueError:
        return None


def is_system_check(nodeid: str) -> bool:
    """Whether a test (``tests/x.py::name``) is one of ``SYSTEM_CHECKS``."""
    return any(nodeid == check or nodeid.startswith((check + "::", check + "[")) for check in SYSTEM_CHECKS)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Slow files first (``SLOW_FIRST``), then the notebooks, then the other tests (stable order)."""
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}

    def key(item: pytest.Item) -> tuple[int, int]:
        name = _repo_name(item)
        if name is None:
            return (len(rank) + 2, 0)
        if name in rank:
            return (rank[name], 0)
        return (len(rank) + (0 if name.startswith("notebooks/") else 1), 0)

    items.sort(key=key)


def pytest_itemcollected(item: pytest.Item) -> None:
    """Mark the ``SYSTEM_CHECKS`` as they are collected, before ``-m`` selects."""
    if is_system_check(item.nodeid):
        item.add_marker(pytest.mark.system)
