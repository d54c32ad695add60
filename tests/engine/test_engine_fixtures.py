"""The fixtures in ``data/``: re-recorded byte for byte, valid under the official schemas, consistent.

Schemas come from ``tests/specs/`` (copies of the official MCP schemas and the Responses part
of the OpenAI API description, see PROVENANCE.md). Each message is also parsed with the SDKs'
own types. Negative controls prove the validators can fail.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from _engine_support import DATA_DIR, REPO_ROOT, SPECS_DIR, cli
from _fake_openai import function_call, message

MESSAGES = (
    "request_1.json",
    "response_1.json",
    "request_2.json",
    "response_2.json",
    "mcp_request.json",
    "mcp_response.json",
)
MCP_REVISIONS = {"2025-06-18": "definitions", "2025-11-25": "$defs"}
INPUT_ITEM_SCHEMA = {
    "message": "EasyInputMessage",
    "function_call": "FunctionToolCall",
    "function_call_output": "FunctionCallOutputItemParam",
}


def fixture(name: str) -> Any:
    return json.loads((DATA_DIR / name).read_text(encoding="utf-8"))


# --- validators --------------------------------------------------------------------------------


@cache
def _registry() -> Any:
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT7, DRAFT202012

    missing = [
        p
        for p in [
            SPECS_DIR / "openai" / "responses_components.json",
            *(SPECS_DIR / "mcp" / r / "schema.json" for r in MCP_REVISIONS),
        ]
        if not p.is_file()
    ]
    if missing:
        pytest.fail(f"schema copies missing: {missing}; run python tests/specs/extract.py", pytrace=False)
    openai_doc = json.loads((SPECS_DIR / "openai" / "responses_components.json").read_text(encoding="utf-8"))
    resources = [("urn:openai", Resource.from_contents(openai_doc, default_specification=DRAFT202012))]
    for revision in MCP_REVISIONS:
        doc = json.loads((SPECS_DIR / "mcp" / revision / "schema.json").read_text(encoding="utf-8"))
        resources.append((f"urn:mcp:{revision}", Resource.from_contents(doc, default_specification=DRAFT7)))
    return Registry().with_resources(resources)


def errors(kind: str, name: str, instance: Any) -> list[str]:
    """Schema errors of ``instance`` against the ``openai`` component or ``mcp:<revision>`` definition."""
    import jsonschema

    if kind == "openai":
        schema: dict[str, Any] = {"$ref": f"urn:openai#/components/schemas/{name}"}
        validator: Any = jsonschema.Draft202012Validator
    else:
        revision = kind.split(":", 1)[1]
        schema = {"$ref": f"urn:mcp:{revision}#/{MCP_REVISIONS[revision]}/{name}"}
        validator = (
            jsonschema.Draft7Validator if revision == "2025-06-18" else jsonschema.Draft202012Validator
        )
    found = validator(schema, registry=_registry()).iter_errors(instance)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in found]


def openai_errors(request: dict[str, Any] | None = None, response: dict[str, Any] | None = None) -> list[str]:
    """A request checked whole and item by item (the whole-request check alone is lenient)."""
    if response is not None:
        return errors("openai", "Response", response)
    assert request is not None
    found = errors("openai", "CreateResponse", request)
    for n, item in enumerate(request["input"]):
        kind = item.get("type", "message")
        found += [f"input/{n}: {e}" for e in errors("openai", INPUT_ITEM_SCHEMA.get(kind, "InputItem"), item)]
    for n, tool in enumerate(request.get("tools", [])):
        found += [f"tools/{n}: {e}" for e in errors("openai", "FunctionTool", tool)]
    return found


# --- re-recording ------------------------------------------------------------------------------


def test_record_reproduces_every_fixture_byte_for_byte(tmp_path: Path) -> None:
    done = cli("record", "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "out"
    written = {p.relative_to(out).as_posix() for p in [*out.glob("*.json"), *out.glob("diagrams/*.svg")]}
    committed = {
        p.relative_to(DATA_DIR).as_posix()
        for p in [*DATA_DIR.glob("*.json"), *DATA_DIR.glob("diagrams/*.svg")]
    }
    assert set(MESSAGES) | {"trace.json", "diagrams/trace.svg"} <= written
    different = [
        n for n in sorted(committed) if (DATA_DIR / n).read_bytes() != (tmp_path / "out" / n).read_bytes()
    ]
    assert different == [], f"re-recording changed {different}: run python -m lessons_lib record and review"
    assert written == committed, (
        f"data/ lacks {sorted(written - committed)} and has extra {sorted(committed - written)}"
        ": run python -m lessons_lib record"
    )


def test_two_offline_runs_are_byte_identical() -> None:
    from lessons_lib.engine.host import run_chain

    first, second = run_chain().to_json(), run_chain().to_json()
    assert first == second
    assert first == (DATA_DIR / "trace.json").read_text(encoding="utf-8")


def test_fixtures_are_cut_from_the_trace() -> None:
    from lessons_lib.core.traces.trace import load_trace

    trace = load_trace(DATA_DIR / "trace.json")
    assert fixture("request_1.json") == trace.body("request_1", channel="model")
    assert fixture("response_2.json") == trace.body("response_2", channel="model")
    assert (fixture("mcp_request.json"), fixture("mcp_response.json")) == trace.mcp_pair("tools/call")
    text = json.dumps(trace.to_dict(), ensure_ascii=False)
    assert "workspace" not in text.replace("/workspace", "")  # no machine path
    assert str(REPO_ROOT) not in text and "/tmp/" not in text


# --- official schemas ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["request_1.json", "request_2.json"])
def test_model_requests_match_create_response(name: str) -> None:
    assert openai_errors(request=fixture(name)) == []


@pytest.mark.parametrize("name", ["response_1.json", "response_2.json"])
def test_model_responses_match_response(name: str) -> None:
    assert openai_errors(response=fixture(name)) == []


def _call_request(revision: str, frame: dict[str, Any]) -> dict[str, Any]:
    """2025-06-18 describes CallToolRequest without the JSON-RPC envelope; 2025-11-25 includes it."""
    return {k: frame[k] for k in ("method", "params")} if revision == "2025-06-18" else frame


@pytest.mark.parametrize("revision", sorted(MCP_REVISIONS))
def test_mcp_pair_matches_the_mcp_schema(revision: str) -> None:
    request, response = fixture("mcp_request.json"), fixture("mcp_response.json")
    kind = f"mcp:{revision}"
    assert errors(kind, "JSONRPCRequest", request) == []
    assert errors(kind, "CallToolRequest", _call_request(revision, request)) == []
    assert errors(kind, "JSONRPCResponse", response) == []
    assert errors(kind, "CallToolResult", response["result"]) == []


@pytest.mark.parametrize("revision", sorted(MCP_REVISIONS))
def test_every_recorded_frame_is_a_jsonrpc_message(revision: str) -> None:
    frames = [e["body"] for e in fixture("trace.json")["events"] if e["channel"] == "mcp"]
    assert [f.get("method") for f in frames if "method" in f] == [
        "initialize",
        "notifications/initialized",
        "tools/list",
        "tools/call",
    ]
    for frame in frames:
        assert errors(f"mcp:{revision}", "JSONRPCMessage", frame) == [], frame
    tools_list = next(f for f in frames if "tools" in f.get("result", {}))
    assert errors(f"mcp:{revision}", "ListToolsResult", tools_list["result"]) == []


def test_a_fresh_run_with_other_values_matches_the_schemas() -> None:
    """Not only the committed fixtures: what the engine produces now, for tail 3, is valid too."""
    from lessons_lib.engine.host import run_chain

    trace = run_chain(head=None, tail=3)
    for event in trace.events:
        body, label = event["body"], event["label"]
        if event["channel"] == "model":
            found = (
                openai_errors(request=body) if label.startswith("request_") else openai_errors(response=body)
            )
        else:
            found = errors("mcp:2025-11-25", "JSONRPCMessage", body) + errors(
                "mcp:2025-06-18", "JSONRPCMessage", body
            )
        assert found == [], (label, found)
    assert [e["label"] for e in trace.events if e["channel"] == "model"] == [
        "request_1",
        "response_1",
        "request_2",
        "response_2",
    ]


def test_fake_live_responses_match_response() -> None:
    for _, body in (function_call(1, '{"path": "/workspace/notes.txt"}'), message(2, "ok")):
        assert openai_errors(response=body) == []


def test_validators_can_fail() -> None:
    """Negative controls: one broken field each, caught by the official description."""
    response = fixture("response_1.json")
    broken = copy.deepcopy(response)
    broken["output"][0]["arguments"] = json.loads(broken["output"][0]["arguments"])  # object, not text
    assert openai_errors(response=broken)
    no_status = {k: v for k, v in response.items() if k != "created_at"}
    assert openai_errors(response=no_status)

    request = copy.deepcopy(fixture("request_2.json"))
    request["input"][2]["output"] = {"lines": 20}  # feedback must be text (or content parts)
    assert openai_errors(request=request)
    request = copy.deepcopy(fixture("request_1.json"))
    del request["tools"][0]["parameters"]
    assert openai_errors(request=request)

    mcp_request = copy.deepcopy(fixture("mcp_request.json"))
    mcp_request["params"]["arguments"] = json.dumps(mcp_request["params"]["arguments"])  # text, not object
    for revision in MCP_REVISIONS:
        assert errors(f"mcp:{revision}", "CallToolRequest", _call_request(revision, mcp_request))
    result = copy.deepcopy(fixture("mcp_response.json"))["result"]
    result["content"][0]["type"] = "markdown"
    assert errors("mcp:2025-06-18", "CallToolResult", result)


def test_schema_copies_match_shared_specs() -> None:
    """When the project's shared/specs folder is next to the repository, the copies must match it."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_specs_extract", SPECS_DIR / "extract.py")
    assert spec is not None and spec.loader is not None
    extract = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(extract)
    shared = Path(extract.DEFAULT_SHARED)
    if not (shared / "openai" / "openapi.yaml").is_file():
        pytest.skip(f"no shared/specs next to the repository ({shared}); the committed copies are used")
    for revision in MCP_REVISIONS:
        assert (SPECS_DIR / "mcp" / revision / "schema.json").read_bytes() == (
            shared / "mcp" / revision / "schema.json"
        ).read_bytes()
    copied = json.loads((SPECS_DIR / "openai" / "responses_components.json").read_text(encoding="utf-8"))
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with (shared / "openai" / "openapi.yaml").open(encoding="utf-8") as handle:
        schemas = yaml.load(handle, Loader=loader)["components"]["schemas"]
    assert copied["components"]["schemas"] == extract.reachable(schemas)


