"""The offline stand-in model: a deterministic rule program behind the real ``openai`` SDK.

Introduced in lesson 01. **It is not a language model.** It answers ``POST /v1/responses``
through an ``httpx2`` transport (no socket, no key) with the JSON shapes the OpenAI API
description documents, so the real SDK builds every request and parses every response:

- no ``function_call_output`` in the input yet -> one ``function_call`` per requested service,
  with the path and line count it finds in the user's task text; under ``tool_choice: "auto"``
  a task that names no ``/workspace`` path gets a question instead (which file?), or a plain
  answer when it asks for no file (lesson 08); ``"none"`` gets a text answer;
- otherwise -> an assistant message built from the outputs, or one that reports the failure.

Placeholders, chosen to stay valid under ``specs/openai/openapi.yaml``: ``created_at: 0``,
counter ids (``resp_offline_001``...), ``usage`` omitted (the schema has no ``usage: null``,
and zeros would claim a measurement), ``logprobs: []`` on ``output_text`` (required there).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Final

import httpx2

from lessons_lib.core.example import FAILURE_PREFIX as FAILURE_PREFIX  # re-exported for older imports
from lessons_lib.core.jsonvalue import JSONObject, get_in, objects
from lessons_lib.core.messages import zh
from lessons_lib.engine.standins.calls import function_calls
from lessons_lib.engine.standins.rules import (
    Script,
    arguments_text,
    chosen_tools,
    feedback_paragraph,
    first_answer,
    no_tools_text,
)
from lessons_lib.engine.standins.shapes import error_reply, response_body

LABEL: Final = zh("models.offline_label")
"""The Chinese label, for older imports; ``offline_setting`` labels a run in the current language."""

__all__ = ["LABEL", "OfflineModel"]


@dataclass
class OfflineModel(httpx2.AsyncBaseTransport):
    """An ``httpx2`` transport that plays the Responses API. One instance per run."""

    script: Script = field(default_factory=Script)
    turns: int = 0

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        if request.method != "POST" or not request.url.path.endswith("/responses"):
            return error_reply(
                request, 404, f"the offline stand-in only serves POST /v1/responses, not {request.url.path}"
            )
        try:
            body = json.loads(await request.aread())
        except ValueError:
            return error_reply(request, 400, "request body is not JSON")
        self.turns += 1
        return httpx2.Response(200, json=self.respond(body), request=request)

    def respond(self, body: JSONObject) -> JSONObject:
        """The Response object for one request body (pure apart from the turn counter)."""
        items = objects(body.get("input"))
        outputs = [i for i in items if i.get("type") == "function_call_output"]
        answer = outputs and not self.script.endless
        output = [self._answer(body, items, outputs)] if answer else self._calls(body, items)
        return response_body(f"resp_offline_{self.turns:03d}", body, output)

    def _calls(self, body: JSONObject, items: list[JSONObject]) -> list[JSONObject]:
        task = _user_text(items)
        choice = body.get("tool_choice", "auto")
        instead = first_answer(task, choice) if isinstance(choice, str) else None
        if instead is not None and self.script.tool is None:
            return [self._message(instead)]
        aliases = [str(t.get("name", "")) for t in objects(body.get("tools")) if t.get("type") == "function"]
        forced = get_in(choice, "name") if isinstance(choice, dict) else None
        chosen = chosen_tools(aliases, task, self.script, str(forced) if forced is not None else None)
        if not chosen:
            return [self._message(no_tools_text())]
        moves = [(name, arguments_text(task, self.script, name)) for name in chosen]
        moves += [(chosen[0], extra) for extra in self.script.also]
        calls = function_calls(self.turns, moves)
        return ([self._message(self.script.preamble)] if self.script.preamble else []) + calls

    def _answer(self, body: JSONObject, items: list[JSONObject], outputs: list[JSONObject]) -> JSONObject:
        calls = {str(i.get("call_id")): i for i in items if i.get("type") == "function_call"}
        declared = {str(t.get("name")) for t in objects(body.get("tools"))}
        parts = []
        for out in outputs:
            call = calls.get(str(out.get("call_id")), {})
            raw = out.get("output")
            text = raw if isinstance(raw, str) else json.dumps(raw)
            name = str(call.get("name", ""))
            parts.append(feedback_paragraph(call.get("arguments", ""), text, name, declared))
        # a lone surrogate the model sent in its arguments cannot travel back as UTF-8: escape it
        return self._message("\n\n".join(parts).encode("utf-8", "backslashreplace").decode("utf-8"))

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
