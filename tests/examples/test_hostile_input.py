"""Part two's services under hostile input (issue 26): each point has a test that failed before its fix.

Lone surrogates, ``$`` before a final newline, unbounded echoes, Python internals, the
confirmation text, the HTTP API's ``page`` and its own document, one desk three ways.
"""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest

from lessons_lib.core.echo import ECHO_LIMIT, hostile, short
from lessons_lib.engine.execute import parse_arguments
from lessons_lib.engine.host import Limits
from lessons_lib.examples.openapi.app import BASE_URL, build_app, openapi_document
from lessons_lib.examples.orders.acceptance import VALID
from lessons_lib.examples.orders.guards import ConfirmRequest
from lessons_lib.services.orders import data as od
from lessons_lib.services.orders.service import OrderDesk

TOKEN = "hostile-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
HUGE = "x" * 100_000
IN_URL = "x" * 60_000  # httpx2 refuses a URL over 64 KB: the longest value a path or query can carry
SEED_ROWS = 1  # investigations in the seed
LIMITS = Limits(total_timeout=300, call_timeout=120)  # a loaded CI machine is slow, not wrong


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    return od.create_database(tmp_path / "orders.sqlite3")


def rows(path: Path) -> int:
    with closing(od.connect(path)) as conn:
        return od.count_investigations(conn) - SEED_ROWS


def bounded(text: str) -> None:
    """No message quotes more than 200 characters of a hostile value."""
    assert "x" * 201 not in text, text[:300]
    assert len(text) < 2_000, text[:300]


def test_short_quotes_a_prefix_with_the_length_and_never_a_surrogate() -> None:
    assert short("O-1042") == "O-1042"
    quoted = short(HUGE)
    assert quoted.startswith("x" * ECHO_LIMIT) and "(100000 characters)" in quoted and len(quoted) < 100
    assert short("a\ud800b").encode("utf-8") == b"a\\ud800b"


# 1. lone surrogates ---------------------------------------------------------------------------


def test_a_lone_surrogate_is_refused_by_the_loop_and_the_run_goes_on() -> None:
    from lessons_lib import Script, run_chain

    args, problem = parse_arguments('{"path": "/workspace/\\ud800.txt"}')
    assert args is None and "lone surrogate" in problem and "pydantic" not in problem.lower()
    trace = run_chain(
        script=Script(arguments='{"path": "/workspace/\\ud800.txt", "head": 20}'), limits=LIMITS
    )
    assert trace.outcome["status"] == "answered", trace.outcome
    outputs = [
        str(i.get("output")) for e in trace.events if e["label"] == "request_2" for i in e["body"]["input"]
    ]
    assert any("lone surrogate" in o for o in outputs)
    assert not [e for e in trace.events if e["label"] == "tools/call"]  # nothing was sent


def test_a_lone_surrogate_reaches_no_service_of_the_order_desk(db: Path) -> None:
    from lessons_lib import Script, run_chain
    from lessons_lib.services.orders.service import build_server

    desk = OrderDesk(db)
    trace = run_chain(
        "查询订单",
        services={"orders": lambda name: build_server(desk, name)},
        script=Script(arguments='{"order_id": "O-1042\\udc00"}', tool="orders__get_order"),
        limits=LIMITS,
    )
    assert trace.outcome["status"] == "answered", trace.outcome
    assert desk.call("get_order", {"order_id": "\ud800"})[0]["error"]["code"] == "invalid_arguments"


def test_to_wire_names_a_lone_surrogate() -> None:
    import mcp_types as types

    from lessons_lib.engine.wire import to_wire

    message = types.JSONRPCRequest(jsonrpc="2.0", id=1, method="tools/call", params={"name": "\ud800"})
    with pytest.raises(ValueError, match="lone surrogate"):
        to_wire(message)


# 2. `$` is the end of the input (ECMA-262) -----------------------------------------------------


