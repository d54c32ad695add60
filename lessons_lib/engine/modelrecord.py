"""The model side of a run's record: each request and reply body, labelled by round. Lesson 03.

The one loop (:mod:`lessons_lib.engine.host`) and lesson 11's workbench (:mod:`lessons_lib.workshop.loop.kit`)
record the model API's traffic the same way, through this one sink of the HTTP client
(:func:`lessons_lib.engine.models.make_http_client`): ``request_N``, then ``response_N`` (or
``http_error_N`` for a status other than 200); a reply the client refused (too large) is noted.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.traces.trace import Trace


@dataclass
class ModelRecorder:
    """Writes model bodies into ``trace``; keeps the round, the latest reply and a refusal."""

    trace: Trace
    rounds: int = 0
    body: JSONObject = field(default_factory=dict)  # the latest model reply, as received
    refused: str | None = None  # why the client would not take the latest reply

    def on_body(self, direction: str, body: JSONObject, status: int | None) -> None:
        """The HTTP client's sink (``models.BodySink``)."""
        if direction == "request":
            self.rounds += 1
            self.trace.add("model", "application", "model", f"request_{self.rounds}", body)
        elif direction == "refused":
            self.refused = str(body.get("reason"))
        else:
            self.body = body
            label = f"response_{self.rounds}" if status == 200 else f"http_error_{self.rounds}"
            self.trace.add("model", "model", "application", label, body)
