"""The order desk MCP server (lesson 30): its declarations, its own checks, hostile input."""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from lessons_lib.examples.orders.acceptance import VALID, acceptance_matrix, rejecting_values
from lessons_lib.services.orders import data as od
from lessons_lib.services.orders.service import OrderDesk, build_server
from lessons_lib.services.orders.tools import TOOLS, declarations

HOSTILE: list[tuple[str, dict[str, Any], str]] = [
    ("get_order", {"order_id": "O-1042' OR '1'='1"}, "order_id: must match"),
    ("get_order", {"order_id": "O-1; DROP TABLE orders; --"}, "order_id: must match"),
    ("get_order", {"order_id": "O-123456789"}, "order_id: must match"),
    ("get_order", {"order_id": "o-1042"}, "order_id: must match"),
    ("get_order", {"order_id": "O-1042", "customer_id": "C-002"}, "'customer_id' was unexpected"),
    ("get_order", {}, "'order_id' is a required property"),
    ("search_delivery_policy", {"topic": "delay", "page_size": 10**9}, "page_size: maximum is 5"),
    ("search_delivery_policy", {"topic": "delay", "page": 0}, "page: minimum is 1"),
    ("search_delivery_policy", {"topic": "refund"}, "topic: must be one of"),
    ("create_investigation", {**VALID["create_investigation"], "note": "x" * 201}, "note: maxLength is 200"),
    ("create_investigation", {**VALID["create_investigation"], "idempotency_key": "k"}, "idempotency_key"),
    (
        "create_investigation",
        {k: v for k, v in VALID["create_investigation"].items() if k != "idempotency_key"},
        "required",
    ),
]


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    return od.create_database(tmp_path / "orders.sqlite3")


def dump(path: Path) -> str:
    with closing(od.connect(path)) as conn:
        return od.dump(conn)


async def _over_mcp(desk: OrderDesk, calls: list[tuple[str, dict[str, Any]]]) -> tuple[list[Any], list[Any]]:
    from mcp import Client

    from lessons_lib.engine.wire import FramedTransport

    frames: list[dict[str, Any]] = []
    async with Client(
        FramedTransport(build_server(desk), lambda d, f: frames.append(f)), mode="legacy"
    ) as client:
        listed = (await client.list_tools()).tools
        results = [await client.call_tool(name, args) for name, args in calls]
    return listed, [results, frames]


def test_declarations_follow_the_seeds_discipline() -> None:
    for tool in TOOLS:
        schema = tool["input"]
        assert schema["additionalProperties"] is False, tool["name"]
        jsonschema.Draft202012Validator.check_schema(schema)
        jsonschema.Draft202012Validator.check_schema(tool["output"])
        assert "调用" in tool["description"] and "不要" in tool["description"], tool["name"]
        for key in ("status", "error"):
            assert key in tool["output"]["required"], (tool["name"], key)
    get_order = TOOLS[0]["input"]["properties"]["order_id"]
    assert get_order["pattern"] == "^O-[0-9]{1,8}$"


def test_without_the_key_the_write_neither_declares_nor_accepts_it() -> None:
    tools = {t["name"]: t for t in declarations(idempotency_key=False)}
    write = tools["create_investigation"]
    assert "idempotency_key" not in write["input"]["properties"]
    assert write["hints"]["idempotent_hint"] is False
    assert (
        "idempotency_key"
        in {t["name"]: t for t in declarations()}["create_investigation"]["input"]["required"]
    )


@pytest.mark.parametrize(
    ("tool", "args", "words"), HOSTILE, ids=[f"{t}-{n}" for n, (t, _, _) in enumerate(HOSTILE)]
)
def test_hostile_input_is_refused_and_the_database_is_unchanged(
    db: Path, tool: str, args: dict[str, Any], words: str
) -> None:
    before = dump(db)
    result, is_error = OrderDesk(db).call(tool, args)
    assert is_error and result["status"] == "error"
    assert result["error"]["code"] == "invalid_arguments"
    assert words in result["error"]["message"]
    assert len(result["error"]["message"]) < 200  # a hostile value is never echoed in full
    assert dump(db) == before


