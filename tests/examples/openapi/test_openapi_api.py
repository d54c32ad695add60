"""The HTTP order API: its OpenAPI 3.1 document is valid, served by the app, and the answers match it."""

from __future__ import annotations

from typing import Any

import anyio
import httpx2
import jsonschema
import pytest

from lessons_lib.examples.openapi.app import BASE_URL, build_app, openapi_document
from lessons_lib.examples.openapi.tools import resolve
from lessons_lib.services.orders import data as orderdata

TOKEN = "test-token-0123456789"


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, httpx2.Response]:
    app = build_app(orderdata.create_database(tmp_path_factory.mktemp("orders") / "orders.sqlite3"), TOKEN)
    auth = {"Authorization": f"Bearer {TOKEN}"}

    async def main() -> dict[str, httpx2.Response]:
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url=BASE_URL) as c:
            post = "/orders/O-1042/investigations"
            body = {"reason": "delayed", "note": "三天没有物流更新"}
            return {
                "document": await c.get("/openapi.json"),
                "order": await c.get("/orders/O-1042", headers=auth),
                "no_token": await c.get("/orders/O-1042"),
                "wrong_token": await c.get("/orders/O-1042", headers={"Authorization": "Bearer nope"}),
                "bad_id": await c.get("/orders/1042", headers=auth),
                "missing": await c.get("/orders/O-9999", headers=auth),
                "policies": await c.get(
                    "/policies", params={"topic": "delay", "region": "north"}, headers=auth
                ),
                "bad_topic": await c.get("/policies", params={"topic": "weather"}, headers=auth),
                "created": await c.post(post, json=body, headers={**auth, "Idempotency-Key": "key-000001"}),
                "again": await c.post(post, json=body, headers={**auth, "Idempotency-Key": "key-000001"}),
                "conflict": await c.post(
                    post, json={**body, "note": "别的"}, headers={**auth, "Idempotency-Key": "key-000001"}
                ),
                "no_key": await c.post(post, json=body, headers=auth),
                "not_an_object": await c.post(
                    post, json=["delayed"], headers={**auth, "Idempotency-Key": "key-0002"}
                ),
            }

    return anyio.run(main)


def _response_schema(path: str, method: str, status: int) -> dict[str, Any]:
    op = resolve(openapi_document())["paths"][path][method]
    return op["responses"][str(status)]["content"]["application/json"]["schema"]  # type: ignore[no-any-return]


def test_document_is_valid_openapi_3_1_and_served_by_the_app(answers: dict[str, httpx2.Response]) -> None:
    from openapi_spec_validator import validate
    from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

    document = openapi_document()
    assert document["openapi"] == "3.1.0"
    validate(document)
    assert answers["document"].status_code == 200 and answers["document"].json() == document
    broken = openapi_document()
    del broken["paths"]["/orders/{order_id}"]["get"]["parameters"][0]["in"]  # where does it go?
    with pytest.raises(OpenAPIValidationError):
        validate(broken)


CASES = [
    ("order", "/orders/{order_id}", "get", 200),
    ("no_token", "/orders/{order_id}", "get", 401),
    ("wrong_token", "/orders/{order_id}", "get", 401),
    ("bad_id", "/orders/{order_id}", "get", 400),
    ("missing", "/orders/{order_id}", "get", 404),
    ("policies", "/policies", "get", 200),
    ("bad_topic", "/policies", "get", 400),
    ("created", "/orders/{order_id}/investigations", "post", 201),
    ("again", "/orders/{order_id}/investigations", "post", 200),
    ("conflict", "/orders/{order_id}/investigations", "post", 409),
    ("no_key", "/orders/{order_id}/investigations", "post", 400),
    ("not_an_object", "/orders/{order_id}/investigations", "post", 400),
]


@pytest.mark.parametrize(("name", "path", "method", "status"), CASES, ids=[c[0] for c in CASES])
def test_each_answer_has_a_documented_status_and_matches_its_schema(
    answers: dict[str, httpx2.Response], name: str, path: str, method: str, status: int
) -> None:
    response = answers[name]
    assert response.status_code == status, response.text
    jsonschema.validate(response.json(), _response_schema(path, method, status))


def test_answers_carry_evidence_and_paging(answers: dict[str, httpx2.Response]) -> None:
    order = answers["order"].json()
    assert (order["order_id"], order["version"], order["updated_at"]) == ("O-1042", 3, "2026-08-06T11:20:00Z")
    assert "customer_id" not in order
    page = answers["policies"].json()
    assert page["truncated"] is (page["next_page"] is not None)
    assert answers["created"].json()["created"] is True and answers["again"].json()["created"] is False
    assert answers["again"].json()["investigation_id"] == answers["created"].json()["investigation_id"]


def test_app_needs_a_token_and_an_existing_database(tmp_path: Any) -> None:
    with pytest.raises(ValueError):
        build_app(orderdata.create_database(tmp_path / "orders.sqlite3"), "")
    with pytest.raises(FileNotFoundError):
        build_app(tmp_path / "missing.sqlite3", TOKEN)


def test_cli_serve_refuses_a_missing_db(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    from lessons_lib.cli import main

    assert main(["openapi", "serve", "--db", str(tmp_path / "missing.sqlite3")]) == 2
    assert "--db" in capsys.readouterr().err


def test_cli_serves_the_api_on_loopback_with_a_token_printed_once(tmp_path: Any) -> None:
    """``openapi serve`` on 127.0.0.1 without ORDERS_API_TOKEN: a new token, printed once, opens it."""
    import socket
    import subprocess
    import sys
    import time

    from _engine_support import REPO_ROOT, clean_env

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in clean_env().items() if k != "ORDERS_API_TOKEN"}
    db = orderdata.create_database(tmp_path / "orders.sqlite3")
    proc = subprocess.Popen(
        [sys.executable, "-m", "lessons_lib", "openapi", "serve", "--port", str(port), "--db", str(db)],
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.startswith("bearer token (shown once): "), first
        token = first.split(": ", 1)[1].strip()
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120  # a loaded machine starts slowly
        while True:
            try:
                document = httpx2.get(f"{base}/openapi.json", timeout=5)
                break
            except httpx2.TransportError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    pytest.fail("the server did not come up")
                time.sleep(0.3)
        assert document.json() == openapi_document()
        order = httpx2.get(f"{base}/orders/O-1042", headers={"Authorization": f"Bearer {token}"}, timeout=5)
        assert order.status_code == 200 and order.json()["order_id"] == "O-1042"
        assert httpx2.get(f"{base}/orders/O-1042", timeout=5).status_code == 401
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=30)
    assert token not in out  # printed once, never again
