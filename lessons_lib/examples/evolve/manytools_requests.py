"""Requests that send fewer tools, built by the real SDKs and checked against the official shapes. Lesson 51.

Each builder calls the real ``openai`` or ``anthropic`` SDK on a capturing transport (no
socket, no key): the SDK serialises the request exactly as it would send it, the transport
records method, path, the ``anthropic-beta`` header and the JSON body, and answers with a
minimal reply so the SDK call returns. OpenAI shapes are checked with ``jsonschema`` against
components cut unchanged from the official API description
(``data/specs/openai/many_tools_components.json``); Anthropic's against the SDK's own types
(``pydantic`` over the TypedDicts in ``anthropic.types.beta``).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Final, NotRequired, TypedDict, cast

import httpx2

from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.paths import DATA_DIR
from lessons_lib.examples.evolve.catalogue import DOMAINS, Tool, responses_tool, token_count

if TYPE_CHECKING:
    import openai
    from anthropic.types.beta import BetaToolParam, BetaToolSearchToolRegex20251119Param, BetaToolUnionParam
    from openai.types.chat import ChatCompletionAllowedToolChoiceParam, ChatCompletionFunctionToolParam
    from openai.types.responses import ToolChoiceAllowedParam, ToolParam
    from openai.types.responses.namespace_tool_param import ToolFunction
    from referencing import Registry

MODEL: Final = "gpt-4.1"
ANTHROPIC_MODEL: Final = "claude-opus-5"
TOOL_SEARCH_BETA: Final = "advanced-tool-use-2025-11-20"
"""The ``anthropic-beta`` value for the tool search tool and ``defer_loading``."""
SPEC: Final = DATA_DIR / "specs" / "openai" / "many_tools_components.json"


class CapturedRequest(TypedDict):
    """One request as the SDK sent it: method, path, ``anthropic-beta`` header, JSON body (and reply)."""

    method: str
    path: str
    beta: str | None
    body: JSONObject
    reply: NotRequired[JSONObject]


@dataclass
class Captured(httpx2.AsyncBaseTransport):
    """A transport that records each request and answers with a minimal valid reply."""

    requests: list[CapturedRequest] = field(default_factory=list)
    input_tokens: int = 0

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(await request.aread() or b"{}")
        beta = request.headers.get("anthropic-beta")
        self.requests.append({"method": request.method, "path": request.url.path, "beta": beta, "body": body})
        return httpx2.Response(200, json=self._reply(request.url.path, body), request=request)

    def _reply(self, path: str, body: JSONObject) -> JSONObject:
        if path.endswith("/responses/input_tokens"):
            # the stand-in's own estimate, not the API's count (which only the real endpoint gives)
            return {"object": "response.input_tokens", "input_tokens": self.input_tokens}
        if path.endswith("/chat/completions"):
            message: JSONObject = {"role": "assistant", "content": "", "refusal": None}
            choice: JSONObject = {"index": 0, "finish_reason": "stop", "logprobs": None, "message": message}
            return {"id": "chatcmpl_capture", "object": "chat.completion", "created": 0, "choices": [choice]}
        if path.endswith("/messages"):
            usage: JSONObject = {"input_tokens": 0, "output_tokens": 0}
            return {
                "id": "msg_capture",
                "type": "message",
                "role": "assistant",
                "content": [],
                "usage": usage,
            }
        return {
            "id": "resp_capture",
            "object": "response",
            "created_at": 0,
            "status": "completed",
            "output": [],
        }


def _openai(transport: Captured) -> openai.AsyncOpenAI:
    import openai

    return openai.AsyncOpenAI(api_key="capture-no-key", http_client=httpx2.AsyncClient(transport=transport))


def _run(make: Callable[[Captured], Awaitable[None]]) -> CapturedRequest:
    from lessons_lib.engine.runsync import run_sync

    transport = Captured()

    async def main() -> CapturedRequest:
        await make(transport)
        return transport.requests[-1]

    return run_sync(main)


def allowed_choice(names: list[str]) -> ToolChoiceAllowedParam:
    """Responses ``tool_choice`` of type ``allowed_tools`` (lesson 51)."""
    return {
        "type": "allowed_tools",
        "mode": "auto",
        "tools": [{"type": "function", "name": n} for n in names],
    }


def responses_allowed(task: str, tools: list[Tool], names: list[str]) -> CapturedRequest:
    """A Responses request: every tool declared, ``tool_choice`` limits the choice to ``names``."""

    async def make(transport: Captured) -> None:
        await _openai(transport).responses.create(
            model=MODEL,
            input=task,
            tools=[responses_tool(t) for t in tools],
            tool_choice=allowed_choice(names),
        )

    return _run(make)


def chat_allowed(task: str, tools: list[Tool], names: list[str]) -> CapturedRequest:
    """The same in Chat Completions: ``allowed_tools`` nests ``mode`` and ``tools`` one level down."""
    declared: list[ChatCompletionFunctionToolParam] = [
        {
            "type": "function",
            "function": {"name": t["name"], "description": t["description"], "parameters": dict(t["input"])},
        }
        for t in tools
    ]
    choice: ChatCompletionAllowedToolChoiceParam = {
        "type": "allowed_tools",
        "allowed_tools": {
            "mode": "auto",
            "tools": [{"type": "function", "function": {"name": n}} for n in names],
        },
    }

    async def make(transport: Captured) -> None:
        await _openai(transport).chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": task}], tools=declared, tool_choice=choice
        )

    return _run(make)


def deferred_tools(tools: list[Tool]) -> list[ToolParam]:
    """``tool_search`` plus one namespace per domain whose functions are ``defer_loading`` (lesson 51)."""
    spaces: list[ToolParam] = []
    for domain, (summary, _) in DOMAINS.items():
        # a namespace's function has the keys of a top-level one (the SDK names it ToolFunction)
        members = [
            cast("ToolFunction", responses_tool(t, defer=True)) for t in tools if t["domain"] == domain
        ]
        if members:
            spaces.append({"type": "namespace", "name": domain, "description": summary, "tools": members})
    return [{"type": "tool_search"}, *spaces]


def responses_deferred(task: str, tools: list[Tool]) -> CapturedRequest:
    """A Responses request with hosted tool search over deferred, namespaced functions."""

    async def make(transport: Captured) -> None:
        await _openai(transport).responses.create(model=MODEL, input=task, tools=deferred_tools(tools))

    return _run(make)


def anthropic_tools(tools: list[Tool]) -> list[BetaToolUnionParam]:
    """Anthropic's regex tool search tool plus every tool with ``defer_loading: true``."""
    search: BetaToolSearchToolRegex20251119Param = {
        "type": "tool_search_tool_regex_20251119",
        "name": "tool_search_tool_regex",
    }
    deferred: list[BetaToolParam] = [
        {
            "name": t["name"],
            "description": t["description"],
            "input_schema": dict(t["input"]),
            "defer_loading": True,
        }
        for t in tools
    ]
    return [search, *deferred]


