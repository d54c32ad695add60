"""The call layer behind OpenAPI-generated tools: tool name + arguments -> one HTTP request.

Introduced in lesson 41. The router knows, from the converter's :class:`Operation`, which
argument goes into the path, the query or the JSON body. What the model never fills is added
here: the bearer token (held by the router, never a tool parameter, never recorded) and the
``Idempotency-Key`` of a write, derived from the business intent so that a retried call with a
new ``call_id`` reuses it (the tool-design article). Arguments are checked against the tool's ``parameters``
with ``jsonschema`` before anything is sent: a bad value is a tool error, not an HTTP call.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import quote

from lessons_lib.core.echo import short
from lessons_lib.core.example import FAILURE_PREFIX
from lessons_lib.core.jsonvalue import JSON, JSONObject
from lessons_lib.core.messages import t
from lessons_lib.examples.openapi.tools import Operation, operations

if TYPE_CHECKING:
    import httpx2

DEMO_TOKEN: Final = "demo-token-not-a-secret"
"""The order API's bearer token in lessons; tests use a random canary instead."""


@dataclass(frozen=True)
class Exchange:
    """One HTTP request the router sent and its answer, without any header."""

    operation: str
    method: str
    url: str
    body: JSONObject | None
    status: int
    response: JSON
    auth: str = field(default_factory=lambda: t("openapi.auth_note"))
    """How the request was authorised, in the language in force when it was sent."""


@dataclass(frozen=True)
class Routed:
    """What a tool call produced: its text, whether it failed, the JSON answer if any."""

    text: str
    is_error: bool
    structured: JSON = None
    exchange: Exchange | None = None

    @property
    def feedback(self) -> str:
        """The ``function_call_output.output`` text: a failure stays visibly a failure."""
        return FAILURE_PREFIX + self.text if self.is_error else self.text


def intent_key(op: Operation | str, arguments: JSONObject) -> str:
    """The idempotency key of one business intent: the same operation and values, the same key."""
    intent = json.dumps(
        [op if isinstance(op, str) else op.name, arguments], sort_keys=True, ensure_ascii=False
    )
    return "intent-" + hashlib.sha256(intent.encode()).hexdigest()[:24]


class OpenAPIRouter:
    """Routes calls of the generated tools to the HTTP API through ``client`` (lesson 41)."""

    def __init__(
        self,
        document: JSONObject,
        client: httpx2.AsyncClient,
        token: str | None,
        sink: Callable[[Exchange], None] | None = None,
    ) -> None:
        """``token`` is the API's bearer token; ``None`` when ``client``'s own ``httpx2.Auth``
        authorises each request instead (lesson 61: a token of the service's own, for the API)."""
        self.operations = {op.name: op for op in operations(document)}
        self._client, self._token, self._sink = client, token, sink

    def check(self, name: str, arguments: JSONObject) -> str | None:
        """Why these arguments cannot be sent (unknown tool, schema violation), or None.

        Checked with ECMA-262 patterns (:mod:`lessons_lib.engine.schemacheck`); the reason quotes
        no more than a short prefix of any value.
        """
        from lessons_lib.engine.schemacheck import ecma_validator, problem

        op = self.operations.get(name)
        if op is None:
            return f"unknown tool '{short(name)}'; known: {', '.join(sorted(self.operations))}"
        found = problem(ecma_validator(op.parameters), arguments)
        return None if found is None else f"invalid arguments for {name}: {found}"

    async def call(self, name: str, arguments: dict[str, Any]) -> Routed:
        """Send one call; a refusal or an HTTP error comes back as a marked failure text."""
        problem = self.check(name, arguments)
        if problem is not None:
            return Routed(problem + "; nothing was sent", True)
        op = self.operations[name]
        path = op.path
        for param in op.path_params:
            path = path.replace("{" + param + "}", quote(str(arguments[param]), safe=""))
        query = {p: arguments[p] for p in op.query_params if p in arguments}
        body = {p: arguments[p] for p in op.body_params if p in arguments} if op.body_params else None
        headers = {} if self._token is None else {"Authorization": f"Bearer {self._token}"}
        if any(c.lower() == "header:idempotency-key" for c in op.call_layer):
            headers["Idempotency-Key"] = intent_key(op, arguments)
        response = await self._client.request(op.method, path, params=query, json=body, headers=headers)
        try:
            payload: JSON = response.json()
        except ValueError:
            payload = {"non_json_body": response.text[:500]}
        url = _local(response)
        exchange = Exchange(op.name, op.method, url, body, response.status_code, payload)
        if self._sink is not None:
            self._sink(exchange)
        if response.status_code >= 400:
            error = payload.get("error", {}) if isinstance(payload, dict) else {}
            message = error.get("message", "no message") if isinstance(error, dict) else str(error)
            return Routed(f"HTTP {response.status_code}: {message}", True, None, exchange)
        return Routed(json.dumps(payload, ensure_ascii=False), False, payload, exchange)


def _local(response: httpx2.Response) -> str:
    """The request's path and query only: no scheme, host or port in a trace."""
    url = response.request.url
    return url.raw_path.decode("ascii")


@asynccontextmanager
async def open_order_api(
    token: str, db_path: str | Path | None = None, sink: Callable[[Exchange], None] | None = None
) -> AsyncIterator[OpenAPIRouter]:
    """The order API in-process (``httpx2.ASGITransport``) with a router in front (lesson 41)."""
    import httpx2

    from lessons_lib.examples.openapi.app import BASE_URL, build_app, openapi_document
    from lessons_lib.services.orders.data import create_database

    with tempfile.TemporaryDirectory(prefix="orders-") as scratch:  # a fresh database is removed after
        db = Path(db_path) if db_path is not None else create_database(Path(scratch) / "orders.sqlite3")
        app = build_app(db, token)
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url=BASE_URL) as client:
            yield OpenAPIRouter(openapi_document(), client, token, sink)


def call_order_tool(
    name: str, arguments: JSONObject, token: str = DEMO_TOKEN
) -> tuple[Routed, list[Exchange]]:
    """One generated tool called through the router on a fresh database (lesson 41)."""
    from lessons_lib.engine.runsync import run_sync

    seen: list[Exchange] = []

    async def main() -> Routed:
        async with open_order_api(token, sink=seen.append) as router:
            return await router.call(name, arguments)

    return run_sync(main), seen
