"""OpenAPI -> tools: declarations valid for both OpenAI APIs, a routed call, three ways, a canary token."""

from __future__ import annotations

import json
import secrets
from typing import Any

import anyio
import pytest

from lessons_lib.core.example import FAILURE_PREFIX
from lessons_lib.engine.specs import tool_errors
from lessons_lib.examples.openapi.app import openapi_document
from lessons_lib.examples.openapi.router import Exchange, intent_key, open_order_api
from lessons_lib.examples.openapi.threeways import WAYS, WayRun, run_three_ways
from lessons_lib.examples.openapi.tools import chat_tool, flatten, operations, responses_tool, strict_report

CANARY = "canary-" + secrets.token_hex(12)


@pytest.fixture(scope="module")
def ways() -> dict[str, WayRun]:
    return run_three_ways(CANARY)


def test_each_operation_becomes_one_tool_with_its_parameters() -> None:
    ops = {op.name: op for op in operations(openapi_document())}
    assert list(ops) == ["get_order", "search_delivery_policy", "create_investigation"]
    get = ops["get_order"]
    assert (get.method, get.path, get.path_params) == ("GET", "/orders/{order_id}", ("order_id",))
    assert get.parameters["properties"]["order_id"]["pattern"] == "^O-[0-9]{1,8}$"  # $ref resolved
    assert get.description.startswith("Read one order")
    search = ops["search_delivery_policy"]
    assert search.query_params == ("topic", "region", "page") and search.parameters["required"] == ["topic"]
    assert search.parameters["properties"]["region"]["enum"] == ["north", "east", "south", "west", "all"]
    create = ops["create_investigation"]
    assert create.body_params == ("reason", "note") and create.path_params == ("order_id",)
    assert set(create.parameters["required"]) == {"order_id", "reason", "note"}  # allOf merged
    assert create.call_layer == ("header:Idempotency-Key", "security")
    text = json.dumps([op.parameters for op in ops.values()])
    for absent in ("$ref", "allOf", "oneOf", "Idempotency", "Authorization", "bearer"):
        assert absent not in text


def test_flatten_folds_only_what_it_can() -> None:
    notes: list[str] = []
    assert flatten({"oneOf": [{"type": "integer"}, {"type": "null"}]}, notes) == {"type": ["integer", "null"]}
    mixed = flatten({"oneOf": [{"type": "string"}, {"type": "object", "properties": {}}]}, notes)
    assert "anyOf" in mixed and any("保留为 anyOf" in n for n in notes)


def test_generated_tools_validate_as_responses_and_chat_declarations() -> None:
    for op in operations(openapi_document()):
        assert tool_errors("responses", responses_tool(op)) == []
        assert tool_errors("chat", chat_tool(op)) == []
        assert chat_tool(op)["function"]["parameters"] == responses_tool(op)["parameters"]
    broken = responses_tool(operations(openapi_document())[0])
    del broken["name"]
    assert tool_errors("responses", broken)
    assert tool_errors("chat", {"type": "function", "function": {"description": "no name"}})


def test_strict_report_names_what_strict_mode_cannot_hold() -> None:
    report = {op.name: strict_report(op) for op in operations(openapi_document())}
    assert report["get_order"] == []
    assert any("可选的 page, region 必须改成可为空" in line for line in report["search_delivery_policy"])
    assert any("'maxLength'" in line for line in report["create_investigation"])


def test_router_sends_path_query_and_body_and_refuses_bad_values_before_http() -> None:
    seen: list[Exchange] = []

    async def main() -> list[Any]:
        async with open_order_api(CANARY, sink=seen.append) as router:
            return [
                await router.call("get_order", {"order_id": "O-1042"}),
                await router.call("get_order", {"order_id": "1042"}),
                await router.call("search_delivery_policy", {"topic": "delay", "region": "all", "page": 2}),
                await router.call(
                    "create_investigation", {"order_id": "O-1042", "reason": "lost", "note": "丢了"}
                ),
                await router.call(
                    "create_investigation", {"order_id": "O-1042", "reason": "lost", "note": "丢了"}
                ),
                await router.call("get_order", {"order_id": "O-9999"}),
            ]

    order, refused, page, first, again, missing = anyio.run(main)
    assert json.loads(order.text)["status"] == "shipped" and not order.is_error
    assert refused.is_error and refused.exchange is None and refused.feedback.startswith(FAILURE_PREFIX)
    assert [e.url for e in seen][:2] == ["/orders/O-1042", "/policies?topic=delay&region=all&page=2"]
    assert seen[2].body == {"reason": "lost", "note": "丢了"} and seen[2].status == 201
    assert (seen[3].status, again.structured["investigation_id"]) == (
        200,
        first.structured["investigation_id"],
    )
    assert missing.is_error and missing.text.startswith("HTTP 404: no order O-9999 in this session")
    op = operations(openapi_document())[2]
    assert intent_key(op, {"a": 1}) == intent_key(op, {"a": 1}) != intent_key(op, {"a": 2})