def test_over_real_mcp_frames_refusals_are_tool_errors_with_structured_content(db: Path) -> None:
    before = dump(db)
    desk = OrderDesk(db)
    calls = [(t, a) for t, a, _ in HOSTILE] + [("get_order", VALID["get_order"])]
    listed, (results, frames) = anyio.run(_over_mcp, desk, calls)
    assert [t.name for t in listed] == [t["name"] for t in TOOLS]
    assert all(r.is_error for r in results[:-1])
    assert all(r.structured_content["error"]["code"] == "invalid_arguments" for r in results[:-1])
    ok = results[-1]
    assert not ok.is_error and ok.structured_content["evidence"] == {
        "order_id": "O-1042",
        "order_version": 3,
        "updated_at": "2026-08-06T11:20:00Z",
    }
    assert json.loads(ok.content[0].text) == ok.structured_content  # the text block carries the same JSON
    replies = [f for f in frames if "result" in f and "isError" in f["result"]]
    assert all("structuredContent" in f["result"] for f in replies)
    assert dump(db) == before


def test_business_checks_run_after_the_schema(db: Path) -> None:
    desk = OrderDesk(db)
    assert (
        desk.call("get_order", {"order_id": "O-1050"})[0]["error"]["code"] == "not_found"
    )  # another customer's
    assert desk.call("get_order", {"order_id": "O-9999"})[0]["error"]["code"] == "not_found"
    cancelled = {**VALID["create_investigation"], "order_id": "O-1045"}
    assert desk.call("create_investigation", cancelled)[0]["error"]["code"] == "not_allowed"
    created, _ = desk.call("create_investigation", VALID["create_investigation"])
    assert created["status"] == "created"
    other = {**VALID["create_investigation"], "reason": "lost"}
    conflict, _ = desk.call("create_investigation", other)
    assert conflict["error"]["code"] == "conflict" and "new key" in conflict["error"]["message"]
    with closing(od.connect(db)) as conn:
        od.set_access(conn, "C-001", "revoked")
    assert desk.call("get_order", VALID["get_order"])[0]["error"]["code"] == "permission_revoked"


def test_a_raising_handler_becomes_an_internal_tool_error(db: Path) -> None:
    desk = OrderDesk(db, faults=frozenset({"search_delivery_policy"}), flaky={"get_order": 1})
    failed, is_error = desk.call("search_delivery_policy", {"topic": "delay"})
    assert is_error and failed["error"]["code"] == "internal"
    assert "Traceback" not in failed["error"]["message"] and "injected" not in failed["error"]["message"]
    assert desk.call("get_order", VALID["get_order"])[0]["error"]["code"] == "internal"
    assert desk.call("get_order", VALID["get_order"])[0]["status"] == "ok"  # flaky: the next call works


def test_every_result_matches_the_declared_output_schema(db: Path) -> None:
    desk = OrderDesk(db)
    schemas = {t["name"]: t["output"] for t in desk.tools}
    for tool, args in [*VALID.items(), *[(t, a) for t, a, _ in HOSTILE]]:
        result, _ = desk.call(tool, args)
        jsonschema.validate(result, schemas[tool])


def test_the_acceptance_matrix_holds_and_leaves_the_database_unchanged(db: Path) -> None:
    matrix = acceptance_matrix(db)
    assert matrix.ok, matrix.text()
    cases = {c.case for c in matrix.cases}
    for needed in ("合法输入", "缺失字段", "额外字段", "权限撤销", "分页：第 2 页", "订单号里夹带 SQL"):
        assert needed in cases
    # seed 001's 超长结果: the page is bounded (asking for more is refused, the largest page is served)
    long = [c for c in matrix.cases if c.case.startswith("超长结果")]
    assert [c.got for c in long] == ["invalid_arguments", "ok"]
    assert "truncated=" in long[1].message
    assert matrix.unchanged
    assert "用例" in matrix._repr_mimebundle_()["text/html"]


def test_generated_rejecting_values_break_their_own_schema() -> None:
    for tool in TOOLS:
        for name, bad in rejecting_values(tool["input"]).items():
            prop = tool["input"]["properties"][name]
            assert not jsonschema.Draft202012Validator(prop).is_valid(bad), (tool["name"], name, bad)


_SCHEMA = TOOLS[0]["input"]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(bad=from_schema({"not": _SCHEMA["properties"]["order_id"]}), extra=st.booleans())
def test_property_any_order_id_outside_the_rule_is_refused(
    tmp_path_factory: Any, bad: Any, extra: bool
) -> None:
    db = _shared_db(tmp_path_factory)
    before = dump(db)
    args: dict[str, Any] = {"order_id": bad}
    result, is_error = OrderDesk(db).call("get_order", args)
    assert is_error and result["error"]["code"] == "invalid_arguments"
    assert dump(db) == before


_DB: list[Path] = []


def _shared_db(factory: Any) -> Path:
    if not _DB:
        _DB.append(od.create_database(factory.mktemp("prop") / "orders.sqlite3"))
    return _DB[0]
