"""The offline stand-in model: a deterministic rule program behind the real ``openai`` SDK.

Introduced in lesson 01. **It is not a language model.** It answers ``POST /v1/responses``
through an ``httpx2`` transport (no socket, no key) with the JSON shapes the OpenAI API
description documents, so the real SDK builds every request and parses every response:

- no ``function_call_output`` in the input yet -> one ``function_call`` per requested service,
  with the path and line count it finds in the user's task text;
- otherwise -> an assistant message built from the outputs, or one that reports the failure.

Placeholders, chosen to stay valid under ``specs/openai/openapi.yaml``: ``created_at: 0``,
counter ids (``resp_offline_001``...), ``usage`` omitted (the schema has no ``usage: null``,
and zeros would claim a measurement), ``logprobs: []`` on ``output_text`` (required there).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Final

import httpx2

from lessons_lib.core.example import FAILURE_PREFIX
from lessons_lib.core.jsonvalue import JSON, JSONObject, objects

LABEL: Final = "离线替身模型（确定性规则程序，不是语言模型）"

_PATH = re.compile(r"(/workspace[^\s，。、；：！？,;!?\"'“”]*)")
_QUOTED_PATH = re.compile(r'"(?:[^"\\]|\\.)*"')  # a path quoted as a JSON string by task_text
# A sign is kept: "前 -3 行" becomes head -3, and the service (not the stand-in) refuses it.
_HEAD = re.compile(r"前\s*(-?\d+)\s*行|first\s+(-?\d+)\s+lines?", re.I)
_TAIL = re.compile(r"(?:最后|末尾|后)\s*(-?\d+)\s*行|last\s+(-?\d+)\s+lines?", re.I)


@dataclass
class Script:
    """Optional fixed moves for what-if lessons: exact ``arguments`` text and/or tool name."""

    arguments: str | None = None
    tool: str | None = None
    also: tuple[str, ...] = ()
    """Lesson 11: more ``arguments`` texts, one more ``function_call`` each in the same turn."""
    preamble: str | None = None
    """Lesson 11: an assistant message placed before the calls (output[0] is then no call)."""
    endless: bool = False
    """Lesson 11: call the tool again on every turn and never answer, so a loop must stop itself."""


@dataclass
class OfflineModel(httpx2.AsyncBaseTransport):
    """An ``httpx2`` transport that plays the Responses API. One instance per run."""

    script: Script = field(default_factory=Script)
    turns: int = 0

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        if request.method != "POST" or not request.url.path.endswith("/responses"):
            return _error(
                request, 404, f"the offline stand-in only serves POST /v1/responses, not {request.url.path}"
            )
        try:
            body = json.loads(await request.aread())
        except ValueError:
            return _error(request, 400, "request body is not JSON")
        self.turns += 1
        return httpx2.Response(200, json=self.respond(body), request=request)

    def respond(self, body: JSONObject) -> JSONObject:
        """The Response object for one request body (pure apart from the turn counter)."""
        items = objects(body.get("input"))
        outputs = [i for i in items if i.get("type") == "function_call_output"]
        answer = outputs and not self.script.endless
        output = [self._answer(items, outputs)] if answer else self._calls(body, items)
        return _response(f"resp_offline_{self.turns:03d}", body, output)

    def _calls(self, body: JSONObject, items: list[JSONObject]) -> list[JSONObject]:
        task = _user_text(items)
        aliases = [str(t.get("name", "")) for t in objects(body.get("tools")) if t.get("type") == "function"]
        if self.script.tool is not None:
            chosen = [self.script.tool]
        else:
            named = [a for a in aliases if a.split("__")[0] and a.split("__")[0] in task]
            chosen = named or aliases[:1]
        if not chosen:
            return [self._message("没有可用的工具，无法读取文件。")]
        arguments = self.script.arguments if self.script.arguments is not None else _arguments_from(task)
        moves = [(name, arguments) for name in chosen] + [(chosen[0], extra) for extra in self.script.also]
        calls: list[JSONObject] = [
            {
                "type": "function_call",
                "id": f"fc_offline_{self.turns:03d}_{n}",
                "call_id": f"call_offline_{self.turns:03d}_{n}",
                "name": name,
                "arguments": args,
                "status": "completed",
            }
            for n, (name, args) in enumerate(moves, start=1)
        ]
        return ([self._message(self.script.preamble)] if self.script.preamble else []) + calls

    def _answer(self, items: list[JSONObject], outputs: list[JSONObject]) -> JSONObject:
        calls = {str(i.get("call_id")): i for i in items if i.get("type") == "function_call"}
        parts = []
        for out in outputs:
            call = calls.get(str(out.get("call_id")), {})
            what = _describe(call.get("arguments", ""))
            raw = out.get("output")
            text = raw if isinstance(raw, str) else json.dumps(raw)
            if text.startswith(FAILURE_PREFIX):
                reason = text[len(FAILURE_PREFIX) :]
                parts.append(f"没有读到{what}：工具报告失败（{reason}）。文件内容没有被读取，我不能编造它。")
            else:
                parts.append(f"这是{what}：\n\n{text}")
        return self._message("\n\n".join(parts))

    def _message(self, text: str) -> JSONObject:
        return {
            "type": "message",
            "id": f"msg_offline_{self.turns:03d}",
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": text, "annotations": [], "logprobs": []}],
        }


def _user_text(items: list[JSONObject]) -> str:
    for item in items:
        if item.get("role") == "user":
            content = item.get("content")
            if isinstance(content, str):
                return content
            if isinstance(content, list):
                return " ".join(str(c.get("text", "")) for c in objects(content))
    return ""


def _arguments_from(task: str) -> str:
    """The arguments text the stand-in derives from the task: path, then head or tail."""
    args: JSONObject = {}
    quoted = _QUOTED_PATH.search(task)
    path = _PATH.search(task)
    if quoted:
        args["path"] = json.loads(quoted.group(0))
    elif path:
        args["path"] = path.group(1)
    for key, pattern in (("head", _HEAD), ("tail", _TAIL)):
        found = pattern.search(task)
        if found:
            args[key] = int(found.group(1) or found.group(2))
    return json.dumps(args, ensure_ascii=False)


def _describe(arguments: JSON) -> str:
    if not isinstance(arguments, str):
        return "所请求的内容"
    try:
        args = json.loads(arguments)
    except (TypeError, ValueError):
        return "所请求的内容"
    if not isinstance(args, dict):
        return "所请求的内容"
    path = f" {args['path']} " if isinstance(args.get("path"), str) else "该文件"
    if args.get("head") is not None:
        return f"{path}的前 {args['head']} 行"
    if args.get("tail") is not None:
        return f"{path}的最后 {args['tail']} 行"
    return f"{path}的内容"


def _response(resp_id: str, body: JSONObject, output: list[JSONObject]) -> JSONObject:
    return {
        "id": resp_id,
        "object": "response",
        "created_at": 0,
        "status": "completed",
        "error": None,
        "incomplete_details": None,
        "instructions": body.get("instructions"),
        "max_output_tokens": None,
        "model": body.get("model", ""),
        "output": [*output],
        "parallel_tool_calls": True,
        "previous_response_id": None,
        "reasoning": {"effort": None, "summary": None},
        "store": False,
        "temperature": 1.0,
        "text": {"format": {"type": "text"}},
        "tool_choice": body.get("tool_choice", "auto"),
        "tools": body.get("tools", []),
        "top_p": 1.0,
        "truncation": "disabled",
        "metadata": {},
    }


def _error(request: httpx2.Request, status: int, message: str) -> httpx2.Response:
    error = {"message": message, "type": "invalid_request_error", "param": None, "code": None}
    return httpx2.Response(status, json={"error": error}, request=request)