def test_wrong_token_is_refused_by_the_api() -> None:
    from lessons_lib.examples.openapi.router import OpenAPIRouter

    async def main() -> Any:
        async with open_order_api(CANARY) as router:
            wrong = OpenAPIRouter(openapi_document(), router._client, "not-the-token")
            return await wrong.call("get_order", {"order_id": "O-1042"})

    assert anyio.run(main).text.startswith("HTTP 401")


def test_a_model_call_reaches_the_api_and_comes_back_paired(ways: dict[str, WayRun]) -> None:
    assert list(ways) == list(WAYS)
    outputs = {w: json.loads(r.output) for w, r in ways.items()}
    assert outputs["function"] == outputs["openapi"] == outputs["mcp"]
    assert outputs["openapi"]["order_id"] == "O-1042"
    for way, run in ways.items():
        assert run.paired, way
        assert json.loads(run.call["arguments"]) == {"order_id": "O-1042"}
        for tool in run.tools:
            assert tool_errors("responses", tool) == [], (way, tool["name"])
    assert ways["openapi"].hops[-1] == ways["mcp"].hops[-1] == "HTTP GET /orders/O-1042 -> 200"
    assert ways["function"].hops == ["Python get_order('O-1042')"]
    assert ways["mcp"].call["name"] == "orders__get_order" and len(ways["mcp"].frames) == 7


def test_the_canary_token_never_leaves_the_call_layer(
    ways: dict[str, WayRun], capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lessons_lib.cli import main

    monkeypatch.setenv("ORDERS_API_TOKEN", CANARY)
    everything = json.dumps(
        [[run.tools, run.bodies, run.frames, run.hops, run.output, run.answer] for run in ways.values()],
        ensure_ascii=False,
    )
    assert CANARY not in everything
    assert "Bearer" not in everything and "Authorization" not in everything
    calls = (["openapi", "tools", "--report"], ["openapi", "document"], ["openapi", "ways"])
    for argv in (*calls, ["openapi", "call", "get_order", "--args", '{"order_id": "O-1042"}']):
        assert main(argv) == 0
        captured = capsys.readouterr()
        assert CANARY not in captured.out + captured.err
    mcp_tools = next(b for b in ways["mcp"].frames if "tools" in b.get("result", {}))
    for tool in mcp_tools["result"]["tools"]:
        assert "security" not in json.dumps(tool["inputSchema"])


def test_cli_openapi(capsys: pytest.CaptureFixture[str]) -> None:
    from lessons_lib.cli import main

    assert main(["openapi", "call", "get_order", "--args", '{"order_id": "O-1042"}']) == 0
    assert "HTTP GET /orders/O-1042 -> 200" in capsys.readouterr().out
    assert main(["openapi", "call", "get_order", "--args", '{"order_id": "x"}']) == 1
    assert main(["openapi", "call", "get_order", "--args", "{"]) == 2
    assert main(["openapi", "call", "nope"]) == 2
    assert main(["openapi", "tools", "--api", "chat"]) == 0
    assert '"function": {' in capsys.readouterr().out


def test_the_lessons_token_is_in_no_fixture_or_stored_output() -> None:
    """The lessons run with a fixed token; no notebook output and no file in data/ may show it."""
    from _engine_support import REPO_ROOT

    from lessons_lib.examples.openapi.router import DEMO_TOKEN

    stored = [p for p in (REPO_ROOT / "notebooks").glob("*.ipynb")]
    data = [p for p in (REPO_ROOT / "data").rglob("*") if p.is_file()]
    for path in stored + data:
        text = path.read_text(encoding="utf-8", errors="replace")
        assert DEMO_TOKEN not in text, path.name
    assert len(stored) >= 5 and data


def test_the_generated_mcp_server_declares_output_schemas_and_answers_with_structured_content(
    ways: dict[str, WayRun],
) -> None:
    from lessons_lib.engine.specs import frame_errors

    frames = ways["mcp"].frames
    listed = next(f for f in frames if "tools" in f.get("result", {}))["result"]["tools"]
    schemas = {t["name"]: t.get("outputSchema") for t in listed}
    assert set(schemas) == {"get_order", "search_delivery_policy", "create_investigation"}
    assert schemas["get_order"]["properties"]["version"] == {"type": "integer", "minimum": 1}
    answer = frames[-1]["result"]
    assert answer["structuredContent"] == json.loads(answer["content"][0]["text"])
    import jsonschema

    jsonschema.validate(answer["structuredContent"], schemas["get_order"])
    pending: dict[object, str] = {}
    for frame in frames:
        if "method" in frame and "id" in frame:
            pending[frame["id"]] = str(frame["method"])
        assert frame_errors("2025-11-25", frame, frame.get("method") or pending.get(frame.get("id"))) == []