def test_a_final_newline_fails_every_pattern_of_the_desk(db: Path) -> None:
    desk = OrderDesk(db)
    assert desk.call("get_order", {"order_id": "O-1042\n"})[0]["error"]["code"] == "invalid_arguments"
    assert (
        desk.call("track_shipment", {"waybill_no": "WB-77042\n"})[0]["error"]["code"] == "invalid_arguments"
    )
    first, failed = desk.call("create_investigation", VALID["create_investigation"])
    assert not failed
    again = {
        **VALID["create_investigation"],
        "idempotency_key": VALID["create_investigation"]["idempotency_key"] + "\n",
    }
    assert desk.call("create_investigation", again)[0]["error"]["code"] == "invalid_arguments"
    assert rows(db) == 1


def test_a_final_newline_fails_the_router_and_the_http_api(db: Path) -> None:
    from lessons_lib.examples.openapi.router import call_order_tool

    routed, seen = call_order_tool("get_order", {"order_id": "O-1042\n"})
    assert routed.is_error and "must match" in routed.text and not seen
    answer = _http(db, [("GET", "/orders/O-1042%0A", None, {})])[0]
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid_arguments"


# 3. bounded echoes ----------------------------------------------------------------------------


def _string_fields(schema: dict[str, Any]) -> list[str]:
    return [
        name
        for name, sub in schema.get("properties", {}).items()
        if "string" in json.dumps(sub.get("type", ""))
    ]


def test_a_100_kb_value_in_every_string_field_of_every_desk_tool_is_quoted_short(db: Path) -> None:
    desk = OrderDesk(db)
    checked = 0
    for tool in desk.tools:
        base = dict(VALID[tool["name"]])
        for name in _string_fields(tool["input"]):
            result, failed = desk.call(tool["name"], {**base, name: HUGE})
            assert failed and result["error"]["code"] == "invalid_arguments"
            bounded(json.dumps(result))
            checked += 1
        result, failed = desk.call(tool["name"], {**base, HUGE: 1})  # a 100 KB field name
        assert failed
        bounded(json.dumps(result))
    assert checked == 8 and rows(db) == 0


def test_a_100_kb_value_in_every_string_field_of_the_generated_tools_is_quoted_short(db: Path) -> None:
    from lessons_lib.examples.openapi.router import call_order_tool
    from lessons_lib.examples.openapi.tools import operations

    valid = {
        "get_order": {"order_id": "O-1042"},
        "search_delivery_policy": {"topic": "delay"},
        "create_investigation": {"order_id": "O-1042", "reason": "delayed", "note": "三天没有物流更新"},
    }
    checked = 0
    for op in operations(openapi_document()):
        for name in _string_fields(op.parameters):
            routed, seen = call_order_tool(op.name, {**valid[op.name], name: HUGE})
            assert routed.is_error and not seen
            bounded(routed.text)
            checked += 1
    assert checked == 6
    path = "/orders/O-1042/investigations"
    answers = _http(
        db,
        [
            ("GET", "/orders/" + IN_URL, None, {}),
            ("GET", "/policies", None, {"params": {"topic": IN_URL}}),
            ("GET", "/policies", None, {"params": {"topic": "delay", "region": IN_URL}}),
            ("GET", "/policies", None, {"params": {"topic": "delay", "page": IN_URL}}),
            ("POST", path, {"reason": HUGE, "note": "n"}, {"headers": {"Idempotency-Key": "key-00000001"}}),
            (
                "POST",
                path,
                {"reason": "delayed", "note": HUGE},
                {"headers": {"Idempotency-Key": "key-00000001"}},
            ),
            ("POST", path, {"reason": "delayed", "note": "n"}, {"headers": {"Idempotency-Key": IN_URL}}),
        ],
    )
    for answer in answers:
        assert answer.status_code == 400, answer.text[:300]
        bounded(answer.text)
    assert rows(db) == 0


