"""One desk, three ways (lesson 40), the same rules: a shared table and generated requests.

The direct function, the OpenAPI router and the MCP server generated from the document each
run on their own fresh database; every request goes to all three, in the same order, and the
verdicts (status and key data) must be the same. Also: ``serve --example orders`` over stdio.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.examples.openapi.threeways_direct import ReducedAnswer, three_ways

TOKEN = "three-ways-token-0123"
Answer = Callable[[str, JSONObject], Awaitable[dict[str, ReducedAnswer]]]

NOTE = "三天没有物流更新"
TABLE: list[tuple[str, JSONObject, int]] = [
    ("get_order", {"order_id": "O-1042"}, 200),
    ("get_order", {"order_id": "O-1050"}, 404),  # another customer's order reads as missing
    ("get_order", {"order_id": "O-9999"}, 404),
    ("get_order", {"order_id": "O-1042\n"}, 400),  # $ is the end of the input
    ("get_order", {"order_id": "1042"}, 400),
    ("get_order", {"order_id": "x" * 100_000}, 400),
    ("get_order", {"order_id": "O-\ud800"}, 400),
    ("get_order", {}, 400),
    ("create_investigation", {"order_id": "O-1042", "reason": "delayed", "note": NOTE}, 201),
    ("create_investigation", {"order_id": "O-1042", "reason": "delayed", "note": NOTE}, 200),  # replayed
    ("create_investigation", {"order_id": "O-1045", "reason": "delayed", "note": NOTE}, 409),  # cancelled
    ("create_investigation", {"order_id": "O-1044", "reason": "delayed", "note": NOTE}, 409),  # paid
    ("create_investigation", {"order_id": "O-1050", "reason": "lost", "note": NOTE}, 404),  # not ours
    ("create_investigation", {"order_id": "O-1042", "reason": "delayed", "note": "x" * 201}, 400),
    ("create_investigation", {"order_id": "O-1042", "reason": "weather", "note": NOTE}, 400),
    ("create_investigation", {"order_id": "O-1042", "reason": "delayed", "note": ""}, 400),
]


def _run(scratch: Path, requests: list[tuple[str, JSONObject]]) -> list[dict[str, ReducedAnswer]]:
    async def main() -> list[dict[str, ReducedAnswer]]:
        async with three_ways(TOKEN, scratch) as answer:
            return [await answer(name, args) for name, args in requests]

    return anyio.run(main)


def test_the_three_ways_answer_the_shared_table_alike(tmp_path: Path) -> None:
    verdicts = _run(tmp_path, [(name, args) for name, args, _ in TABLE])
    for (name, args, status), answers in zip(TABLE, verdicts, strict=True):
        assert len(set(answers.values())) == 1, (name, str(args)[:80], answers)
        assert answers["function"][0] == status, (name, str(args)[:80], answers)


ORDER_IDS = st.one_of(
    st.sampled_from(["O-1001", "O-1042", "O-1043", "O-1044", "O-1045", "O-1050", "O-9999"]),
    st.from_regex(r"\AO-[0-9]{1,9}\n?\Z"),
    st.text(max_size=12),
)
REQUESTS = st.one_of(
    st.builds(lambda o: ("get_order", {"order_id": o}), ORDER_IDS),
    st.builds(
        lambda o, r, n: ("create_investigation", {"order_id": o, "reason": r, "note": n}),
        ORDER_IDS,
        st.sampled_from(["delayed", "damaged", "lost", "wrong_item", "weather"]),
        st.one_of(st.just(NOTE), st.text(max_size=8), st.text(min_size=199, max_size=202)),
    ),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(REQUESTS, min_size=1, max_size=4))
def test_generated_requests_get_the_same_verdict_three_ways(
    tmp_path: Path, requests: list[tuple[str, JSONObject]]
) -> None:
    for answers in _run(tmp_path, requests):
        assert len(set(answers.values())) == 1, answers


def test_serve_example_orders_over_stdio(tmp_path: Path) -> None:
    """``serve --example orders --db PATH``: any MCP client lists the four tools and calls them."""
    from _engine_support import clean_env, text_of
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    db = tmp_path / "kept.sqlite3"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "lessons_lib", "serve", "--example", "orders", "--db", str(db)],
        cwd=tmp_path,
        env=clean_env(),
    )

    async def main() -> tuple[list[str], Any, Any]:
        with (tmp_path / "stderr.txt").open("w", encoding="utf-8") as errlog, anyio.fail_after(120):
            async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
                tools = [t.name for t in (await client.list_tools()).tools]
                ok = await client.call_tool("get_order", {"order_id": "O-1042"})
                refused = await client.call_tool("get_order", {"order_id": "O-1042\n"})
        return tools, ok, refused

    tools, ok, refused = anyio.run(main)
    assert tools == ["get_order", "track_shipment", "search_delivery_policy", "create_investigation"]
    assert not ok.is_error and '"O-1042"' in text_of(ok)
    assert refused.is_error and "must match" in text_of(refused)
    assert db.is_file()  # --db keeps the database
    stderr = (tmp_path / "stderr.txt").read_text(encoding="utf-8")
    assert "order desk" in stderr and "Traceback" not in stderr


def test_serve_refuses_a_db_that_is_a_folder(tmp_path: Path) -> None:
    from lessons_lib.examples.files.cli_serve import main

    assert main(["--example", "orders", "--db", str(tmp_path)]) == 2
    assert main(["--example", "orders", "--db", str(tmp_path / "no" / "such.sqlite3")]) == 2
