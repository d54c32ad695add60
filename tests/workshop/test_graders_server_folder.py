"""``grade-server FOLDER -o grades.csv`` (issue 39, lesson 12 in a class): one CSV row per learner,
each server under the loop gradebook's guard: a server that reads the teacher's files, starts a
program or forks is a failed row that says so, and no key of the teacher reaches the gradebook.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "lessons_lib" / "services" / "notes" / "server.py"
KEY = "sk-teacher-secret-0123456789"
START = "from lessons_lib.services.notes.server import main\n\nmain()\n"
ATTACKS = {
    "cy": f"import sys\nprint(open({str(Path.home() / '.profile')!r}).read(), file=sys.stderr)\n" + START,
    "di": "import subprocess\nsubprocess.run(['sh', '-c', 'echo hi'])\n" + START,
    "ed": "import os\nos.fork()\n" + START,
    "fay": "import os\nprint(os.environ.get('OPENAI_API_KEY'))\n" + START,
    "ivy": "import socket\nsocket.create_connection(('127.0.0.1', 9))\n" + START,
    "jo": f"open({str(Path.home() / 'planted.txt')!r}, 'w').write('x')\n" + START,
    "hal": "with open('fill.bin', 'wb') as f:\n    f.write(b'x' * (200 * 2**20))\n" + START,
}


def test_a_class_folder_becomes_a_gradebook_under_the_guard(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    (folder / "bo").mkdir(parents=True)
    shutil.copyfile(REFERENCE, folder / "ada.py")
    (folder / "bo" / "server.py").write_text("print('ready')\n" + START, encoding="utf-8")
    for name, source in ATTACKS.items():
        (folder / f"{name}.py").write_text(source, encoding="utf-8")
    (folder / "gil.txt").write_text("not a server\n", encoding="utf-8")
    out = tmp_path / "grades.csv"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENAI_API_KEY": KEY}
    proc = subprocess.run(
        [sys.executable, "-m", "lessons_lib", "--lang=en", "grade-server", str(folder), "-o", str(out)],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    text = out.read_text(encoding="utf-8")
    rows = {r["learner"]: r for r in csv.DictReader(text.splitlines())}
    assert list(rows) == ["ada", "bo", "cy", "di", "ed", "fay", "gil", "hal", "ivy", "jo"]
    assert rows["hal"]["passed"] == "0", rows["hal"]  # killed at 64 MB (SIGXFSZ) or refused
    assert (rows["ada"]["passed"], rows["bo"]["link"]) == ("1", "stdout")
    for name in ("cy", "di", "ed", "ivy", "jo"):
        assert (rows[name]["passed"], rows[name]["link"]) == ("0", "refused"), rows[name]
    assert rows["fay"]["link"] == "stdout" and rows["gil"]["link"] == "bad_input"
    assert KEY not in text and KEY not in proc.stdout and str(tmp_path) not in text
    assert not (Path.home() / "planted.txt").exists()
