"""Binder configuration: ``binder/`` files, the image repo2docker would build, the README badge.

``jupyter-repo2docker --no-build --no-run`` reads the configuration and prints the Dockerfile
it would build, without Docker and without the network; the test reads that plan.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import tomllib

import pytest
from conftest import NOTEBOOKS_DIR, REPO_ROOT, course_notebooks, skip_or_fail

BINDER = REPO_ROOT / "binder"
START_NOTEBOOK = "notebooks/00_start_here.ipynb"
BADGE_URL = re.compile(
    r"https://mybinder\.org/v2/gh/[\w.-]+/[\w.-]+/HEAD\?urlpath=(?:lab/tree/|lab%2Ftree%2F)"
    + re.escape(START_NOTEBOOK).replace("/", "(?:/|%2F)")
)


def _entries(name: str) -> list[str]:
    """Non-comment, non-blank lines of a binder file."""
    text = (BINDER / name).read_text(encoding="utf-8")
    return [line.split("#", 1)[0].strip() for line in text.splitlines() if line.split("#", 1)[0].strip()]


def test_binder_files_say_what_the_image_needs() -> None:
    assert _entries("requirements.txt") == ["-e .[tokens]"], (
        "binder/requirements.txt must install the repo itself with lesson 51's tokenizer"
    )
    apt = _entries("apt.txt")
    assert "graphviz" in apt and "fonts-wqy-microhei" in apt, apt
    assert (BINDER / "runtime.txt").read_text(encoding="utf-8").strip() == "python-3.11"


def test_runtime_satisfies_requires_python() -> None:
    from packaging.specifiers import SpecifierSet

    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    version = (BINDER / "runtime.txt").read_text(encoding="utf-8").strip().removeprefix("python-")
    assert SpecifierSet(project["requires-python"]).contains(version)


def test_no_root_config_that_binder_dir_would_hide() -> None:
    """With a binder/ folder, repo2docker ignores these files at the root: keep none there."""
    shadowed = ["requirements.txt", "environment.yml", "apt.txt", "runtime.txt", "postBuild", "Project.toml"]
    assert not [n for n in shadowed if (REPO_ROOT / n).exists()]


def test_repo2docker_plans_the_image() -> None:
    if importlib.util.find_spec("repo2docker") is None:
        skip_or_fail("jupyter-repo2docker is not installed (pip install -e '.[test]')")
    proc = subprocess.run(
        [sys.executable, "-m", "repo2docker", "--no-build", "--no-run", str(REPO_ROOT)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    report = f"exit {proc.returncode}\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
    assert proc.returncode == 0, report
    dockerfile, log = proc.stdout, proc.stderr
    assert "python=3.11" in log, report  # runtime.txt was read
    apt_line = re.search(r"apt-get install --yes --no-install-recommends ([a-z0-9.+\- ]+)", dockerfile)
    assert apt_line, report
    assert {"graphviz", "fonts-wqy-microhei"} <= set(apt_line.group(1).split()), apt_line.group(0)
    # "-e ." is a local requirement, so pip runs after the whole repo is copied in, from its root
    copy_repo = dockerfile.find("COPY --chown=0:0 src/ ${REPO_DIR}/")
    pip = dockerfile.find('pip install --no-cache-dir -r "binder/requirements.txt"')
    assert 0 <= copy_repo < pip, report
    assert "WORKDIR ${REPO_DIR}" in dockerfile[:copy_repo], report
    # postBuild trusts the stored outputs once the course is installed (diagrams show unrun)
    post = dockerfile.find("RUN ./binder/postBuild")
    assert pip < post, report
    assert "python -m lessons_lib trust" in (BINDER / "postBuild").read_text(encoding="utf-8")


def test_readme_badge_opens_the_first_lesson_in_lab() -> None:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert "https://mybinder.org/badge_logo.svg" in readme, "README needs the Binder badge image"
    assert BADGE_URL.search(readme), "README's Binder link must open notebooks/00_start_here.ipynb in Lab"
    if not course_notebooks():
        pytest.skip("no lesson notebooks yet: the badge target lands with the lessons")
    assert (NOTEBOOKS_DIR / "00_start_here.ipynb").exists(), "the Binder link points to a missing notebook"
