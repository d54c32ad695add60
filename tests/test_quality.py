"""Code quality gates, run as subprocesses of this interpreter: ruff lint, ruff format, mypy."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import REPO_ROOT

RUFF_PATHS = ["lessons_lib", "tests", "benchmarks"]

CHECKS = {
    "ruff-check": ["ruff", "check", *RUFF_PATHS],
    "ruff-format": ["ruff", "format", "--check", "--diff", *RUFF_PATHS],
    "mypy": ["mypy", "lessons_lib"],
}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_quality_gate(name: str) -> None:
    cmd = [sys.executable, "-m", *CHECKS[name]]
    proc = subprocess.run(cmd, cwd=REPO_ROOT, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        pytest.fail(
            f"`{' '.join(['python -m', *CHECKS[name]])}` exited {proc.returncode}:\n"
            f"{proc.stdout}\n{proc.stderr}",
            pytrace=False,
        )


def readme_test_command() -> str:
    """The fenced block after ``<!-- test-command -->`` in README.md, as ``.ci/run`` extracts it."""
    lines = (REPO_ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    start = lines.index("<!-- test-command -->")
    fence = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("```"))
    end = next(i for i in range(fence + 1, len(lines)) if lines[i].startswith("```"))
    return "\n".join(lines[fence + 1 : end]).strip()


def test_readme_test_command_runs_every_suite() -> None:
    cmd = readme_test_command()
    assert cmd.startswith('pip install -e ".[test]" && python -m pytest '), cmd
    for part in ["--nbval ", "--nbval-sanitize-with tests/nbval_sanitize.cfg", " tests notebooks"]:
        assert part in cmd, f"README test command lacks {part!r}: {cmd}"
    assert (REPO_ROOT / "tests" / "nbval_sanitize.cfg").is_file()


def test_contributing_quotes_the_same_pytest_command() -> None:
    pytest_part = readme_test_command().split(" && ", 1)[1]
    contributing = (REPO_ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert pytest_part in contributing, "CONTRIBUTING.md must quote README's pytest command verbatim"
