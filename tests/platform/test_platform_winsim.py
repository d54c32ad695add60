"""The simulated-Windows profile (issue 23): the course without what Windows' CPython lacks.

``tests/winsim/sitecustomize.py`` removes ``O_NOFOLLOW``, ``O_DIRECTORY``, ``O_NONBLOCK``,
``dir_fd``, ``fork``, ``SIGALRM`` and ``resource`` in every process started with the profile's
environment, before ``lessons_lib`` loads. Under it: the README's commands of the offline chain,
``serve`` refusing a link out of its root, and lessons 03 and 09 under strict nbval (their
kernels run under the profile too). And the profile is not a no-op: against the file service
of 338303a (flags built at import) the same ``run`` fails with the ``O_DIRECTORY`` error.
This is a simulation on Linux, not Windows (README, "Platforms").
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from _engine_support import NOTES, clean_env, text_of
from conftest import REPO_ROOT, skip_or_fail

PROFILE = REPO_ROOT / "tests" / "winsim"
OLD_COMMIT = "338303a"  # the file service before issue 23: flags built at import

pytestmark = pytest.mark.skipif(
    not hasattr(os, "O_DIRECTORY"), reason="nothing to simulate: this Python already lacks the POSIX parts"
)

# Each entry is one command run under the profile; it must exit 0 without a traceback.
PROFILE_COMMANDS: list[tuple[str, ...]] = [
    ("run", "--head", "5"),
    ("run", "--api", "anthropic"),
    ("run", "--example", "orders", "--scenario", "retry"),
    # the grader without resource, SIGALRM or fork (issue 23): lesson 11's reference loop
    ("grade", "notebooks/11_write_the_loop.ipynb", "--cells", "solution", "--function", "app_loop"),
]


def profile_env(code_root: Path = REPO_ROOT, **extra: str) -> dict[str, str]:
    """The environment of a simulated-Windows process: the profile first, then the code."""
    return clean_env(
        PYTHONPATH=os.pathsep.join([str(PROFILE), str(code_root)]), PYTHONIOENCODING="gbk", **extra
    )


def in_profile(
    *args: str, code_root: Path = REPO_ROOT, timeout: float = 180
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        encoding="gbk",
        errors="replace",
        env=profile_env(code_root),
        cwd=REPO_ROOT,
        timeout=timeout,
        check=False,
    )


def test_the_profile_removes_what_windows_lacks() -> None:
    probe = (
        "import os, signal\n"
        "missing = [n for n in ('O_NOFOLLOW', 'O_DIRECTORY', 'O_NONBLOCK', 'fork') if hasattr(os, n)]\n"
        "missing += [n for n in ('SIGALRM', 'alarm', 'setitimer') if hasattr(signal, n)]\n"
        "try:\n    exec('import resource', {'__name__': 'lessons_lib.probe'})\n"
        "except ImportError:\n    pass\nelse:\n    missing.append('resource')\n"
        "try:\n    os.open('.', os.O_RDONLY, dir_fd=0)\nexcept NotImplementedError:\n    pass\n"
        "else:\n    missing.append('dir_fd')\n"
        "from lessons_lib.services.files.opener import beneath_supported\n"
        "print(missing, os.supports_dir_fd, beneath_supported())\n"
    )
    done = in_profile("-c", probe)
    assert done.stdout.strip() == "[] set() False", done.stderr


@pytest.fixture(scope="module")
def profile_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, object]]:
    """Every profile command in one simulated-Windows process (``_console_driver.py``, SDKs loaded once)."""
    out = tmp_path_factory.mktemp("winsim") / "results.json"
    specs = {" ".join(args): {"argv": list(args), "env": {}} for args in PROFILE_COMMANDS}
    driver = [sys.executable, str(REPO_ROOT / "tests" / "_console_driver.py"), str(out), json.dumps(specs)]
    done = subprocess.run(driver, env=profile_env(), cwd=REPO_ROOT, timeout=600, check=False)
    assert done.returncode == 0, "the simulated-Windows driver failed"
    results: dict[str, dict[str, object]] = json.loads(out.read_text(encoding="utf-8"))
    return results


@pytest.mark.parametrize("args", PROFILE_COMMANDS, ids=" ".join)
def test_a_command_runs_under_the_profile(
    profile_runs: dict[str, dict[str, object]], args: tuple[str, ...]
) -> None:
    result = profile_runs[" ".join(args)]
    output = f"{result['stdout']}{result['stderr']}{result['crash']}"
    assert result["code"] == 0, output[-3000:]
    assert "Traceback" not in output


async def _serve_session(root: Path, calls: list[dict[str, Any]]) -> list[Any]:
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "lessons_lib", "serve", "--root", str(root)], env=profile_env()
    )
    with anyio.fail_after(120), open(root.parent / "stderr.txt", "w", encoding="utf-8") as errlog:
        async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
            return [await client.call_tool("read_text_file", a) for a in calls]


def test_serve_refuses_a_link_out_of_the_root_under_the_profile(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "sub").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.txt").write_text("SECRET-WINSIM\n", encoding="utf-8")
    (root / "notes.txt").write_bytes(NOTES.read_bytes())
    (root / "link_out.txt").symlink_to(outside / "secret.txt")
    (root / "sub" / "dir_out").symlink_to(outside, target_is_directory=True)
    calls: list[dict[str, Any]] = [
        {"path": "/workspace/notes.txt", "head": 2},
        {"path": "/workspace/link_out.txt"},
        {"path": "/workspace/sub/dir_out/secret.txt"},
        {"path": "C:\\secret.txt"},
    ]
    results = anyio.run(_serve_session, root, calls)
    assert [r.is_error for r in results] == [False, True, True, True]
    assert text_of(results[0]) == "\n".join(NOTES.read_text(encoding="utf-8").split("\n")[:2])
    assert all("SECRET" not in text_of(r) and str(tmp_path) not in text_of(r) for r in results)
    assert text_of(results[1]).startswith("Access denied - /workspace/link_out.txt is a link")
    assert "Traceback" not in (tmp_path / "stderr.txt").read_text(encoding="utf-8")


def test_lessons_03_and_09_pass_strict_nbval_under_the_profile(tmp_path: Path) -> None:
    log = tmp_path / "processes.txt"
    notebooks = ["notebooks/03_minimal_walkthrough.ipynb", "notebooks/09_what_if.ipynb"]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:xdist", "--nbval"]
        + ["--nbval-current-env", "--nbval-sanitize-with", "tests/nbval_sanitize.cfg", *notebooks],
        capture_output=True,
        text=True,
        env=profile_env(LESSONS_WINSIM_LOG=str(log)),
        cwd=REPO_ROOT,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert " passed" in done.stdout and "failed" not in done.stdout
    kernels = [line for line in log.read_text(encoding="utf-8").splitlines() if "ipykernel" in line]
    assert len(kernels) >= 2, log.read_text(encoding="utf-8")  # each lesson's kernel ran the profile


def test_the_profile_fails_on_the_old_file_service(tmp_path: Path) -> None:
    """The same command against 338303a's fileservice.py: the error issue 23 reported."""
    if shutil.which("git") is None:
        skip_or_fail("git is not installed")
    old = subprocess.run(
        ["git", "show", f"{OLD_COMMIT}:lessons_lib/engine/fileservice.py"],  # its path in that commit
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if old.returncode != 0:
        skip_or_fail(f"commit {OLD_COMMIT} is not in this checkout")
    copy = tmp_path / "code"
    shutil.copytree(
        REPO_ROOT / "lessons_lib", copy / "lessons_lib", ignore=shutil.ignore_patterns("__pycache__")
    )
    # put where the file service lives now (its imports, core's example, jsonvalue and paths, still exist)
    (copy / "lessons_lib" / "services" / "files" / "service.py").write_text(old.stdout, encoding="utf-8")
    env = profile_env(copy, LESSONS_DATA_DIR=str(REPO_ROOT / "data"))
    done = subprocess.run(
        [sys.executable, "-m", "lessons_lib", "run", "--head", "5"],
        capture_output=True,
        text=True,
        encoding="gbk",
        errors="replace",
        env=env,
        cwd=tmp_path,
        timeout=180,
        check=False,
    )
    assert done.returncode != 0
    assert "module 'os' has no attribute 'O_DIRECTORY'" in done.stdout + done.stderr, (
        done.stdout + done.stderr
    )