def test_a_100_kb_path_and_tool_names_come_back_short() -> None:
    from lessons_lib.services.files.service import FileService, ToolRefusal

    for path in ("/workspace/" + "a" * 5_000, "/etc/" + HUGE):
        with pytest.raises(ToolRefusal) as refused:
            FileService().read(path)
        assert len(str(refused.value)) < 400 and "a" * 201 not in str(refused.value)

    from lessons_lib import Script, run_chain

    trace = run_chain(script=Script(tool="fs__" + HUGE), limits=LIMITS)
    assert len(trace.outcome["reason"]) < 1_000 and len(trace.outcome["text"]) < 1_000
    for event in trace.events:
        if event["label"] == "request_2":
            bounded(json.dumps(event["body"]["input"][-1], ensure_ascii=False))


@pytest.mark.parametrize("which", ["files", "orders", "openapi"])
def test_every_mcp_server_quotes_an_unknown_100_kb_tool_name_short(which: str, db: Path) -> None:
    from mcp import Client
    from mcp.shared.exceptions import MCPError

    from lessons_lib.engine.wire import FramedTransport

    async def main() -> str:
        from lessons_lib.examples.openapi.mcp_server import build_openapi_server
        from lessons_lib.examples.openapi.router import open_order_api
        from lessons_lib.services.files import service as fileservice
        from lessons_lib.services.orders import service as orderdesk

        async with open_order_api(TOKEN, db) as router:
            server = {
                "files": lambda: fileservice.build_server(),
                "orders": lambda: orderdesk.build_server(OrderDesk(db)),
                "openapi": lambda: build_openapi_server(router),
            }[which]()
            async with Client(FramedTransport(server, lambda d, f: None), mode="legacy") as client:
                try:
                    result = await client.call_tool(HUGE, {})
                except MCPError as exc:
                    return exc.error.message
                return json.dumps(result.model_dump(mode="json"))

    bounded(anyio.run(main))


# 4. no Python internals -----------------------------------------------------------------------


def test_a_5000_digit_number_is_named_as_a_bad_value(db: Path) -> None:
    args, problem = parse_arguments('{"order_id": "O-1042", "page": %s}' % ("9" * 5000))
    assert args is None and "sys.set_int_max_str_digits" not in problem and "digits" in problem
    result, failed = OrderDesk(db).call("search_delivery_policy", {"topic": "delay", "page": 10**5000})
    assert failed and result["error"]["code"] == "invalid_arguments", result
    assert hostile({"a": [10**5000]}) is not None and hostile({"a": [10**300]}) is None


# 5. the confirmation shows what is written ----------------------------------------------------


def test_the_confirmation_shows_every_argument_the_write_stores() -> None:
    args = {
        "order_id": "O-1042",
        "reason": "delayed",
        "note": "三天没有物流更新，请加急",
        "idempotency_key": "k-12345678",
    }
    question = ConfirmRequest("call_1", "orders__create_investigation", args, {}).question()
    for value in args.values():
        assert value in question
    long = ConfirmRequest("c", "a", {"note": HUGE}, {}).question()
    assert "100002 characters" in long and "x" * 201 not in long  # cut, and said so


# 6.-8. the HTTP API holds its own document and the desk's rules -------------------------------


def _http(db: Path, requests: list[tuple[str, str, Any, dict[str, Any]]]) -> list[httpx2.Response]:
    app = build_app(db, TOKEN)

    async def main() -> list[httpx2.Response]:
        async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url=BASE_URL) as c:
            answers = []
            for method, url, body, extra in requests:
                headers = {**AUTH, **extra.get("headers", {})}
                answers.append(
                    await c.request(method, url, json=body, params=extra.get("params"), headers=headers)
                )
            return answers

    return anyio.run(main)


