"""The application (host): declaration -> call -> execution -> feedback, as one loop.

Introduced in lesson 03. It connects to each MCP service, lists its tools and declares each
to the model under an alias ``<service>__<tool>``; sends the task; walks every output item by
its type; for each ``function_call`` parses the ``arguments`` text, maps the alias back, sends
MCP ``tools/call`` and turns the result (success or failure) into a ``function_call_output``
that keeps a failure visibly a failure; then asks the model again with the original input,
the model's output items and the outputs. Every message lands in a :class:`Trace`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

from lessons_lib.core.example import ALIAS_SEPARATOR, EXAMPLE_HEAD, EXAMPLE_PATH, SERVICE_NAME, task_text
from lessons_lib.core.jsonvalue import objects
from lessons_lib.core.paths import WORKSPACE_DIR
from lessons_lib.core.trace import Trace
from lessons_lib.core.tracetypes import Link, Status
from lessons_lib.engine.models import ModelSetting, live_setting, make_client, offline_setting, redact
from lessons_lib.engine.offline_model import FAILURE_PREFIX, OfflineModel, Script


@dataclass(frozen=True)
class Limits:
    """Guardrails: model requests per run, seconds per call, seconds for the whole run."""

    max_rounds: int = 4
    call_timeout: float = 10.0
    total_timeout: float = 30.0


@dataclass(frozen=True)
class Route:
    """Where an alias leads: which service, which original tool name."""

    alias: str
    service: str
    tool: str


class _Stop(Exception):
    """Ends a run early with a stated reason."""

    def __init__(self, status: Status, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


def adapt_tool(service: str, tool: Any) -> tuple[Route, dict[str, Any]]:
    """An MCP ``Tool`` as a Responses ``function`` tool under its alias (lesson 06)."""
    alias = f"{service}{ALIAS_SEPARATOR}{tool.name}"
    entry = {
        "type": "function",
        "name": alias,
        "description": tool.description or "",
        "parameters": json.loads(json.dumps(tool.input_schema)),
        "strict": False,
    }
    return Route(alias, service, tool.name), entry


def feedback_text(result: Any) -> str:
    """The ``function_call_output.output`` for an MCP result: its text, marked if it failed."""
    text = "\n".join(c.text for c in result.content if getattr(c, "type", None) == "text")
    return FAILURE_PREFIX + text if result.is_error else text


class _Run:
    """State of one run: the trace, the clients, the routes, the id bookkeeping."""

    def __init__(
        self, trace: Trace, setting: ModelSetting, limits: Limits, stale_routes: Mapping[str, str]
    ) -> None:
        self.trace, self.setting, self.limits = trace, setting, limits
        self.rounds = 0
        self.pending: dict[tuple[str, Any], str] = {}  # (service, JSON-RPC id) -> method
        self.last_call_id: dict[str, Any] = {}  # service -> id of its latest tools/call request
        self.routes: dict[str, Route] = {}
        self.sessions: dict[str, Any] = {}
        self.stale_routes = dict(stale_routes)  # alias -> wrong tool name (lesson 05)

    def on_body(self, direction: str, body: dict[str, Any], status: int | None) -> None:
        body = json.loads(redact(json.dumps(body, ensure_ascii=False), self.setting.key))
        if direction == "request":
            self.rounds += 1
            self.trace.add("model", "application", "model", f"request_{self.rounds}", body)
        else:
            label = f"response_{self.rounds}" if status == 200 else f"http_error_{self.rounds}"
            self.trace.add("model", "model", "application", label, body)

    def frame_sink(self, service: str) -> Any:
        def sink(direction: str, frame: dict[str, Any]) -> None:
            if "method" in frame:
                label = frame["method"]
                if "id" in frame:
                    self.pending[(service, frame["id"])] = label
                    if label == "tools/call":
                        self.last_call_id[service] = frame["id"]
            else:
                label = self.pending.pop((service, frame.get("id")), "response")
            sender, receiver = (
                ("application", service) if direction == "to_service" else (service, "application")
            )
            self.trace.add("mcp", sender, receiver, label, frame)

        return sink

    async def execute(self, item: Any) -> dict[str, Any]:
        """One ``function_call`` -> one ``function_call_output`` (lesson 05)."""
        link: Link = {
            "call_id": item.call_id,
            "alias": item.name,
            "service": None,
            "tool": None,
            "mcp_id": None,
        }
        self.trace.links.append(link)
        output = await self._output_for(item, link)
        return {"type": "function_call_output", "call_id": item.call_id, "output": output}

    async def _output_for(self, item: Any, link: Link) -> str:
        route = self.routes.get(item.name)
        if route is None:
            known = ", ".join(sorted(self.routes)) or "none"
            return f"{FAILURE_PREFIX}unknown tool '{item.name}'; declared tools: {known}"
        link["service"], link["tool"] = route.service, route.tool
        try:
            args = json.loads(item.arguments)
        except (TypeError, ValueError) as exc:
            return f"{FAILURE_PREFIX}arguments is not valid JSON ({exc}); nothing was executed"
        if not isinstance(args, dict):
            kind = type(args).__name__
            return f"{FAILURE_PREFIX}arguments must be a JSON object, got {kind}; nothing was executed"
        from mcp.shared.exceptions import MCPError

        try:
            with anyio.fail_after(self.limits.call_timeout):
                result = await self.sessions[route.service].call_tool(route.tool, args)
        except MCPError as exc:
            return f"{FAILURE_PREFIX}protocol error {exc.code}: {exc.message}"
        except TimeoutError:
            return f"{FAILURE_PREFIX}the tool service did not answer within {self.limits.call_timeout:g} s"
        finally:
            link["mcp_id"] = self.last_call_id.get(route.service)
        return feedback_text(result)


async def arun_chain(
    task: str | None = None,
    *,
    path: str = EXAMPLE_PATH,
    head: int | None = EXAMPLE_HEAD,
    tail: int | None = None,
    services: Mapping[str, str | Path] | None = None,
    live: bool = False,
    model: str | None = None,
    script: Script | None = None,
    limits: Limits | None = None,
    stale_routes: Mapping[str, str] | None = None,
) -> Trace:
    """Run the whole chain once and return its trace (async form of :func:`run_chain`).

    ``stale_routes`` (alias -> tool name) plays an application whose alias map is out of date:
    it sends that name to the service instead of the one ``tools/list`` declared (lesson 05's
    protocol error).
    """
    limits = limits or Limits()
    text = task if task is not None else task_text(path, head, tail)
    setting = live_setting(model) if live else offline_setting(model)
    if setting is None:
        raise RuntimeError("live mode needs OPENAI_API_KEY; without it the course runs offline")
    trace = Trace(task=text, model=setting.public())
    run = _Run(trace, setting, limits, stale_routes or {})
    transport = None if live else OfflineModel(script=script or Script())
    with anyio.move_on_after(limits.total_timeout) as scope:
        try:
            await _loop(run, services or {SERVICE_NAME: WORKSPACE_DIR}, transport)
        except* _Stop as group:  # raised inside the MCP clients' task groups, so it arrives grouped
            stop = _first_stop(group)
            trace.outcome = {"status": stop.status, "reason": redact(stop.reason, setting.key)}
    if scope.cancelled_caught:
        trace.outcome = {
            "status": "stopped",
            "reason": f"total time bound of {limits.total_timeout:g} s reached",
        }
    return trace


async def _loop(run: _Run, services: Mapping[str, str | Path], transport: Any) -> None:
    import openai
    from mcp import Client

    from lessons_lib.engine.fileservice import build_server
    from lessons_lib.engine.wire import FramedTransport

    trace, limits = run.trace, run.limits
    async with AsyncExitStack() as stack:
        tools: list[dict[str, Any]] = []
        for name, root in services.items():
            server = build_server(Path(root), name)
            session = await stack.enter_async_context(
                Client(FramedTransport(server, run.frame_sink(name)), mode="legacy")
            )
            run.sessions[name] = session
            for tool in (await session.list_tools()).tools:
                route, entry = adapt_tool(name, tool)
                run.routes[route.alias] = Route(
                    route.alias, name, run.stale_routes.get(route.alias, route.tool)
                )
                tools.append(entry)
                trace.tools.append({"alias": route.alias, "service": name, "name": route.tool})
        # entered on the stack so its HTTP client is closed when the run ends
        client = await stack.enter_async_context(
            make_client(run.setting, run.on_body, transport, limits.call_timeout)
        )
        context: list[Any] = [{"type": "message", "role": "user", "content": trace.task}]
        choice = "required"
        while True:
            if run.rounds >= limits.max_rounds:
                raise _Stop(
                    "stopped",
                    f"max_rounds={limits.max_rounds} reached; the latest tool results "
                    "were not sent to the model",
                )
            try:
                response = await client.responses.create(
                    model=run.setting.name, input=context, tools=tools, tool_choice=choice
                )
            except openai.APITimeoutError:
                raise _Stop(
                    "stopped", f"the model API did not answer within {limits.call_timeout:g} s"
                ) from None
            except openai.APIStatusError as exc:
                raise _Stop(
                    "error", f"the model API answered HTTP {exc.status_code}: {_message(exc)}"
                ) from None
            except openai.APIConnectionError:
                raise _Stop(
                    "error", "cannot reach the model API (no network, or a wrong OPENAI_BASE_URL)"
                ) from None
            calls = [item for item in response.output if item.type == "function_call"]
            texts = [
                part.text
                for item in response.output
                if item.type == "message"
                for part in item.content
                if part.type == "output_text"
            ]
            if not calls:
                if not texts:
                    raise _Stop("error", "the model returned neither a function_call nor a message")
                trace.answer = "\n".join(texts)
                trace.outcome = {
                    "status": "answered",
                    "reason": "the model answered after the feedback"
                    if run.rounds > 1
                    else "the model answered without calling a tool",
                }
                return
            outputs = [await run.execute(call) for call in calls]
            # The output items exactly as received (not re-serialised), then the feedback.
            received = run.trace.body(f"response_{run.rounds}", channel="model") or {}
            context = context + objects(received.get("output")) + outputs
            choice = "auto"


def _first_stop(exc: BaseException) -> _Stop:
    while isinstance(exc, BaseExceptionGroup):
        exc = exc.exceptions[0]
    assert isinstance(exc, _Stop)
    return exc


def _message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return inner["message"]
    return str(getattr(exc, "message", "")) or "no message"


def run_chain(task: str | None = None, **kwargs: Any) -> Trace:
    """Run the whole chain once (offline by default) and return its trace. Lesson 03.

    Works in a plain script and inside Jupyter (where an event loop is already running).
    """

    async def main() -> Trace:
        return await arun_chain(task, **kwargs)

    try:
        import asyncio

        asyncio.get_running_loop()
    except RuntimeError:
        return anyio.run(main)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(anyio.run, main).result()
