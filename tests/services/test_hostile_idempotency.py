"""One idempotency rule in all three ways of lessons 40-41 (issue 40, point 6).

The order desk over MCP once answered the same key with another note ``replayed`` (keeping the
first note), and two concurrent creates with one key and different payloads ``created`` and
``replayed``, while the HTTP order API answered ``409 conflict``. Now every way follows
:mod:`lessons_lib.services.orders.idempotency`: identical payload replayed, another payload a
conflict, concurrent creates one row (the others replayed or refused by the same rule).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest

from lessons_lib.examples.openapi.app import BASE_URL, build_app
from lessons_lib.services.orders import data as od
from lessons_lib.services.orders.rules import SESSION_CUSTOMER, DeskError, open_investigation
from lessons_lib.services.orders.service import OrderDesk

KEY = "inv-O-1042-delayed"
FIRST = {"order_id": "O-1042", "reason": "delayed", "note": "三天没有物流更新"}
OTHER = {**FIRST, "note": "another wording of the note"}
TOKEN = "test-token-0123456789"

Way = Callable[[Path, dict[str, str]], str]
"""Create through one way; answer created, replayed or conflict."""


def _desk(db: Path, payload: dict[str, str]) -> str:
    result, is_error = OrderDesk(db).call("create_investigation", {**payload, "idempotency_key": KEY})
    return result["error"]["code"] if is_error else str(result["status"])


def _direct(db: Path, payload: dict[str, str]) -> str:
    with closing(od.connect(db)) as conn:
        try:
            _, _, created = open_investigation(
                conn, SESSION_CUSTOMER, payload["order_id"], payload["reason"], payload["note"], KEY
            )
        except DeskError as refusal:
            return refusal.code
    return "created" if created else "replayed"


def _http(db: Path, payload: dict[str, str]) -> str:
    async def post() -> httpx2.Response:
        transport = httpx2.ASGITransport(app=build_app(db, TOKEN))
        async with httpx2.AsyncClient(transport=transport, base_url=BASE_URL) as client:
            headers = {"Authorization": f"Bearer {TOKEN}", "Idempotency-Key": KEY}
            body = {"reason": payload["reason"], "note": payload["note"]}
            return await client.post(
                f"/orders/{payload['order_id']}/investigations", json=body, headers=headers
            )

    answer = anyio.run(post)
    return {201: "created", 200: "replayed", 409: "conflict"}.get(answer.status_code, answer.text)


WAYS: dict[str, Way] = {"mcp desk": _desk, "http api": _http, "direct function": _direct}


def _rows(db: Path) -> int:
    with closing(od.connect(db)) as conn:
        return int(
            conn.execute("SELECT count(*) FROM investigations WHERE idempotency_key = ?", (KEY,)).fetchone()[
                0
            ]
        )


@pytest.mark.parametrize("way", sorted(WAYS))
def test_identical_payload_is_replayed_and_another_payload_is_a_conflict(way: str, tmp_path: Path) -> None:
    db = od.create_database(tmp_path / "orders.sqlite3")
    create = WAYS[way]
    assert [create(db, FIRST), create(db, FIRST), create(db, OTHER), create(db, FIRST)] == [
        "created",
        "replayed",
        "conflict",
        "replayed",
    ]
    assert _rows(db) == 1


def _race(db: Path, payloads: list[dict[str, str]], create: Way) -> list[str]:
    start = threading.Barrier(len(payloads))
    answers: list[str] = [""] * len(payloads)

    def one(n: int) -> None:
        start.wait()
        answers[n] = create(db, payloads[n])

    threads = [threading.Thread(target=one, args=(n,)) for n in range(len(payloads))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return answers


@pytest.mark.parametrize("way", ["mcp desk", "direct function"])
def test_concurrent_creates_with_one_key_give_one_row_and_conflicts(way: str, tmp_path: Path) -> None:
    for attempt in range(3):
        db = od.create_database(tmp_path / f"orders{attempt}.sqlite3")
        payloads = [FIRST if n % 2 == 0 else OTHER for n in range(6)]
        answers = _race(db, payloads, WAYS[way])
        assert answers.count("created") == 1 and _rows(db) == 1, answers
        winner = payloads[answers.index("created")]
        for payload, answer in zip(payloads, answers, strict=True):
            if answer != "created":
                assert answer == ("replayed" if payload == winner else "conflict"), answers


def test_two_concurrent_identical_creates_give_one_created_and_one_replayed(tmp_path: Path) -> None:
    db = od.create_database(tmp_path / "orders.sqlite3")
    assert sorted(_race(db, [FIRST, FIRST], _desk)) == ["created", "replayed"]
    assert _rows(db) == 1


def test_the_conflict_names_what_differs_and_what_to_do(tmp_path: Path) -> None:
    db = od.create_database(tmp_path / "orders.sqlite3")
    desk = OrderDesk(db)
    desk.call("create_investigation", {**FIRST, "idempotency_key": KEY})
    result: dict[str, Any]
    result, is_error = desk.call("create_investigation", {**OTHER, "idempotency_key": KEY})
    message = result["error"]["message"]
    assert (
        is_error and "another note" in message and "nothing was written" in message and "new key" in message
    )
