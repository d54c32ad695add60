"""Shared pytest configuration: repository paths and the CI rule for missing tools.

Keep this file small: fixtures that only one test module needs live in that module.
"""

from __future__ import annotations

import os
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
