"""A real JupyterHub on loopback, for the hub test (``tests/platform/test_hub.py``) and ``benchmarks/hub.py``.

JupyterHub from PyPI, ``configurable-http-proxy`` from npm, ``SimpleLocalProcessSpawner`` (one
``jupyterhub-singleuser`` process per learner, no system users: we run as root) and the dummy
authenticator. A teacher service holds an admin API token given in the config; every learner is
created, started and handed a token of their own through the hub's REST API.

Lessons run in a learner's server the way JupyterLab runs them: a kernel started through the
Jupyter server's REST API (``POST /user/NAME/api/kernels``) and one ``execute_request`` per code
cell over the kernel websocket, all through the hub's proxy. The client side is written here
because no library does it for a remote server (``nbclient`` drives local kernels only, and
jupyter_server's gateway client sends no credentials on its websocket); the replies become
notebook outputs through ``nbformat.v4.output_from_msg``.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = REPO / "notebooks"
PROXY_ENV = "LESSONS_CHP"  # set by .ci/run: the configurable-http-proxy executable
LOCAL_PROXY = Path("/tmp/chp/node_modules/.bin/configurable-http-proxy")  # npm install --prefix /tmp/chp


def find_proxy() -> Path | None:
    """The configurable-http-proxy executable: ``$LESSONS_CHP``, ``/tmp/chp``, or on PATH."""
    named = os.environ.get(PROXY_ENV)
    for candidate in (named, str(LOCAL_PROXY), shutil.which("configurable-http-proxy")):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _config(work: Path, proxy: Path, token: str, port: int) -> str:
    """jupyterhub_config.py: loopback ports, local processes, an admin service token."""
    spawner_args = ["--allow-root"] if os.geteuid() == 0 else []
    settings = {
        "JupyterHub.ip": "127.0.0.1",
        "JupyterHub.port": port,
        "JupyterHub.hub_ip": "127.0.0.1",
        "JupyterHub.hub_port": free_port(),
        "JupyterHub.authenticator_class": "dummy",
        "JupyterHub.spawner_class": "simple",
        "JupyterHub.db_url": f"sqlite:///{work / 'hub.sqlite'}",
        "JupyterHub.cookie_secret_file": str(work / "cookie_secret"),
        "JupyterHub.cleanup_servers": True,
        "JupyterHub.services": [{"name": "teacher", "api_token": token}],
        "JupyterHub.load_roles": [{"name": "admin", "services": ["teacher"]}],
        "ConfigurableHTTPProxy.command": [str(proxy)],
        "ConfigurableHTTPProxy.api_url": f"http://127.0.0.1:{free_port()}",
        "SimpleLocalProcessSpawner.home_dir_template": str(work / "home" / "{username}"),
        "Spawner.cmd": [sys.executable, "-m", "jupyterhub.singleuser"],
        "Spawner.args": spawner_args,
        "Spawner.start_timeout": 120,
        "Spawner.http_timeout": 120,
    }
    lines = ["c = get_config()  # noqa: F821"]
    lines += [f"c.{key} = {value!r}" for key, value in settings.items()]
    return "\n".join(lines) + "\n"


@dataclass
class Learner:
    name: str
    token: str = ""
    server_pid: int = 0


@dataclass
class Hub:
    """One JupyterHub process (it starts the proxy); ``with Hub(work) as hub:`` stops everything."""

    work: Path
    proxy: Path
    token: str = field(default_factory=lambda: secrets.token_hex(24))
    url: str = ""
    process: subprocess.Popen[bytes] | None = None
    learners: dict[str, Learner] = field(default_factory=dict)
    pids: set[int] = field(default_factory=set)  # every process seen under the hub

    def __enter__(self) -> Hub:
        self.work.mkdir(parents=True, exist_ok=True)
        config = self.work / "jupyterhub_config.py"
        port = free_port()
        config.write_text(_config(self.work, self.proxy, self.token, port), encoding="utf-8")
        self.url = f"http://127.0.0.1:{port}"
        log = (self.work / "hub.log").open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "jupyterhub", "-f", str(config)],
            cwd=self.work,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # a Ctrl-C reaches only us; close() then stops the hub in order
        )
        log.close()
        self.pids.add(self.process.pid)
        try:
            self._wait_ready(90)
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def log_tail(self, lines: int = 40) -> str:
        text = (self.work / "hub.log").read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def _wait_ready(self, seconds: float) -> None:
        import urllib.request

        deadline = time.monotonic() + seconds
        request = urllib.request.Request(f"{self.url}/hub/api/", headers=self.headers)
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"jupyterhub exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(request, timeout=2) as reply:
                    if reply.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise TimeoutError(f"jupyterhub did not answer within {seconds:.0f} s:\n{self.log_tail()}")

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"token {self.token}"}

    async def api(self, method: str, path: str, body: object = None, token: str | None = None) -> Any:
        """One call to the hub's REST API (``/hub/api``), JSON in and out."""
        from tornado.httpclient import AsyncHTTPClient, HTTPRequest

        request = HTTPRequest(
            f"{self.url}/hub/api{path}",
            method=method,
            headers={"Authorization": f"token {token or self.token}"},
            body=None if body is None and method in ("GET", "DELETE") else json.dumps(body or {}),
            allow_nonstandard_methods=True,
            request_timeout=150,
        )
        reply = await AsyncHTTPClient().fetch(request)
        return json.loads(reply.body) if reply.body else None

    async def add_learners(self, names: list[str]) -> list[Learner]:
        """Create the users, start their servers at once, give each a token of their own."""
        await self.api("POST", "/users", {"usernames": names})
        await asyncio.gather(*(self.api("POST", f"/users/{name}/server") for name in names))
        for name in names:
            learner = Learner(name)
            learner.server_pid = await self._wait_server(name, 120)
            reply = await self.api(
                "POST", f"/users/{name}/tokens", {"note": "course run", "expires_in": 3600}
            )
            learner.token = reply["token"]
            self.learners[name] = learner
            self.pids.add(learner.server_pid)
        return [self.learners[name] for name in names]

    async def _wait_server(self, name: str, seconds: float) -> int:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            server = (await self.api("GET", f"/users/{name}"))["servers"].get("")
            if server and server["ready"]:
                return int(server["state"]["pid"])
            await asyncio.sleep(0.3)
        raise TimeoutError(f"{name}'s server was not ready within {seconds:.0f} s:\n{self.log_tail()}")

    def server_url(self, name: str) -> str:
        return f"{self.url}/user/{name}"

    def close(self) -> None:
        """Stop the servers through the API, then the hub (it stops the proxy), then any leftover."""
        self._remember_descendants()
        if self.learners and self.process is not None and self.process.poll() is None:
            try:
                asyncio.run(self._stop_servers())
            except Exception:  # the group kill below still stops them
                pass
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        for pid in self.alive():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    async def _stop_servers(self) -> None:
        await asyncio.gather(*(self.api("DELETE", f"/users/{name}/server") for name in self.learners))

    def _remember_descendants(self) -> None:
        import psutil

        for pid in list(self.pids):
            try:
                self.pids.update(child.pid for child in psutil.Process(pid).children(recursive=True))
            except psutil.Error:
                continue

    def alive(self) -> list[int]:
        """Processes this hub started that still run (none after ``close``)."""
        import psutil

        found = []
        for pid in sorted(self.pids):
            try:
                if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                    found.append(pid)
            except psutil.Error:
                continue
        return found


