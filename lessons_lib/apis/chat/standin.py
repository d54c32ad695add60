"""The offline Chat Completions stand-in: a deterministic rule program behind the real ``openai`` SDK.

Introduced in lesson 20. **It is not a language model.** It answers
``POST /v1/chat/completions`` through an ``httpx2`` transport with the shapes of
``CreateChatCompletionResponse`` in ``specs/openai/openapi.yaml``:

- no ``role: "tool"`` message after the last assistant ``tool_calls`` -> one tool call per
  chosen alias in ``choices[0].message.tool_calls`` (``finish_reason: "tool_calls"``);
  ``tool_choice: "none"`` -> a text message instead, and so does ``auto`` when the task names no
  ``/workspace`` path (the rule that stands in for "the model decides": a question when the
  task wants a file's lines without naming it, lesson 08); a named ``tool_choice``
  forces that tool;
  ``parallel_tool_calls: false`` -> at most one call;
- otherwise -> an assistant message built from the tool messages, paired by ``tool_call_id``
  (unless ``tool_choice`` still forces a call: ``required`` or a named tool never lets it answer);
- the deprecated ``functions`` / ``function_call`` request (lesson 22) -> ``message.function_call``
  and ``finish_reason: "function_call"``, answered from a ``role: "function"`` message.

Like the real API it answers 400 when a ``tool`` message has no ``tool_call_id``, answers a call
that is not in the previous assistant message, or when an assistant ``tool_calls`` message is
not followed by a tool message for each id (the wording of those errors is the real API's).
Placeholders: ``created: 0``, counter ids (``chatcmpl-offline-001``, ``call_offline_001_1``),
``usage`` omitted (optional in the schema; zeros would claim a measurement).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

import httpx2

from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, objects
from lessons_lib.engine.standins.rules import (
    NO_TOOL_TEXT,
    NO_TOOLS_DECLARED,
    Script,
    answer_part,
    arguments_text,
    chosen_tools,
    first_answer,
    read_json,
    text_of,
)

PATH: Final = "/chat/completions"


@dataclass
class OfflineChat(httpx2.AsyncBaseTransport):
    """An ``httpx2`` transport that plays the Chat Completions API. One instance per run."""

    script: Script = field(default_factory=Script)
    turns: int = 0

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        if request.method != "POST" or not request.url.path.endswith(PATH):
            return error(
                request, 404, f"the offline stand-in only serves POST /v1{PATH}, not {request.url.path}"
            )
        body = await read_json(request)
        if body is None:
            return error(request, 400, "We could not parse the JSON body of your request.")
        problem = check_messages(body.get("messages"))
        if problem is not None:
            return error(request, 400, problem[1], problem[0])
        self.turns += 1
        return httpx2.Response(200, json=self.respond(body), request=request)

    def respond(self, body: JSONObject) -> JSONObject:
        """The chat.completion object for one (already checked) request body."""
        messages = objects(body["messages"])
        if "functions" in body and "tools" not in body:
            return self._legacy(body, messages)
        feedback = _trailing(messages, "tool")
        choice = body.get("tool_choice", "auto")
        if feedback and choice in ("auto", "none"):  # "required" or a named tool forces another call
            return self._completion(body, self._answer(body, messages, feedback), "stop")
        instead = first_answer(_task(messages), choice) if isinstance(choice, str) else None
        if instead is not None:
            return self._completion(body, _message(instead), "stop")
        name = get_in(choice, "function", "name") if isinstance(choice, dict) else None
        forced = str(name) if name is not None else None
        aliases = [
            str(_object(t.get("function", {})).get("name", ""))
            for t in objects(body.get("tools"))
            if t.get("type") == "function"
        ]
        names = chosen_tools(aliases, _task(messages), self.script, forced)
        if body.get("parallel_tool_calls") is False:
            names = names[:1]
        if not names:
            return self._completion(body, _message(NO_TOOLS_DECLARED), "stop")
        arguments = arguments_text(_task(messages), self.script)
        calls: list[JSON] = [
            {
                "id": f"call_offline_{self.turns:03d}_{n}",
                "type": "function",
                "function": {"name": name, "arguments": arguments},
            }
            for n, name in enumerate(names, start=1)
        ]
        return self._completion(body, _message(None, tool_calls=calls), "tool_calls")

    def _answer(self, body: JSONObject, messages: list[JSONObject], feedback: list[JSONObject]) -> JSONObject:
        declared = {str(_object(t.get("function", {})).get("name")) for t in objects(body.get("tools"))}
        calls = {
            c.get("id"): _object(c.get("function", {}))
            for m in messages
            if m.get("role") == "assistant"
            for c in objects(m.get("tool_calls"))
        }
        parts = []
        for m in feedback:
            call = calls.get(m.get("tool_call_id"), {})
            name = str(call.get("name", ""))
            parts.append(answer_part(call.get("arguments", ""), text_of(m.get("content")), name, declared))
        return _message("\n\n".join(parts))

    def _legacy(self, body: JSONObject, messages: list[JSONObject]) -> JSONObject:
        """The deprecated shape: one ``function_call``, answered from a ``role: "function"`` message."""
        results = _trailing(messages, "function")
        if results:
            called = next(
                (c for m in reversed(messages) if isinstance(c := m.get("function_call"), dict)),
                {},
            )
            content = text_of(results[-1].get("content"))
            text = answer_part(called.get("arguments", ""), content, str(called.get("name", "")))
            return self._completion(body, _message(text), "stop")
        names = [str(f.get("name", "")) for f in objects(body.get("functions"))]
        chosen = chosen_tools(names, _task(messages), self.script)[:1]
        if body.get("function_call") == "none" or not chosen:
            return self._completion(body, _message(NO_TOOL_TEXT), "stop")
        call: JSONObject = {"name": chosen[0], "arguments": arguments_text(_task(messages), self.script)}
        return self._completion(body, _message(None, function_call=call), "function_call")

    def _completion(self, body: JSONObject, message: JSONObject, finish: str) -> JSONObject:
        return {
            "id": f"chatcmpl-offline-{self.turns:03d}",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", ""),
            "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
        }


def _message(content: str | None, **extra: JSON) -> JSONObject:
    return {"role": "assistant", "content": content, "refusal": None, **extra, "annotations": []}


def _object(value: JSON) -> JSONObject:
    return value if isinstance(value, dict) else {}


def _task(messages: list[JSONObject]) -> str:
    return next((text_of(m.get("content")) for m in messages if m.get("role") == "user"), "")


def _trailing(messages: list[JSONObject], role: str) -> list[JSONObject]:
    """The messages of ``role`` after the last assistant message (the feedback of this turn)."""
    last = max((n for n, m in enumerate(messages) if m.get("role") == "assistant"), default=-1)
    return [m for m in messages[last + 1 :] if m.get("role") == role] if last >= 0 else []


def check_messages(messages: object) -> tuple[str, str] | None:
    """(param, message) of the first pairing error the real API refuses with 400, or None."""
    if not isinstance(messages, list) or not messages or not all(isinstance(m, dict) for m in messages):
        return "messages", "Invalid 'messages': expected a non-empty array of message objects."
    open_ids: list[str] = []
    for n, m in enumerate(objects(messages)):
        if m.get("role") == "tool":
            tool_call_id = m.get("tool_call_id")
            if not isinstance(tool_call_id, str):
                return (
                    f"messages.[{n}].tool_call_id",
                    f"Missing required parameter: 'messages[{n}].tool_call_id'.",
                )
            if tool_call_id not in open_ids:
                return (
                    f"messages.[{n}].role",
                    "Invalid parameter: messages with role 'tool' must be a response to a "
                    "preceeding message with 'tool_calls'.",
                )
            open_ids.remove(tool_call_id)
            continue
        if open_ids:
            return _unanswered(open_ids)
        if m.get("role") == "assistant":
            open_ids = [str(c.get("id")) for c in objects(m.get("tool_calls"))]
    return _unanswered(open_ids) if open_ids else None


def _unanswered(ids: list[str]) -> tuple[str, str]:
    return (
        "messages",
        "An assistant message with 'tool_calls' must be followed by tool messages responding "
        "to each 'tool_call_id'. The following tool_call_ids did not have response messages: "
        + ", ".join(ids),
    )


def error(request: httpx2.Request, status: int, message: str, param: str | None = None) -> httpx2.Response:
    """An OpenAI-style error body (``{"error": {message, type, param, code}}``)."""
    body = {"error": {"message": message, "type": "invalid_request_error", "param": param, "code": None}}
    return httpx2.Response(status, json=body, request=request)
