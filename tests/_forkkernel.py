"""Kernels for the test command, forked from a process that has the SDKs imported (Linux only).

Strict nbval starts a fresh ipykernel for each of the 56 notebooks. About 4 of a lesson's 6-7 s
on the 2-core machine are the same for every lesson: the interpreter and ipykernel start, then
``openai`` and ``mcp`` are imported (1.2 s each). Here each test worker starts one *zygote* that
imports those once (``PRELOAD``); each kernel is a fork of it that runs ipykernel exactly as
``python -m ipykernel_launcher -f <connection file>`` would, with the working directory,
environment, ``sys.path`` and standard streams that jupyter_client gave the kernel's process,
in a session of its own and with a fresh user namespace. ``lessons_lib`` is not imported before
the fork, so every lesson imports the course anew; the stored outputs are compared as always.

jupyter_client starts a small *client* (``python _forkkernel.py client -f <file>``) as the
kernel's process: it asks the zygote for a kernel, passes its standard streams over the socket,
forwards the signals jupyter_client sends (interrupt, terminate) and exits with the kernel's
status; the kernel exits when the client's connection closes (a killed client). Without the
zygote (not Linux, ``LESSONS_PLAIN_KERNELS=1``, or it did not come up) the client becomes a
plain ``ipykernel_launcher``. ``tests/conftest.py`` starts the zygote and points nbval's
current-environment kernel at the client. Hand-written: no library forks Jupyter kernels from
a warm parent. Standard library only until the fork.
"""

from __future__ import annotations

import atexit
import importlib
import importlib.util
import json
import os
import select
import signal
import socket
import struct
import sys
import threading
import time
from pathlib import Path
from typing import Any

PRELOAD = ("ipykernel.kernelapp", "openai", "mcp", "mcp.client.stdio", "mcp.server")
"""Imported once in the zygote: the modules every lesson's kernel imports, none that starts a thread
at import (numpy's BLAS pool would, so pandas is left out) and none that ``lessons_lib`` changes
as it loads (``jsonschema``: see ``lessons_lib.engine.lazyschema``). A module that reads the
environment at import reads the zygote's, which is the test worker's, with the ``JPY_PARENT_PID``
that jupyter_client gives each of its kernels (ipykernel reads it at import)."""
SOCKET_VARIABLE = "LESSONS_FORK_SOCKET"
HEADER = struct.Struct("!Q")
CONNECT_SECONDS = 20.0


def _recv_exact(conn: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise EOFError("the client closed the connection")
        data += chunk
    return data


def _exit_when_closed(conn: socket.socket) -> None:
    """In the kernel: the client's end closed (it was killed): the kernel goes too."""
    try:
        while conn.recv(1024):
            pass
    except OSError:
        pass
    os._exit(1)


def _become_kernel(
    conn: socket.socket, others: list[socket.socket], request: dict[str, Any], fds: list[int]
) -> None:
    """In the forked child: take the client's place and run ipykernel; never returns."""
    code = 1
    try:
        for other in others:  # the zygote's listening socket and the other kernels' connections
            other.close()
        os.setsid()
        for fd, target in zip(fds, (0, 1, 2), strict=True):
            os.dup2(fd, target)
            os.close(fd)
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGCHLD):
            signal.signal(signum, signal.SIG_DFL if signum != signal.SIGINT else signal.default_int_handler)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = request["argv"]
        sys.path[:] = request["path"]
        threading.Thread(target=_exit_when_closed, args=(conn,), daemon=True).start()
        from ipykernel import kernelapp

        kernelapp.launch_new_instance()
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else 0
    finally:
        atexit._run_exitfuncs()  # a kernel's own exit handlers (IPython's history), as at a normal exit
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)


def _accept(server: socket.socket, children: dict[int, socket.socket]) -> None:
    conn, _ = server.accept()
    head, fds, _, _ = socket.recv_fds(conn, HEADER.size, 3)
    if len(head) < HEADER.size:
        head += _recv_exact(conn, HEADER.size - len(head))
    request = json.loads(_recv_exact(conn, HEADER.unpack(head)[0]))
    pid = os.fork()
    if pid == 0:
        _become_kernel(conn, [server, *children.values()], request, fds)
    for fd in fds:
        os.close(fd)
    children[pid] = conn
    conn.sendall(f"{pid}\n".encode())


def _reap(children: dict[int, socket.socket]) -> None:
    while children:
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            return
        conn = children.pop(pid, None)
        if conn is not None:
            try:
                conn.sendall(f"{os.waitstatus_to_exitcode(status)}\n".encode())
            except OSError:
                pass
            conn.close()


def zygote(path: str) -> None:
    """Import ``PRELOAD``, listen on ``path``, fork a kernel per client; end when stdin closes."""
    for name in PRELOAD:
        importlib.import_module(name)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path + ".tmp")
    os.replace(path + ".tmp", path)  # clients see the socket only once it listens
    server.listen(8)
    children: dict[int, socket.socket] = {}
    while True:
        ready, _, _ = select.select([server, sys.stdin], [], [], 0.2)
        _reap(children)
        if sys.stdin in ready and not os.read(sys.stdin.fileno(), 1024):
            return  # the test worker is gone
        if server in ready:
            try:
                _accept(server, children)
            except (OSError, EOFError, ValueError):
                pass  # that client gave up; its jupyter_client sees it exit


def _plain_kernel(argv: list[str]) -> None:
    os.execv(sys.executable, [sys.executable, "-m", "ipykernel_launcher", *argv])


def client(argv: list[str]) -> None:
    """The kernel's process as jupyter_client sees it: a forked kernel, or else a plain one."""
    path = os.environ.pop(SOCKET_VARIABLE, "")
    deadline = time.monotonic() + CONNECT_SECONDS
    while path and os.path.isdir(os.path.dirname(path)) and not os.path.exists(path):
        if time.monotonic() > deadline:  # the zygote is still importing, or it failed
            break
        time.sleep(0.05)
    if not path or not os.path.exists(path):
        _plain_kernel(argv)
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(path)
    except OSError:
        _plain_kernel(argv)
    launcher = importlib.util.find_spec("ipykernel_launcher")
    request = {
        "argv": [launcher.origin if launcher else "ipykernel_launcher", *argv],
        "cwd": os.getcwd(),
        "env": dict(os.environ),
        "path": sys.path[1:],  # as ipykernel_launcher leaves it: without this script's folder
    }
    payload = json.dumps(request).encode()
    socket.send_fds(conn, [HEADER.pack(len(payload))], [0, 1, 2])
    conn.sendall(payload)
    reader = conn.makefile("r")
    pid = int(reader.readline())

    def forward(signum: int, _frame: object) -> None:
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, forward)
    status = reader.readline().strip()
    sys.exit(int(status) if status.lstrip("-").isdigit() else 1)


def available() -> bool:
    """Whether forked kernels can be used here: Linux (fork and fd passing) and not turned off."""
    return sys.platform == "linux" and os.environ.get("LESSONS_PLAIN_KERNELS", "") != "1"


CLIENT = Path(__file__).resolve()


def plain_argv_to_client(argv: list[str]) -> list[str]:
    """``python -m ipykernel_launcher -f {connection_file}`` -> the client with the same arguments."""
    at = argv.index("ipykernel_launcher")
    return [*argv[: at - 1], str(CLIENT), "client", *argv[at + 1 :]]


if __name__ == "__main__":
    if sys.argv[1] == "zygote":
        zygote(sys.argv[2])
    else:
        client(sys.argv[2:])
