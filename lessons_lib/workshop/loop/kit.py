"""Course-provided pieces for writing the application loop yourself. Introduced in lesson 11.

``workbench()`` yields a :class:`Bench` with the two real ends of the chain:

- ``bench.model``: a real ``openai.OpenAI`` client; its requests reach the offline stand-in
  (a deterministic rule program, not a language model) through an ``httpx2`` transport;
- ``bench.fs``: a :class:`ToolService`, a real ``mcp`` client session on the file service
  (``initialize`` and ``tools/list`` by the SDK), to which the learner sends the
  ``tools/call`` frames they write, over the same JSON-RPC wire.

Every model body and every frame lands in ``bench.trace`` (format ``lessons_lib.trace/1``), so
the grader reads a learner's run like any other trace. Synchronous on purpose, so a learner
writes plain functions: the MCP session and the stand-in run on an event loop in a helper
thread (``anyio.from_thread.start_blocking_portal``), which also works inside Jupyter.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import httpx2
from anyio.from_thread import BlockingPortal

from lessons_lib.core.example import MODEL_NAME, SERVICE_NAME, TASK
from lessons_lib.core.jsonvalue import JSONObject, get_in
from lessons_lib.core.messages import t as tr
from lessons_lib.core.outcomes import make_outcome
from lessons_lib.core.traces.trace import Trace
from lessons_lib.core.traces.tracetypes import Status
from lessons_lib.engine.execute import Service
from lessons_lib.engine.modelrecord import ModelRecorder
from lessons_lib.engine.models import RecordingTransport, offline_setting
from lessons_lib.engine.redact import OFFLINE_KEY
from lessons_lib.engine.standins.rules import Script
from lessons_lib.engine.wire import FramedTransport
from lessons_lib.workshop.loop.kit_standin import Capped, Moves, TrustedSide
from lessons_lib.workshop.loop.kit_wire import REPLY_TIMEOUT, SharedWire

if TYPE_CHECKING:
    from mcp import Client
    from mcp_types import ListToolsResult
    from openai import OpenAI


class ToolService:
    """The file service as the application sees it: a real MCP session (lesson 11).

    ``list_tools()`` is the SDK's own ``tools/list``; ``send(frame, call_id=...)`` sends a
    JSON-RPC request the learner wrote and returns the reply frame as a dict. ``call_id``
    is the application's record of which model call this request serves (trace ``links``).
    """

    def __init__(
        self, name: str, portal: BlockingPortal, client: Client, wire: SharedWire, trace: Trace
    ) -> None:
        self.name = name
        self._portal, self._client, self._wire, self._trace = portal, client, wire, trace
        self.bare_success = False
        """Answer successes without ``isError`` (absent means false in every MCP revision)."""

    def next_id(self) -> int:
        """A JSON-RPC id not yet used on this connection (the session's own requests count too)."""
        from lessons_lib.core.traces.queries import mcp_exchanges

        sent = [x.id for x in mcp_exchanges(self._trace, None, self.name)]
        return max([i for i in sent if isinstance(i, int) and not isinstance(i, bool)], default=0) + 1

    def list_tools(self) -> ListToolsResult:
        """The service's ``tools/list`` result (``mcp_types.ListToolsResult``)."""
        return self._portal.call(self._client.list_tools)

    def send(self, frame: JSONObject, *, call_id: str | None = None) -> JSONObject:
        """Send a JSON-RPC request dict; return the reply dict (a ``result`` or an ``error``)."""
        from pydantic import ValidationError

        if not isinstance(frame, dict) or "id" not in frame or "method" not in frame:
            raise ValueError(tr("engine.kit.not_request"))
        try:
            json.dumps(frame)
        except (TypeError, ValueError) as exc:
            raise ValueError(tr("engine.kit.not_json", error=exc)) from None
        try:
            reply = self._portal.call(self._wire.request, frame)
        except ValidationError as exc:
            where = ".".join(map(str, exc.errors()[0]["loc"]))
            raise ValueError(tr("engine.kit.invalid", where=where, msg=exc.errors()[0]["msg"])) from None
        request_id, tool = frame["id"], get_in(frame, "params", "name")
        if call_id is not None:  # the application's record: this request served that model call
            self._trace.links.append(
                {
                    "call_id": call_id,
                    "alias": None,
                    "service": self.name,
                    "tool": tool if isinstance(tool, str) else None,
                    "mcp_id": request_id if isinstance(request_id, int | str) else None,
                }
            )
        return _bare(reply) if self.bare_success else reply

    def __repr__(self) -> str:
        return tr("engine.kit.repr", name=repr(self.name))


def _bare(reply: JSONObject) -> JSONObject:
    """The reply with ``isError: false`` left out, as a server may send it (lesson 11's grader)."""
    result = reply.get("result")
    if isinstance(result, dict) and result.get("isError") is False:
        return {**reply, "result": {k: v for k, v in result.items() if k != "isError"}}
    return reply


class _Bridge(httpx2.BaseTransport):
    """Lets the synchronous SDK client use an async transport running on the portal's loop."""

    def __init__(self, portal: BlockingPortal, inner: httpx2.AsyncBaseTransport) -> None:
        self._portal, self._inner = portal, inner

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        content = request.read()
        copy = httpx2.Request(request.method, request.url, headers=request.headers, content=content)

        async def forward() -> tuple[int, httpx2.Headers, bytes]:
            response = await self._inner.handle_async_request(copy)
            return response.status_code, response.headers, await response.aread()

        status, headers, body = self._portal.call(forward)
        return httpx2.Response(status, headers=headers, content=body, request=request)


@dataclass
class Bench:
    """What a learner's loop gets: ``model`` (OpenAI client), ``fs`` (ToolService), and the trace.

    ``services`` holds every service of the run (``fs`` first; lesson 11's transfer adds ``orders``).
    """

    model: OpenAI
    services: list[ToolService]
    trace: Trace
    cap: Capped
    model_name: str = MODEL_NAME

    @property
    def fs(self) -> ToolService:
        """The file service (the first service of the run)."""
        return self.services[0]

    @property
    def runaway(self) -> bool:
        """True when the loop kept asking the model past the bench's request cap."""
        return self.cap.runaway

    def course_tools(self) -> list[JSONObject]:
        """The course's own declaration of the services' tools (what step 1 produces), for demos."""
        from lessons_lib.core.plugins.apiregistry import reference_api
        from lessons_lib.engine.adapters import Declared
        from lessons_lib.engine.apis import make_adapter
        from lessons_lib.engine.execute import alias_of

        return make_adapter(reference_api()).declare(
            [
                Declared(alias_of(s.name, t.name), s.name, t.name, t.description or "", t.input_schema)
                for s in self.services
                for t in s.list_tools().tools
            ]
        )

    def finish(self, answer: object) -> Trace:
        """Close the record: the shown answer, the route table the services imply, an outcome."""
        from lessons_lib.core.traces.queries import listed_tools
        from lessons_lib.engine.execute import alias_of

        self.trace.tools = []
        names: dict[str, set[str]] = {}
        for service in self.services:
            listed = [str(t["name"]) for t in listed_tools(self.trace, service.name) if "name" in t]
            names[service.name] = set(listed)
            self.trace.tools += [
                {"alias": alias_of(service.name, t), "service": service.name, "name": t} for t in listed
            ]
        for record in self.trace.links:
            tool, service_name = record["tool"], str(record["service"])
            known = tool is not None and tool in names.get(service_name, set())
            record["alias"] = alias_of(service_name, tool) if known and tool is not None else tool
        self.trace.answer = answer if isinstance(answer, str) else None
        status: Status = "stopped" if self.runaway else "answered" if self.trace.answer else "error"
        self.trace.outcome = make_outcome(status, "the learner's loop returned", tr("engine.kit.returned"))
        return self.trace


@contextmanager
def workbench(
    task: str = TASK,
    *,
    root: str | Path | None = None,
    script: Script | None = None,
    max_requests: int = 8,
    services: tuple[str, ...] = (SERVICE_NAME,),
    moves: Moves = (),
    fault: str | None = None,
    bare_success: bool = False,
) -> Iterator[Bench]:
    """A real OpenAI client on the offline stand-in and real MCP sessions on the services. Lesson 11.

    ``max_requests`` caps the model requests of one run (a loop without a round limit is
    stopped there with HTTP 429); ``script`` sets the stand-in's moves (``Script``), ``moves`` its
    scripted first reply (``kit_standin.Moves``); ``services`` names the services (``fs``,
    ``orders``); ``fault`` is injected into the file service (``kit_standin.FAULTS``);
    ``bare_success``: successful results reach the learner without ``isError`` (spec-valid).
    """
    from anyio.from_thread import start_blocking_portal
    from mcp import Client
    from openai import OpenAI

    setting = offline_setting()
    trace = Trace(task=task, model=setting.public())
    recorder = ModelRecorder(trace)
    side = TrustedSide(root, script, max_requests, services, moves, fault, bare_success)
    cap = side.standin()
    error: Exception | None = None
    with start_blocking_portal() as portal, ExitStack() as stack:
        tool_services = []
        for name in services:
            server = side.server(name)
            wire = SharedWire(FramedTransport(server, Service(name, trace).sink))
            client = stack.enter_context(portal.wrap_async_context_manager(Client(wire, mode="legacy")))
            tool_services.append(ToolService(name, portal, client, wire, trace))
            tool_services[-1].bare_success = side.bare_success
        transport = _Bridge(portal, RecordingTransport(cap, recorder.on_body))
        http_client = httpx2.Client(transport=transport, timeout=REPLY_TIMEOUT)
        with OpenAI(
            api_key=OFFLINE_KEY, max_retries=0, timeout=REPLY_TIMEOUT, http_client=http_client
        ) as model:
            try:
                yield Bench(model, tool_services, trace, cap, setting.name)
            except Exception as exc:  # close the sessions cleanly, then raise it ungrouped
                error = exc
    if error is not None:
        raise error
