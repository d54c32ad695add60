"""The forked kernels of the test command (``tests/_forkkernel.py``) behave as plain ones where nbval looks.

Each test starts its own zygote, so it does not depend on the one ``conftest.py`` starts for nbval.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import _forkkernel
import pytest

pytestmark = pytest.mark.skipif(not _forkkernel.available(), reason="forked kernels are Linux only")


@pytest.fixture(scope="module")
def zygote(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    path = str(tmp_path_factory.mktemp("zygote") / "z.sock")
    proc = subprocess.Popen(
        [sys.executable, str(_forkkernel.CLIENT), "zygote", path],
        stdin=subprocess.PIPE,
        env={**os.environ, "JPY_PARENT_PID": str(os.getpid())},
    )
    yield path
    assert proc.stdin is not None
    proc.stdin.close()
    assert proc.wait(timeout=10) == 0  # it ends when the test process closes its stdin


def _start(zygote: str, cwd: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    import ipykernel.kernelspec
    from jupyter_client.manager import KernelManager
    from nbval.kernel import CURRENT_ENV_KERNEL_NAME, NbvalKernelspecManager

    plain = ipykernel.kernelspec.get_kernel_dict
    monkeypatch.setattr(
        ipykernel.kernelspec,
        "get_kernel_dict",
        lambda *a: {**plain(*a), "argv": _forkkernel.plain_argv_to_client(plain(*a)["argv"])},
    )
    monkeypatch.setenv(_forkkernel.SOCKET_VARIABLE, zygote)
    monkeypatch.setenv("LESSONS_PLANTED", "from the test")
    km = KernelManager(kernel_name=CURRENT_ENV_KERNEL_NAME, kernel_spec_manager=NbvalKernelspecManager())
    km.start_kernel(cwd=str(cwd), stderr=subprocess.DEVNULL)
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    return km, kc


def _run(kc: Any, code: str) -> str:
    out: list[str] = []
    kc.execute_interactive(
        code,
        timeout=30,
        output_hook=lambda m: out.append(m["content"].get("text", "")) if m["msg_type"] == "stream" else None,
    )
    return "".join(out).strip()


def test_a_forked_kernel_has_the_kernels_place_and_environment_and_a_fresh_course(
    zygote: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    km, kc = _start(zygote, tmp_path, monkeypatch)
    try:
        seen = _run(
            kc,
            "import os, sys\n"
            "print(os.getcwd(), os.environ.get('LESSONS_PLANTED'), os.environ.get('LESSONS_FORK_SOCKET'),"
            " 'openai' in sys.modules, 'lessons_lib' in sys.modules, os.getpid() != os.getppid())",
        )
        assert seen == f"{tmp_path} from the test None True False True"  # forked: openai is already there
        assert _run(kc, "x = 41\nprint(x + 1)") == "42"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_an_interrupt_reaches_the_kernel_and_a_killed_client_takes_the_kernel_along(
    zygote: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    km, kc = _start(zygote, tmp_path, monkeypatch)
    try:
        pid = int(_run(kc, "import os\nprint(os.getpid())"))
        msg_id = kc.execute(
            "import time\ntry:\n    time.sleep(30)\nexcept KeyboardInterrupt:\n    print('stopped')"
        )
        time.sleep(0.5)
        km.interrupt_kernel()
        reply = kc.get_shell_msg(timeout=10)
        assert reply["parent_header"]["msg_id"] == msg_id and reply["content"]["status"] == "ok"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)  # SIGKILL to the client, as nbval's teardown does
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, signal.SIGKILL)
        pytest.fail("the forked kernel outlived its killed client")


def test_without_a_zygote_the_client_is_a_plain_kernel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    km, kc = _start(str(tmp_path / "no-zygote" / "z.sock"), tmp_path, monkeypatch)
    try:
        assert _run(kc, "import sys\nprint('openai' in sys.modules)") == "False"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
