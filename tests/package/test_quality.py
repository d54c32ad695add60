"""Code quality gates, run as subprocesses of this interpreter: ruff lint, ruff format, mypy."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import REPO_ROOT, SYSTEM_CHECKS, readme_block

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


def test_readme_test_command_runs_every_suite() -> None:
    cmd = readme_block("test-command")
    assert cmd.startswith('pip install -e ".[test]" && python -m pytest '), cmd
    parts = ["--nbval ", "--nbval-sanitize-with tests/nbval_sanitize.cfg", '-m "not system" tests notebooks']
    for part in parts:
        assert part in cmd, f"README test command lacks {part!r}: {cmd}"
    assert (REPO_ROOT / "tests" / "nbval_sanitize.cfg").is_file()
    assert readme_block("system-checks").endswith(" -m system tests")


def test_every_system_check_names_a_test_that_exists() -> None:
    """A renamed file or test would slip its check into the test command unnoticed: each entry names one."""
    for check in SYSTEM_CHECKS:
        path, _, name = check.partition("::")
        assert (REPO_ROOT / path).is_file(), check
        function, _, param = name.partition("[")
        source = (REPO_ROOT / path).read_text(encoding="utf-8")
        assert not function or f"def {function}(" in source, check
        assert not param or repr(param.rstrip("]")) in source or f'"{param.rstrip("]")}"' in source, check


def test_contributing_quotes_the_same_pytest_command() -> None:
    pytest_part = readme_block("test-command").split(" && ", 1)[1]
    contributing = (REPO_ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert pytest_part in contributing, "CONTRIBUTING.md must quote README's pytest command verbatim"
