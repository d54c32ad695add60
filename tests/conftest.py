"""Shared pytest configuration: repository paths and the CI rule for missing tools.

Keep this file small: fixtures that only one test module needs live in that module.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS_DIR = REPO_ROOT / "notebooks"
ARTIFACTS_DIR = REPO_ROOT / "artifacts"


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


# Files that take longest, longest first (seconds from `--durations` of the README command on the
# 2-core machine). With `--dist loadfile --no-loadscope-reorder` (README), xdist hands out files in
# this order: the long ones start first, on both workers, and the short ones fill the gaps, so the
# run does not end waiting for one slow file that started last (xdist's own reorder sorts files by
# their number of tests, which put the three-test browser file near the end).
SLOW_FIRST = (
    "tests/test_browser.py",  # about 200 s: JupyterLab in Chromium
    "tests/test_hub.py",  # about 80 s: a real JupyterHub, three learners
    "tests/test_gradebook_attacks.py",
    "tests/test_gradebook.py",
    "tests/test_platform_winsim.py",
    "tests/test_platform_console.py",
    "tests/test_gradebook_windows.py",
    "notebooks/30_business_tools.ipynb",
    "notebooks/12_write_a_server.ipynb",
    "notebooks/11_write_the_loop.ipynb",
)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Slow files first (``SLOW_FIRST``), then the notebooks, then the other tests (stable order)."""
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}

    def key(item: pytest.Item) -> tuple[int, int]:
        try:
            name = item.path.resolve().relative_to(REPO_ROOT).as_posix()
        except ValueError:
            return (len(rank) + 2, 0)
        if name in rank:
            return (rank[name], 0)
        return (len(rank) + (0 if name.startswith("notebooks/") else 1), 0)

    items.sort(key=key)