def test_page_is_bounded_in_the_document_and_refused_before_sqlite(db: Path) -> None:
    from lessons_lib.examples.openapi.router import call_order_tool

    page = next(
        p for p in openapi_document()["paths"]["/policies"]["get"]["parameters"] if p["name"] == "page"
    )
    assert page["schema"]["maximum"] == 20
    routed, seen = call_order_tool("search_delivery_policy", {"topic": "delay", "page": 10**22})
    assert routed.is_error and "maximum is 20" in routed.text and not seen
    answers = _http(
        db,
        [
            ("GET", "/policies", None, {"params": {"topic": "delay", "page": p}})
            for p in ("10" * 11, "١", "0", "2")
        ],
    )
    assert [a.status_code for a in answers] == [400, 400, 400, 200]


def test_the_http_api_refuses_what_its_document_forbids_from_a_client_that_skips_the_router(db: Path) -> None:
    path = "/orders/O-1042/investigations"
    key = {"headers": {"Idempotency-Key": "key-00000001"}}
    answers = _http(
        db,
        [
            ("POST", path, {"reason": "delayed", "note": "x" * 1_000_000}, key),
            ("POST", path, {"reason": "delayed", "note": ""}, key),
            ("POST", path, {"reason": "delayed"}, key),
            ("POST", path, {"reason": "delayed", "note": 5}, key),
            ("POST", path, {"reason": "delayed", "note": "ok"}, {"headers": {"Idempotency-Key": "short"}}),
        ],
    )
    assert [a.status_code for a in answers] == [400] * 5
    assert rows(db) == 0


def test_the_http_api_applies_the_desks_rules(db: Path) -> None:
    key = {"headers": {"Idempotency-Key": "key-00000001"}}
    body = {"reason": "delayed", "note": "查一下"}
    cancelled, other, other_write = _http(
        db,
        [
            ("POST", "/orders/O-1045/investigations", body, key),
            ("GET", "/orders/O-1050", None, {}),
            ("POST", "/orders/O-1050/investigations", body, key),
        ],
    )
    desk = OrderDesk(db)
    assert (
        desk.call("create_investigation", {**VALID["create_investigation"], "order_id": "O-1045"})[0][
            "error"
        ]["code"]
        == "not_allowed"
    )
    assert (cancelled.status_code, cancelled.json()["error"]["code"]) == (409, "not_allowed")
    assert (other.status_code, other.json()["error"]["code"]) == (404, "not_found")
    assert other_write.status_code == 404 and rows(db) == 0
    with closing(od.connect(db)) as conn:
        od.set_access(conn, "C-001", "revoked")
        conn.commit()
    assert _http(db, [("GET", "/orders/O-1042", None, {})])[0].status_code == 403


def test_the_generated_mcp_server_does_not_call_a_failure_unreachable(db: Path) -> None:
    from mcp import Client

    from lessons_lib.engine.wire import FramedTransport
    from lessons_lib.examples.openapi.mcp_server import build_openapi_server
    from lessons_lib.examples.openapi.router import open_order_api

    async def main() -> str:
        async with open_order_api(TOKEN, db) as router:

            async def broken(name: str, arguments: dict[str, Any]) -> Any:
                raise OverflowError("Python int too large to convert to SQLite INTEGER")

            router.call = broken  # type: ignore[method-assign]
            server = build_openapi_server(router)
            async with Client(FramedTransport(server, lambda d, f: None), mode="legacy") as client:
                result = await client.call_tool("get_order", {"order_id": "O-1042"})
        return "\n".join(c.text for c in result.content if c.type == "text")

    text = anyio.run(main)
    assert "could not be reached" not in text and "OverflowError" in text and "SQLite" not in text


def test_a_huge_negative_head_is_refused_in_words_not_with_pythons_overflow() -> None:
    """A number beyond float range below 1 is refused with its size, never 'int too large to convert'."""
    from lessons_lib.services.files.service import FileService, ToolRefusal

    with pytest.raises(ToolRefusal) as refused:
        FileService().read("/workspace/notes.txt", head=-(10**400))
    message = str(refused.value)
    assert "must be at least 1" in message and "digits" in message and "float" not in message
    assert len(message) < 200
