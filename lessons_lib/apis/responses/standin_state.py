"""The Responses stand-in with server-side state: ``store`` and ``previous_response_id``. Lesson 22.

Introduced in lesson 22. **Still a deterministic rule program, not a language model.** Like
the real Responses API it keeps every response it answers (``store`` defaults to true) and,
when a request names ``previous_response_id``, puts that response's input and output in
front of the new ``input`` before answering, so the application need not re-send them. It
refuses with 400, in the real API's words, a ``previous_response_id`` it does not know and a
``function_call_output`` whose ``call_id`` no ``function_call`` in the context carries (the
state of one stand-in lives as long as the stand-in: one run, or one ``replay``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import httpx2

from lessons_lib.apis.responses.standin import OfflineModel
from lessons_lib.core.jsonvalue import JSON, objects
from lessons_lib.engine.standins.shapes import error_reply


@dataclass
class StatefulOfflineModel(OfflineModel):
    """``OfflineModel`` plus the stored responses, keyed by response id."""

    stored: dict[str, list[JSON]] = field(default_factory=dict)

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        if request.method != "POST" or not request.url.path.endswith("/responses"):
            return await super().handle_async_request(request)
        try:
            body = json.loads(await request.aread())
        except ValueError:
            return error_reply(request, 400, "request body is not JSON")
        previous = body.get("previous_response_id")
        raw = body.get("input")
        items: list[JSON] = raw if isinstance(raw, list) else [{"role": "user", "content": raw}]
        if previous is not None:
            if not isinstance(previous, str) or previous not in self.stored:
                # the real API names the parameter and a code (the spec's Error: param, code)
                return error_reply(
                    request,
                    400,
                    f"Previous response with id '{previous}' not found.",
                    param="previous_response_id",
                    code="previous_response_not_found",
                )
            items = self.stored[previous] + items
        problem = unanswered_output(items)
        if problem is not None:
            return error_reply(
                request, 400, f"No tool call found for function call output with call_id {problem}."
            )
        self.turns += 1
        answer = self.respond({**body, "input": items})
        answer["previous_response_id"] = previous
        answer["store"] = body.get("store", True) is not False
        if answer["store"]:
            self.stored[str(answer.get("id"))] = [*items, *objects(answer.get("output"))]
        return httpx2.Response(200, json=answer, request=request)


def unanswered_output(items: list[JSON]) -> str | None:
    """The ``call_id`` of the first ``function_call_output`` no earlier ``function_call`` carries."""
    seen: set[object] = set()
    for item in items:
        if not isinstance(item, dict):
            continue
        if item.get("type") == "function_call":
            seen.add(item.get("call_id"))
        elif item.get("type") == "function_call_output" and item.get("call_id") not in seen:
            return str(item.get("call_id"))
    return None