@dataclass
class CellRun:
    index: int  # position in the notebook's cells
    outputs: list[Any]
    seconds: float
    status: str  # the execute_reply status: ok, error, aborted


async def run_notebook(
    server: str, token: str, nb: Any, timeout: float = 120
) -> tuple[list[CellRun], dict[str, Any]]:
    """Run every code cell of ``nb`` in a new kernel of one learner's server (REST + websocket).

    Returns the cell runs and the kernel's REST model; the kernel is shut down at the end.
    """
    from nbformat.v4 import output_from_msg
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest
    from tornado.websocket import websocket_connect

    headers = {"Authorization": f"token {token}"}
    http = AsyncHTTPClient()
    reply = await http.fetch(
        HTTPRequest(f"{server}/api/kernels", method="POST", headers=headers, body='{"name": "python3"}')
    )
    kernel = json.loads(reply.body)
    channels = f"{server.replace('http://', 'ws://', 1)}/api/kernels/{kernel['id']}/channels"
    socket_ = await websocket_connect(HTTPRequest(channels, headers=headers))
    session, runs = uuid.uuid4().hex, []
    try:
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            msg_id, start = uuid.uuid4().hex, time.perf_counter()
            await socket_.write_message(json.dumps(_execute_request(cell.source, msg_id, session)))
            outputs, status, idle = [], "", False
            while not (idle and status):
                raw = await asyncio.wait_for(socket_.read_message(), timeout)
                if raw is None:
                    raise ConnectionError(f"kernel websocket closed at cell {index}")
                msg = json.loads(raw)
                if msg.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                kind = msg["msg_type"]
                if kind == "execute_reply":
                    status = msg["content"]["status"]
                elif kind == "status":
                    idle = msg["content"]["execution_state"] == "idle"
                elif kind == "clear_output":
                    outputs.clear()
                elif kind in ("stream", "display_data", "execute_result", "error"):
                    outputs.append(output_from_msg(msg))
            runs.append(CellRun(index, outputs, time.perf_counter() - start, status))
            if status != "ok":
                break
    finally:
        socket_.close()
        await http.fetch(
            HTTPRequest(f"{server}/api/kernels/{kernel['id']}", method="DELETE", headers=headers),
            raise_error=False,
        )
    return runs, kernel


def _execute_request(code: str, msg_id: str, session: str) -> dict[str, Any]:
    """A Jupyter messaging protocol 5.3 ``execute_request`` in the websocket's JSON form."""
    header = {"msg_id": msg_id, "msg_type": "execute_request", "session": session}
    header.update(username="teacher", version="5.3", date="")
    content = {"code": code, "silent": False, "store_history": True, "user_expressions": {}}
    content.update(allow_stdin=False, stop_on_error=True)
    return {"header": header, "parent_header": {}, "metadata": {}, "content": content, "channel": "shell"}