# --- the SDKs' own types ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["response_1.json", "response_2.json"])
def test_responses_parse_as_sdk_response(name: str) -> None:
    from openai.types.responses import Response

    parsed = Response.model_validate(fixture(name))
    kinds = [item.type for item in parsed.output]
    assert kinds == (["function_call"] if name == "response_1.json" else ["message"])


@pytest.mark.parametrize("name", ["request_1.json", "request_2.json"])
def test_requests_parse_as_sdk_params(name: str) -> None:
    from openai.types.responses import FunctionToolParam, ResponseInputItemParam
    from openai.types.responses.response_input_item import ResponseInputItem
    from pydantic import TypeAdapter

    request = fixture(name)
    for item in request["input"]:
        TypeAdapter(ResponseInputItemParam).validate_python(item)
        parsed = TypeAdapter(ResponseInputItem).validate_python(item)
        assert parsed.type == item["type"]
    for tool in request["tools"]:
        assert TypeAdapter(FunctionToolParam).validate_python(tool)["name"] == "fs__read_text_file"
    with pytest.raises(ValueError):  # arguments must be text, never an object
        TypeAdapter(ResponseInputItem).validate_python(
            {"type": "function_call", "call_id": "c", "name": "fs__read_text_file", "arguments": {"head": 20}}
        )


