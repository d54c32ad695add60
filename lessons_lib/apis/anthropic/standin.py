"""The offline Anthropic Messages stand-in: a deterministic rule program behind the real ``anthropic`` SDK.

Introduced in lesson 20. **It is not a language model.** It answers ``POST /v1/messages``
through an ``httpx2`` transport with the shapes of the SDK's ``Message`` type:

- the last message is the user's task -> one ``tool_use`` block per chosen tool, ``input`` an
  object, ``stop_reason: "tool_use"``; ``tool_choice`` ``{"type": "none"}`` -> a text block, and
  so does ``auto`` when the task names no ``/workspace`` path (it stands in for "the model decides":
  a question when the task wants a file's lines without naming it, lesson 08);
  ``{"type": "tool", "name": ...}`` forces that tool; ``disable_parallel_tool_use`` -> one block;
- the last message carries ``tool_result`` blocks -> a text block built from them, paired by
  ``tool_use_id``, ``stop_reason: "end_turn"`` (unless ``tool_choice`` ``any`` / ``tool`` still
  forces a call, as the real API does).

Like the real API it answers 400 (``{"type": "error", "error": {...}}``) when a ``tool_use``
has no ``tool_result`` in the next message, when a ``tool_result`` answers no ``tool_use`` of
the previous message (both with the real API's wording), when a ``tool_result`` is not in a
``user`` message, when ``input`` is not an object, or when ``max_tokens`` is missing.
Placeholders: counter ids (``msg_offline_001``, ``toolu_offline_001_1``) and
``usage: {"input_tokens": 0, "output_tokens": 0}`` (required by the ``Message`` type; the zeros
are not a measurement).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

import httpx2

from lessons_lib.core.example import FAILURE_PREFIX
from lessons_lib.core.jsonvalue import JSON, JSONObject, objects
from lessons_lib.engine.standins.rules import (
    NO_TOOLS_DECLARED,
    Script,
    answer_part,
    arguments_object,
    chosen_tools,
    first_answer,
    read_json,
    text_of,
)

PATH: Final = "/v1/messages"


@dataclass
class OfflineAnthropic(httpx2.AsyncBaseTransport):
    """An ``httpx2`` transport that plays the Anthropic Messages API. One instance per run."""

    script: Script = field(default_factory=Script)
    turns: int = 0

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        if request.method != "POST" or not request.url.path.endswith(PATH):
            return error(request, 404, "not_found_error", f"the offline stand-in only serves POST {PATH}")
        body = await read_json(request)
        if body is None:
            return error(request, 400, "invalid_request_error", "The request body is not valid JSON.")
        problem = check_request(body)
        if problem is not None:
            return error(request, 400, "invalid_request_error", problem)
        self.turns += 1
        return httpx2.Response(200, json=self.respond(body), request=request)

    def respond(self, body: JSONObject) -> JSONObject:
        """The Message object for one (already checked) request body."""
        messages = objects(body["messages"])
        results = [b for b in _blocks(messages[-1]) if b.get("type") == "tool_result"]
        choice = _object(body.get("tool_choice")) or {"type": "auto"}
        if results and choice.get("type") in ("auto", "none"):  # "any" or "tool" forces another call
            return self._message(body, [_text(self._answer(body, messages, results))], "end_turn")
        kind = choice.get("type")
        instead = first_answer(_task(messages), kind) if isinstance(kind, str) else None
        if instead is not None:
            return self._message(body, [_text(instead)], "end_turn")
        aliases = [str(t.get("name", "")) for t in objects(body.get("tools"))]
        name = choice.get("name") if choice.get("type") == "tool" else None
        forced = str(name) if name is not None else None
        task = _task(messages)
        names = chosen_tools(aliases, task, self.script, forced)
        if choice.get("disable_parallel_tool_use"):
            names = names[:1]
        if not names:
            return self._message(body, [_text(NO_TOOLS_DECLARED)], "end_turn")
        uses: list[JSON] = [
            {
                "type": "tool_use",
                "id": f"toolu_offline_{self.turns:03d}_{n}",
                "name": name,
                "input": arguments_object(task, self.script),
            }
            for n, name in enumerate(names, start=1)
        ]
        return self._message(body, uses, "tool_use")

    def _answer(self, body: JSONObject, messages: list[JSONObject], results: list[JSONObject]) -> str:
        declared = {str(t.get("name")) for t in objects(body.get("tools"))}
        uses = {b.get("id"): b for b in _blocks(messages[-2]) if b.get("type") == "tool_use"}
        parts = []
        for block in results:
            output = text_of(block.get("content"))
            if block.get("is_error") and not output.startswith(FAILURE_PREFIX):
                output = FAILURE_PREFIX + output  # is_error is the failure mark here, not a text prefix
            use = uses.get(block.get("tool_use_id"), {})
            parts.append(answer_part(use.get("input", {}), output, str(use.get("name", "")), declared))
        return "\n\n".join(parts)

    def _message(self, body: JSONObject, content: list[JSON], stop: str) -> JSONObject:
        return {
            "id": f"msg_offline_{self.turns:03d}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", ""),
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 0, "output_tokens": 0},
        }


def _text(text: str) -> JSON:
    return {"type": "text", "text": text}


def _object(value: JSON) -> JSONObject:
    return value if isinstance(value, dict) else {}


def _blocks(message: JSON) -> list[JSONObject]:
    return objects(message.get("content") if isinstance(message, dict) else None)


def _task(messages: list[JSONObject]) -> str:
    first = messages[0]
    return text_of(first.get("content"))


def check_request(body: JSONObject) -> str | None:
    """The message of the first error the real API refuses with 400, or None."""
    if not isinstance(body.get("max_tokens"), int):
        return "max_tokens: Field required"
    raw = body.get("messages")
    if not isinstance(raw, list) or not raw or not all(isinstance(m, dict) for m in raw):
        return "messages: Field required (a non-empty list of messages)"
    messages = objects(raw)
    if messages[0].get("role") != "user":
        return 'messages: first message must use the "user" role'
    for n, message in enumerate(messages):
        previous = [b.get("id") for b in _blocks(messages[n - 1]) if b.get("type") == "tool_use"] if n else []
        answered: set[JSON] = set()
        for k, block in enumerate(_blocks(message)):
            if block.get("type") == "tool_use" and not isinstance(block.get("input"), dict):
                return f"messages.{n}.content.{k}.tool_use.input: Input should be a valid dictionary"
            if block.get("type") != "tool_result":
                continue
            if message.get("role") != "user":
                return f"messages.{n}.content.{k}: `tool_result` blocks can only appear in `user` messages"
            if block.get("tool_use_id") not in previous:
                return (
                    f"messages.{n}.content.{k}: unexpected `tool_use_id` found in `tool_result` blocks: "
                    f"{block.get('tool_use_id')}. Each `tool_result` block must have a corresponding "
                    "`tool_use` block in the previous message."
                )
            answered.add(block.get("tool_use_id"))
        missing = [i for i in previous if i not in answered]
        if missing:
            return _without_result(n, missing)
    last = [b.get("id") for b in _blocks(messages[-1]) if b.get("type") == "tool_use"]
    return _without_result(len(messages) - 1, last) if last else None


def _without_result(n: int, ids: list[JSON]) -> str:
    """The real API's words; ``n`` is the message that should have held the ``tool_result`` blocks."""
    return (
        f"messages.{n}: `tool_use` ids were found without `tool_result` blocks immediately after: "
        f"{', '.join(map(str, ids))}. Each `tool_use` block must have a corresponding `tool_result` "
        "block in the next message."
    )


def error(request: httpx2.Request, status: int, kind: str, message: str) -> httpx2.Response:
    """An Anthropic-style error body (``{"type": "error", "error": {"type", "message"}}``)."""
    body = {"type": "error", "error": {"type": kind, "message": message}}
    return httpx2.Response(status, json=body, request=request)