def anthropic_search(task: str, tools: list[Tool]) -> CapturedRequest:
    """An Anthropic Messages request with the tool search tool, through ``client.beta.messages``."""
    import anthropic

    async def make(transport: Captured) -> None:
        client = anthropic.AsyncAnthropic(
            api_key="capture-no-key", http_client=httpx2.AsyncClient(transport=transport), max_retries=0
        )
        await client.beta.messages.create(
            model=ANTHROPIC_MODEL,
            max_tokens=1024,
            betas=[TOOL_SEARCH_BETA],
            messages=[{"role": "user", "content": task}],
            tools=anthropic_tools(tools),
        )

    return _run(make)


def input_tokens_request(task: str, tools: list[Tool]) -> CapturedRequest:
    """``POST /v1/responses/input_tokens`` as the SDK sends it; the stand-in answers its own estimate."""
    declared = [responses_tool(t) for t in tools]

    async def make(transport: Captured) -> None:
        transport.input_tokens = token_count(declared) + token_count(task)
        reply = await _openai(transport).responses.input_tokens.count(model=MODEL, input=task, tools=declared)
        transport.requests[-1]["reply"] = reply.model_dump(mode="json")

    return _run(make)


@cache
def _registry() -> Registry:
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    doc = json.loads(SPEC.read_text(encoding="utf-8"))
    return Registry().with_resource(
        "urn:openai-many", Resource.from_contents(doc, default_specification=DRAFT202012)
    )


def openai_shape_errors(component: str, instance: object) -> list[str]:
    """Errors of ``instance`` against one official component ([] = valid), lesson 51."""
    import jsonschema

    ref = {"$ref": f"urn:openai-many#/components/schemas/{component}"}
    found = jsonschema.Draft202012Validator(ref, registry=_registry()).iter_errors(instance)
    return sorted(f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message[:120]}" for e in found)


def anthropic_type_errors(tool: JSONObject) -> list[str]:
    """Errors of one Anthropic tool against the SDK's TypedDict (keys and types), lesson 51."""
    from typing import get_type_hints

    import pydantic
    from anthropic.types.beta import BetaToolParam, BetaToolSearchToolRegex20251119Param

    kind = (
        BetaToolSearchToolRegex20251119Param
        if str(tool.get("type", "")).startswith("tool_search")
        else BetaToolParam
    )
    unknown = sorted(set(tool) - set(get_type_hints(kind)))
    try:
        pydantic.TypeAdapter(kind).validate_python(tool)
    except pydantic.ValidationError as exc:
        return [*(f"unknown key {k}" for k in unknown), *(str(e["msg"]) for e in exc.errors())]
    return [f"unknown key {k}" for k in unknown]


def live_first_call(task: str, tools: list[ToolParam], model: str | None = None) -> str | None:
    """With ``OPENAI_API_KEY``: the name of the first function a real model calls (lesson 51)."""
    import openai

    from lessons_lib.engine.models import enable_live_hint, live_setting

    setting = live_setting(model)
    if setting is None:
        raise RuntimeError(f"a real model needs OPENAI_API_KEY. {enable_live_hint()}")
    client = openai.OpenAI(api_key=setting.key, max_retries=0)
    reply = client.responses.create(model=setting.name, input=task, tools=tools)
    calls = [
        str(getattr(item, "name", ""))
        for item in reply.output
        if getattr(item, "type", "") == "function_call"
    ]
    return calls[0] if calls else None
