"""Run the source lesson's stand-alone checkers (``examples/verify_*.py``) the way a learner would. Lesson 07.

The scripts in the repository's ``examples/`` use the Python 3 standard library only. This
helper copies that folder into a fresh temporary folder (the scripts work wherever they are
copied), optionally replaces the attachment with a changed copy, runs the script in an isolated
interpreter (``python -I``: no site-packages, no ``PYTHONPATH``, not even the script's folder on
``sys.path``) and returns what it printed, with no machine path in it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from lessons_lib.core.messages import language, t
from lessons_lib.course.record import STANDALONE_DIR

ATTACHMENT_OF: Final = {
    "verify_fields.py": "field_fragments.json",
    "verify_roundtrip.py": "responses_roundtrip.json",
}
"""Each stand-alone script and the attachment it reads by default."""


@dataclass(frozen=True)
class StandaloneRun:
    """What one stand-alone script printed and its exit code; shows as the terminal would."""

    command: str
    output: str
    exit_code: int

    def __repr__(self) -> str:
        return "\n".join(
            (
                t("p1b.standalone.command", args=self.command),
                self.output.rstrip(),
                t("p1b.standalone.exit", code=self.exit_code),
            )
        )


def run_example(script: str, data: object | None = None, *, folder: Path = STANDALONE_DIR) -> StandaloneRun:
    """Run ``examples/<script>`` with ``sys.executable -I`` from a temporary copy of the folder.

    With ``data``, the script reads that JSON instead of its own attachment (written as
    ``changed.json`` in the copy). The output speaks the notebook's language (``--lang``).
    """
    if script not in ATTACHMENT_OF or not (folder / script).is_file():
        return StandaloneRun(script, t("p1b.standalone.missing", name=script), 1)
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "examples"
        shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("__pycache__"))
        args = [script]
        if data is not None:
            (copy / "changed.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
            args.append("changed.json")
        done = subprocess.run(
            [sys.executable, "-I", "-X", "utf8", script, *args[1:], "--lang", language()],
            cwd=copy,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=120,
        )
        output = (done.stdout + done.stderr).replace(str(copy), "examples")
    return StandaloneRun(" ".join(args), output, done.returncode)


__all__ = ["ATTACHMENT_OF", "StandaloneRun", "run_example"]