def test_mcp_pair_parses_as_mcp_types() -> None:
    import mcp_types

    request, response = fixture("mcp_request.json"), fixture("mcp_response.json")
    rpc = mcp_types.JSONRPCRequest.model_validate(request)
    call = mcp_types.CallToolRequest.model_validate({"method": rpc.method, "params": rpc.params})
    assert call.params.name == "read_text_file" and call.params.arguments == {
        "path": "/workspace/notes.txt",
        "head": 20,
    }
    reply = mcp_types.JSONRPCResponse.model_validate(response)
    result = mcp_types.CallToolResult.model_validate(reply.result)
    assert reply.id == rpc.id and result.is_error is False


# --- consistency between the files -------------------------------------------------------------


def test_identifiers_and_values_pair_up() -> None:
    request_1, response_1, request_2 = (
        fixture("request_1.json"),
        fixture("response_1.json"),
        fixture("request_2.json"),
    )
    mcp_request, mcp_response = fixture("mcp_request.json"), fixture("mcp_response.json")
    (call,) = [i for i in response_1["output"] if i["type"] == "function_call"]
    feedback = [i for i in request_2["input"] if i["type"] == "function_call_output"]
    assert feedback == [
        {
            "type": "function_call_output",
            "call_id": call["call_id"],
            "output": mcp_response["result"]["content"][0]["text"],
        }
    ]
    assert request_2["input"] == request_1["input"] + [call] + feedback
    assert request_2["tools"] == request_1["tools"]
    assert json.loads(call["arguments"]) == mcp_request["params"]["arguments"]
    assert call["name"] == request_1["tools"][0]["name"] == "fs__read_text_file"
    assert mcp_request["params"]["name"] == "read_text_file"
    assert mcp_response["id"] == mcp_request["id"]
    text = (DATA_DIR / "workspace" / "notes.txt").read_text(encoding="utf-8")
    assert mcp_response["result"]["content"][0]["text"] == "\n".join(text.split("\n")[:20])
    assert request_1["tools"][0]["strict"] is False
