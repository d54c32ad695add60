"""What an example may add to the one application loop: hooks whose defaults change nothing. Lesson 31.

The host (:mod:`lessons_lib.engine.host`) runs every chain of the course; an example that needs
more (the order desk, lessons 31-33) passes a :class:`Policy` instead of writing a second
loop, so the key cleaning, the caps, the SDK error mapping and the one-line failures hold for
its runs as well:

- ``parallel``: the calls of one reply run concurrently (False: one after the other);
- ``settings``: extra request settings of the model API (``instructions``,
  ``parallel_tool_calls``; a None value leaves the setting out, ``tool_choice`` included);
- ``gate``: the loop's one per-call gate, asked once per call, in the calls' order, before any
  call of the reply runs: a result refuses the call (it is the call's feedback; nothing runs),
  None lets it run. :func:`gates` chains several (the first refusal stands): lesson 52's
  screen (:func:`screen_gate`, asked of every call) and lesson 33's confirmation before a write
  (:func:`confirm_gate`, asked of a routed call; a no becomes a ``declined`` tool error);
- ``timeouts``: seconds per alias (else ``Limits.call_timeout``);
- ``tool_retries`` and ``retryable``: the tool layer sends a failed ``tools/call`` again, same
  ``call_id``, same arguments, and records every JSON-RPC id in the link's ``attempts``;
- ``model_retries``: a model request answered with HTTP 5xx restarts the turn from the task;
- ``fallback``: the application's own answer when the round limit is reached;
- ``standin`` and ``label``: the example's offline stand-in in place of the API's own;
- ``finish``: called with the trace when the run ended, before the key is cleaned from it;
- ``turn_seconds``: when given, the wall time of each round's calls is appended (never traced);
- ``screen``: the application's own filter (lesson 52): which declarations the model gets and
  what the model sees of a result; its refusals reach the loop through ``gate`` (``screen_gate``).
- ``calls``: the application's call layer (lesson 32): fields it fills itself (an idempotency key)
  are left out of what the model is declared and added to the arguments before ``tools/call``;
- ``coordinate``: the calls of one reply seen together (lesson 31): a call it answers with a result
  does not run (two writes to one order: the second is refused), before confirmation is asked.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from lessons_lib.core.plugins.apitypes import ToolCall
from lessons_lib.core.traces.trace import Trace
from lessons_lib.engine.adapters import CallResult, Declared, marked

if TYPE_CHECKING:
    import httpx2

    from lessons_lib.engine.screens import Screen

Coordinate = Callable[[Sequence[ToolCall]], list[CallResult | None]]
"""``coordinate(calls)``: per call of one reply, the result that replaces running it, or None."""

Allow = Callable[[ToolCall, str, str, Trace], bool]
"""``allow(call, service, tool, trace)``: may this routed call run? (False: declined, nothing runs)"""

Gate = Callable[[ToolCall, str | None, str | None, Trace], CallResult | None]
"""``gate(call, service, tool, trace)``: the refusal fed back instead of running the call, or None.

``service`` and ``tool`` are where the call's alias leads (None: no route, the call will fail).
"""


class CallLayer(Protocol):
    """What the application adds to a call itself (lesson 32): the model never sees or sends it."""

    def declare(self, declared: list[Declared]) -> list[Declared]: ...

    def fill(self, service: str, tool: str, arguments: dict[str, object]) -> dict[str, object]: ...


def _never(output: str) -> bool:
    return False


@dataclass(frozen=True)
class Policy:
    """The hooks of one run of the loop (see the module docstring); the defaults add nothing."""

    parallel: bool = True
    settings: Mapping[str, object] = field(default_factory=dict)
    gate: Gate | None = None
    timeouts: Mapping[str, float] = field(default_factory=dict)
    tool_retries: int | None = None
    """None: no tool-layer retry and no ``attempts`` in the links (part one's traces)."""
    retryable: Callable[[str], bool] = _never
    model_retries: int = 0
    fallback: str | None = None
    standin: Callable[[], httpx2.AsyncBaseTransport] | None = None
    label: str | None = None
    finish: Callable[[Trace], None] | None = None
    turn_seconds: list[float] | None = None
    screen: Screen | None = None
    calls: CallLayer | None = None
    coordinate: Coordinate | None = None


DEFAULT_POLICY = Policy()


def declined(call: ToolCall) -> CallResult:
    """The result of a call the user did not confirm: a tool error, nothing was written."""
    error = {"code": "declined", "message": "the user did not confirm this write; nothing was written"}
    text = json.dumps({"status": "error", "error": error}, ensure_ascii=False)
    return CallResult(call, marked(text, True), True)


def gates(*chain: Gate | None) -> Gate | None:
    """One gate asking each given gate in turn; the first refusal stands (None: no gate at all)."""
    given = [g for g in chain if g is not None]
    if not given:
        return None

    def gate(call: ToolCall, service: str | None, tool: str | None, trace: Trace) -> CallResult | None:
        for one in given:
            refused = one(call, service, tool, trace)
            if refused is not None:
                return refused
        return None

    return gate


def screen_gate(screen: Screen) -> Gate:
    """Lesson 52's screen as a gate: its refusal, asked of every call (declared or not)."""

    def gate(call: ToolCall, service: str | None, tool: str | None, trace: Trace) -> CallResult | None:
        return screen.refuse(trace.task, call)

    return gate


def confirm_gate(allow: Allow) -> Gate:
    """Lesson 33's confirmation before a write as a gate: asked of a routed call; a no is declined."""

    def gate(call: ToolCall, service: str | None, tool: str | None, trace: Trace) -> CallResult | None:
        if service is None or tool is None or allow(call, service, tool, trace):
            return None
        return declined(call)

    return gate
