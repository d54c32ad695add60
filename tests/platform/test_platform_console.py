"""Every command the README shows works on a console that is not UTF-8 (issue 23).

The policy (README, "Platforms"; ``lessons_lib/cli/console.py``): output keeps the console's
encoding, and a character that encoding lacks becomes a backslash escape. Each README command
runs with ``PYTHONIOENCODING=gbk`` (a Chinese Windows console, redirected) and ``cp1252`` (a
Western one), output redirected: no traceback, no ``UnicodeEncodeError``, an exit code the
command documents. All commands of one encoding run in one subprocess (``_console_driver.py``;
the SDKs load once), and one command also runs as a plain redirected ``python -m lessons_lib``
to show the driver gives the same bytes. The only command that does not end by itself,
``openapi serve``, runs as its own subprocess until it prints its address.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from _engine_support import REPO_ROOT, clean_env

ENCODINGS = ("gbk", "cp1252")
README = REPO_ROOT / "README.md"
PREFIX = ["python", "-m", "lessons_lib"]
SERVER = "openapi serve"
TREE = ["tree", "data/request_1.json", "--highlight", "tools[0].parameters"]  # a README command


def readme_commands() -> list[tuple[dict[str, str], list[str]]]:
    """(environment, arguments) of every ``python -m lessons_lib`` command in README code blocks."""
    blocks = re.findall(r"```bash\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    found: list[tuple[dict[str, str], list[str]]] = []
    for line in "\n".join(blocks).splitlines():
        for part in line.split("&&"):
            words = shlex.split(part, comments=True)
            env = {}
            while words and re.fullmatch(r"[A-Z_]+=.*", words[0]):
                key, _, value = words.pop(0).partition("=")
                env[key] = value
            if words[:3] == PREFIX and len(words) > 3:
                found.append((env, words[3:]))
    return found


def command_id(argv: list[str]) -> str:
    return " ".join(argv)


def runnable(argv: list[str], env: dict[str, str], tmp: Path) -> tuple[list[str], dict[str, str]]:
    """The README command with its placeholders filled and its files written into ``tmp``.

    DIR (``serve --root DIR``) is the course's workspace; files the README writes to /tmp or to
    the working folder go to ``tmp``; ``record`` writes into ``tmp`` instead of ``data/``;
    ``trust`` uses a Jupyter data folder in ``tmp`` instead of the user's.
    """
    args = ["data/workspace" if a == "DIR" else a for a in argv]
    args = [str(tmp / Path(a).name) if a.startswith("/tmp/") or a == "grades.csv" else a for a in args]
    if args[0] == "record":
        args += ["--out", str(tmp / "record")]
    env = dict(env, JUPYTER_DATA_DIR=str(tmp / "jupyter"))
    return args, env


COMMANDS = readme_commands()


def test_the_readme_shows_every_kind_of_command() -> None:
    """The list below is read from the README; a command added there is tested here too."""
    names = {argv[0] for _, argv in COMMANDS}
    assert {"run", "serve", "record", "whatif", "tree", "diagram", "grade", "openapi", "trust"} <= names
    assert len(COMMANDS) >= 20


@pytest.fixture(scope="session")
def console_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, dict[str, object]]]:
    """Every README command under each encoding: one driver subprocess per encoding, in parallel."""
    procs = {}
    for encoding in ENCODINGS:
        tmp = tmp_path_factory.mktemp(f"console-{encoding}")
        specs = {}
        for env, argv in COMMANDS:
            if command_id(argv[:2]) == SERVER:
                continue
            args, full_env = runnable(argv, env, tmp)
            specs[command_id(argv)] = {"argv": args, "env": full_env}
        out = tmp / "results.json"
        driver = [
            sys.executable,
            str(REPO_ROOT / "tests" / "_console_driver.py"),
            str(out),
            json.dumps(specs),
        ]
        procs[encoding] = (
            out,
            subprocess.Popen(driver, cwd=REPO_ROOT, env=clean_env(PYTHONIOENCODING=encoding)),
        )
    results = {}
    for encoding, (out, proc) in procs.items():
        assert proc.wait(timeout=600) == 0, f"the {encoding} driver failed"
        results[encoding] = json.loads(out.read_text(encoding="utf-8"))
    return results


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("argv", [a for _, a in COMMANDS if command_id(a[:2]) != SERVER], ids=command_id)
def test_readme_command_survives_the_console(
    console_runs: dict[str, dict[str, dict[str, object]]], encoding: str, argv: list[str]
) -> None:
    result = console_runs[encoding][command_id(argv)]
    assert not result["crash"], result["crash"]
    output = f"{result['stdout']}{result['stderr']}"
    assert "Traceback" not in output and "UnicodeEncodeError" not in output, output[-2000:]
    assert output.strip(), "the command printed nothing"
    # 0 ok, 1 a check failed or no answer, 2 bad input (the README's own placeholders, e.g. my_loop.py)
    assert result["code"] in (0, 1, 2), (result["code"], output[-2000:])
    if argv[:2] != ["grade", "my_loop.py"] and argv[:2] != ["grade", "submitted/"] and "--live" not in argv:
        assert result["code"] == 0, output[-2000:]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_chinese_survives_where_the_code_page_has_it(
    console_runs: dict[str, dict[str, dict[str, object]]], encoding: str
) -> None:
    """gbk keeps the Chinese and escapes ⏎; cp1252 has no Chinese, so it is escaped, never lost."""
    text = str(console_runs[encoding]["run --head 5"]["stdout"])
    if encoding == "gbk":
        assert "应用" in text
    else:
        assert "应用" not in text and "\\u5e94\\u7528" in text
    assert "\\u23ce" in text  # ⏎ is in neither code page: escaped, the command goes on


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_real_redirected_run_matches_the_driver(
    console_runs: dict[str, dict[str, dict[str, object]]], encoding: str, tmp_path: Path
) -> None:
    """``python -m lessons_lib tree ... > out.txt``, as a learner types it, in that encoding."""
    out = tmp_path / "out.txt"
    with out.open("wb") as handle:
        code = subprocess.run(
            [sys.executable, "-m", "lessons_lib", *TREE],
            stdout=handle,
            stderr=subprocess.PIPE,
            cwd=REPO_ROOT,
            env=clean_env(PYTHONIOENCODING=encoding),
            timeout=120,
            check=False,
        )
    assert code.returncode == 0, code.stderr.decode(encoding, "replace")
    text = out.read_bytes().decode(encoding)
    assert text == console_runs[encoding][command_id(TREE)]["stdout"] and "\\u" in text


def test_the_order_api_server_starts_on_a_gbk_console() -> None:
    (env, argv) = next((e, a) for e, a in COMMANDS if command_id(a[:2]) == SERVER)
    args = [("0" if a == "8040" else a) for a in argv]  # any free port
    proc = subprocess.Popen(
        [sys.executable, "-m", "lessons_lib", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        cwd=REPO_ROOT,
        env=clean_env(PYTHONIOENCODING="gbk", **env),
    )
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:  # a reader thread, so a server that never prints cannot hang the test
        assert proc.stdout is not None
        for raw in proc.stdout:
            lines.put(raw.decode("gbk"))

    threading.Thread(target=read, daemon=True).start()
    seen: list[str] = []
    try:
        deadline = time.monotonic() + 120
        while not any(line.startswith("order API on http://127.0.0.1:") for line in seen):
            left = deadline - time.monotonic()
            assert left > 0 and proc.poll() is None, seen
            try:
                seen.append(lines.get(timeout=min(left, 1.0)))
            except queue.Empty:
                continue
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_the_policy_is_applied_before_any_command() -> None:
    """The dispatcher sets the policy itself: no command can print before it."""
    code = (
        "import io, sys; sys.stdout = io.TextIOWrapper(io.BytesIO(), encoding='gbk', errors='strict');"
        "from lessons_lib.cli import main; main(['--help']); print('\\u23ce'); sys.exit(sys.stdout.errors != "
        "'backslashreplace')"
    )
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    assert subprocess.run([sys.executable, "-c", code], env=env, check=False, timeout=60).returncode == 0
