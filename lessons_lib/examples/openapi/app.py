"""The order desk as an HTTP API with its OpenAPI 3.1 document (lessons 40 and 41).

A small Starlette app over the order data of lesson 30 (:mod:`lessons_lib.examples.orders.data`,
reused, not rewritten). Lessons and tests run it in-process through ``httpx2.ASGITransport``
(no port); ``python -m lessons_lib openapi serve`` runs it on 127.0.0.1 with uvicorn. The
document in ``data/openapi/orders.json`` is data: the app serves it at ``/openapi.json`` and
answers exactly the operations it describes. Every operation needs ``Authorization: Bearer
<token>``; the token is given to the app at construction and held by the caller's call layer.
"""

from __future__ import annotations

import hmac
import json
import re
import sqlite3
from contextlib import closing
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from lessons_lib.core.paths import DATA_DIR
from lessons_lib.examples.orders import data as orderdata

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse

OPENAPI_PATH: Final = DATA_DIR / "openapi" / "orders.json"
ORDER_ID: Final = re.compile(r"^O-[0-9]{1,8}$")
BASE_URL: Final = "http://orders.local"
"""The base URL of the in-process app (``httpx2.ASGITransport`` never opens a socket)."""


@cache
def _document_text() -> str:
    return OPENAPI_PATH.read_text(encoding="utf-8")


def openapi_document() -> dict[str, Any]:
    """A fresh copy of the order API's OpenAPI 3.1 document (lesson 41)."""
    document: dict[str, Any] = json.loads(_document_text())
    return document


def _error(status: int, code: str, message: str) -> JSONResponse:
    from starlette.responses import JSONResponse

    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def build_app(db_path: str | Path, token: str) -> Starlette:
    """The HTTP order API over the SQLite file ``db_path``; requests must carry ``token``."""
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    if not token:
        raise ValueError("the order API needs a non-empty bearer token")
    expected = f"Bearer {token}".encode()
    orderdata.connect(db_path).close()  # fail now, with the data module's message, if it is missing

    def database() -> closing[sqlite3.Connection]:
        return closing(orderdata.connect(db_path))  # one connection per request, always closed

    def authorised(request: Request) -> bool:
        return hmac.compare_digest(request.headers.get("authorization", "").encode(), expected)

    async def document(request: Request) -> JSONResponse:
        return JSONResponse(openapi_document())

    async def get_order(request: Request) -> JSONResponse:
        if not authorised(request):
            return _error(401, "unauthorized", "missing or wrong bearer token")
        order_id = request.path_params["order_id"]
        if not ORDER_ID.match(order_id):
            return _error(400, "bad_order_id", f"order_id must look like O-1042, got {order_id!r}")
        with database() as conn:
            row = orderdata.fetch_order(conn, order_id)
        if row is None:
            return _error(404, "not_found", f"no order {order_id}")
        return JSONResponse({k: v for k, v in row.items() if k != "customer_id"})

    async def search_policies(request: Request) -> JSONResponse:
        if not authorised(request):
            return _error(401, "unauthorized", "missing or wrong bearer token")
        query = request.query_params
        topic, region, page = query.get("topic"), query.get("region"), query.get("page", "1")
        if topic not in orderdata.POLICY_TOPICS:
            return _error(400, "bad_topic", f"topic must be one of {', '.join(orderdata.POLICY_TOPICS)}")
        if region is not None and region != "all" and region not in orderdata.REGIONS:
            return _error(400, "bad_region", f"region must be one of {', '.join(orderdata.REGIONS)} or all")
        if not page.isdigit() or int(page) < 1:
            return _error(400, "bad_page", f"page must be a whole number from 1, got {page!r}")
        with database() as conn:
            found = orderdata.search_policies(
                conn, topic, None if region in (None, "all") else region, int(page)
            )
        return JSONResponse(found)

    async def create_investigation(request: Request) -> JSONResponse:
        if not authorised(request):
            return _error(401, "unauthorized", "missing or wrong bearer token")
        order_id = request.path_params["order_id"]
        key = request.headers.get("idempotency-key", "")
        if len(key) < 8:
            return _error(400, "no_idempotency_key", "send an Idempotency-Key header of 8 or more characters")
        try:
            body = await request.json()
        except ValueError:
            return _error(400, "bad_body", "the request body must be JSON")
        if not isinstance(body, dict):
            return _error(400, "bad_body", "the request body must be a JSON object")
        reason, note = body.get("reason"), body.get("note", "")
        if reason not in orderdata.INVESTIGATION_REASONS or not isinstance(note, str) or not note.strip():
            return _error(400, "bad_body", "reason must be a known reason and note a non-empty text")
        with database() as conn:
            if not ORDER_ID.match(order_id) or orderdata.fetch_order(conn, order_id) is None:
                return _error(404, "not_found", f"no order {order_id}")
            try:
                row, created = orderdata.insert_investigation(conn, order_id, reason, note, key)
            except orderdata.IdempotencyConflict as exc:
                return _error(409, "idempotency_conflict", str(exc))
        answer = {k: v for k, v in row.items() if k != "idempotency_key"}
        return JSONResponse({**answer, "created": created}, status_code=201 if created else 200)

    routes = [
        Route("/openapi.json", document),
        Route("/orders/{order_id}", get_order, methods=["GET"]),
        Route("/policies", search_policies, methods=["GET"]),
        Route("/orders/{order_id}/investigations", create_investigation, methods=["POST"]),
    ]
    return Starlette(routes=routes)
