"""The order desk as an HTTP API with its OpenAPI 3.1 document (lessons 40 and 41).

A small Starlette app over the order data of lesson 30 (:mod:`lessons_lib.services.orders.data`,
reused, not rewritten). Lessons and tests run it in-process through ``httpx2.ASGITransport``
(no port); ``python -m lessons_lib openapi serve`` runs it on 127.0.0.1 with uvicorn. The
document in ``data/openapi/orders.json`` is data: the app serves it at ``/openapi.json`` and
answers exactly the operations it describes. Every operation needs ``Authorization: Bearer
<token>``; the token is given to the app at construction and held by the caller's call layer.
"""

from __future__ import annotations

import hmac
import json
import sqlite3
from collections.abc import Awaitable, Callable
from contextlib import closing
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Final

import lessons_lib.services.orders.data as orderdata
from lessons_lib.core.paths import DATA_DIR
from lessons_lib.examples.openapi.tools import OpenApiObject
from lessons_lib.examples.openapi.validation import ParamValues, Refused, operation_checks
from lessons_lib.services.orders.rules import (
    HTTP_STATUS,
    SESSION_CUSTOMER,
    DeskError,
    check_session,
    open_investigation,
    visible_order,
)

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse

OPENAPI_PATH: Final = DATA_DIR / "openapi" / "orders.json"
BASE_URL: Final = "http://orders.local"
"""The base URL of the in-process app (``httpx2.ASGITransport`` never opens a socket)."""


@cache
def _document_text() -> str:
    return OPENAPI_PATH.read_text(encoding="utf-8")


def openapi_document() -> OpenApiObject:
    """A fresh copy of the order API's OpenAPI 3.1 document (lesson 41)."""
    document: OpenApiObject = json.loads(_document_text())
    return document


Work = Callable[[sqlite3.Connection, ParamValues, object], tuple[int, object]]
"""One operation's work once its request (parameters, JSON body) is checked: (HTTP status, JSON answer)."""


def _error(status: int, code: str, message: str) -> JSONResponse:
    from starlette.responses import JSONResponse

    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def build_app(db_path: str | Path, token: str, customer_id: str = SESSION_CUSTOMER) -> Starlette:
    """The HTTP order API over the SQLite file ``db_path``; requests must carry ``token``.

    The token signs in ``customer_id``, the same session the MCP desk answers for: every
    request is checked against the document (:mod:`lessons_lib.examples.openapi.validation`), then
    by the desk's own rules (:mod:`lessons_lib.services.orders.rules`), so the three ways of
    lesson 40 refuse the same requests.
    """
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    if not token:
        raise ValueError("the order API needs a non-empty bearer token")
    expected = f"Bearer {token}".encode()
    orderdata.connect(db_path).close()  # fail now, with the data module's message, if it is missing
    checks = operation_checks(openapi_document())

    def database() -> closing[sqlite3.Connection]:
        return closing(orderdata.connect(db_path))  # one connection per request, always closed

    def handler(name: str, work: Work) -> Callable[[Request], Awaitable[JSONResponse]]:
        async def endpoint(request: Request) -> JSONResponse:
            if not hmac.compare_digest(request.headers.get("authorization", "").encode(), expected):
                return _error(401, "unauthorized", "missing or wrong bearer token")
            check = checks[name]
            try:
                values = check.values(request.path_params, request.query_params, request.headers)
                body = check.payload(await _body(request)) if check.body is not None else None
                with database() as conn:
                    check_session(conn, customer_id)
                    status, answer = work(conn, values, body)
            except Refused as refused:
                return _error(400, "invalid_arguments", refused.message)
            except DeskError as refusal:
                return _error(HTTP_STATUS[refusal.code], refusal.code, refusal.message)
            return JSONResponse(answer, status_code=status)

        return endpoint

    def get_order(conn: sqlite3.Connection, values: ParamValues, body: object) -> tuple[int, object]:
        row = visible_order(conn, str(values["order_id"]), customer_id)
        return 200, {k: v for k, v in row.items() if k != "customer_id"}

    def search_policies(conn: sqlite3.Connection, values: ParamValues, body: object) -> tuple[int, object]:
        region = values.get("region")
        found = orderdata.search_policies(
            conn,
            str(values["topic"]),
            None if region in (None, "all") else str(region),
            int(values.get("page", 1)),
        )
        return 200, found

    def create_investigation(
        conn: sqlite3.Connection, values: ParamValues, body: object
    ) -> tuple[int, object]:
        asked = body if isinstance(body, dict) else {}  # the document's schema has checked it
        order, key = str(values["order_id"]), str(values["Idempotency-Key"])
        _, row, created = open_investigation(conn, customer_id, order, asked["reason"], asked["note"], key)
        answer = {k: v for k, v in row.items() if k != "idempotency_key"}
        return (201 if created else 200), {**answer, "created": created}

    async def document(request: Request) -> JSONResponse:
        return JSONResponse(openapi_document())

    routes = [
        Route("/openapi.json", document),
        Route("/orders/{order_id}", handler("get_order", get_order), methods=["GET"]),
        Route("/policies", handler("search_delivery_policy", search_policies), methods=["GET"]),
        Route(
            "/orders/{order_id}/investigations",
            handler("create_investigation", create_investigation),
            methods=["POST"],
        ),
    ]
    return Starlette(routes=routes)


async def _body(request: Request) -> object:
    """The JSON body within the bounds of :mod:`lessons_lib.core.bounds` (size read, depth), or Refused."""
    from lessons_lib.core.bounds import MAX_BODY_BYTES, BoundsError, parse_json

    chunks, size = [], 0
    async for chunk in request.stream():  # stop reading at the bound, never hold more
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise Refused(f"body: the request body is larger than {MAX_BODY_BYTES} bytes")
        chunks.append(chunk)
    try:
        return parse_json(b"".join(chunks), what="the request body")
    except BoundsError as exc:
        raise Refused(f"body: {exc}") from None
    except ValueError:  # not JSON, or a number too long for Python: refused, with no echo
        raise Refused("body: the request body must be a JSON object") from None
