"""Any checkout: a clone with ``core.autocrlf=true`` (Git for Windows' default) keeps LF (issue 23).

The lessons show the bytes and line lengths of ``data/workspace/notes.txt`` and strict nbval
compares every stored output, so one CR would change what a Windows learner sees. The clone is
made from this repository's committed HEAD with the Windows setting; then, to show the check can
fail, the same checkout with an empty ``.gitattributes`` turns notes.txt into CRLF.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import REPO_ROOT, skip_or_fail


def git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def windows_clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("git") is None:
        skip_or_fail("git is not installed")
    inside = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO_ROOT, capture_output=True, check=False)
    if inside.returncode != 0:
        skip_or_fail("the repository is not a git checkout")
    clone = tmp_path_factory.mktemp("autocrlf") / "course"
    git(
        "clone", "-q", "--no-hardlinks", "-c", "core.autocrlf=true", str(REPO_ROOT), str(clone), cwd=REPO_ROOT
    )
    return clone


def files_with_cr(root: Path, folders: tuple[str, ...]) -> list[str]:
    found = []
    for folder in folders:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and b"\r" in path.read_bytes():
                found.append(str(path.relative_to(root)))
    return found


def test_a_windows_clone_has_no_cr_in_data_or_notebooks(windows_clone: Path) -> None:
    assert git("config", "core.autocrlf", cwd=windows_clone).strip() == "true"
    assert (windows_clone / "data" / "workspace" / "notes.txt").is_file()
    assert files_with_cr(windows_clone, ("data", "notebooks", "lessons_lib", "tests")) == []
    assert (windows_clone / "data" / "workspace" / "notes.txt").read_bytes() == (
        REPO_ROOT / "data" / "workspace" / "notes.txt"
    ).read_bytes()


def test_without_the_attributes_the_same_clone_gets_crlf(windows_clone: Path) -> None:
    notes = windows_clone / "data" / "workspace" / "notes.txt"
    (windows_clone / ".gitattributes").write_text("", encoding="utf-8")  # no rules (an absent file
    notes.unlink()  # would fall back to the index's copy)
    try:
        git("checkout", "--", "data/workspace/notes.txt", cwd=windows_clone)
        assert b"\r\n" in notes.read_bytes()  # what every Windows learner got before .gitattributes
    finally:
        git("checkout", "--", ".gitattributes", cwd=windows_clone)
        notes.unlink()
        git("checkout", "--", "data/workspace/notes.txt", cwd=windows_clone)


def test_every_tracked_file_has_a_line_end_rule() -> None:
    """No tracked file is left to Git's guess: each is text with LF, or binary."""
    listed = subprocess.run(["git", "ls-files"], cwd=REPO_ROOT, capture_output=True, text=True, check=False)
    if listed.returncode != 0:
        skip_or_fail("the repository is not a git checkout")
    names = listed.stdout.splitlines()
    attrs = subprocess.run(
        ["git", "check-attr", "eol", "binary", "--stdin"],
        cwd=REPO_ROOT,
        input="\n".join(names),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rules: dict[str, dict[str, str]] = {}
    for line in attrs.splitlines():
        name, attr, value = line.rsplit(": ", 2)
        rules.setdefault(name, {})[attr] = value
    loose = [n for n, r in rules.items() if r.get("eol") != "lf" and r.get("binary") != "set"]
    assert loose == []
