"""The call ledger and the many-call checks of a trace. Introduced in lesson 31. Stdlib only.

Seed 001: for every call keep the original call id, the normalised arguments, the execution
status and the link to its result. :func:`ledger` reads them from a trace (the model's
``function_call`` items, the application's ``links``, the MCP frames, the feedback sent);
:func:`check_calls` holds a trace with many calls to what pairing needs -- every call answered
exactly once in the next request, no output for a call never made, each output the result of
its own call, the arguments sent unchanged, one business write per intent -- and names each
broken rule in its own sentence (lesson 32's sabotage catalogue). Checks read a trace; the
order desk's run writes the ledger fields (``lessons_lib.examples.orders.run.write_ledger``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from lessons_lib.core.example import FAILURE_PREFIX
from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, objects
from lessons_lib.core.messages import t
from lessons_lib.core.plugins.apishapes import feedback_items, input_items, tool_calls
from lessons_lib.core.plugins.apitypes import ToolCall
from lessons_lib.core.traces import queries as q

LEDGER_FIELDS: Final = ("round", "call_id", "alias", "arguments", "status", "mcp_ids", "result")
WRITE_ALIASES: Final = ("orders__create_investigation",)
_TEXT_STATUS: Final = (
    ("not valid JSON", "bad_json"),
    ("must be a JSON object", "bad_json"),
    ("did not answer within", "timeout"),
    ("unknown tool", "unknown_tool"),
    ("protocol error", "protocol_error"),
)


@dataclass(frozen=True)
class LedgerRow:
    """One call: where it came from, what it asked, how it ended, where its result is."""

    round: int
    call_id: str
    alias: str
    arguments: str
    status: str
    mcp_ids: tuple[object, ...]
    result: str
    """``[NN]`` event number of the MCP reply that carries the result, or ``-``."""


def _rounds(trace: object) -> list[q.ModelRound]:
    return q.model_rounds(trace)


def _calls(body: object) -> list[ToolCall]:
    return tool_calls(body)


def normalise(arguments: object) -> str:
    """Arguments as one canonical JSON text (sorted keys); text that is not JSON stays as sent."""
    try:
        value = json.loads(arguments) if isinstance(arguments, str) else arguments
    except ValueError:
        return str(arguments)
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def reply_output(reply: JSON | None) -> str:
    """The feedback an MCP reply becomes: its text, marked when ``isError``."""
    text = q.reply_text(reply)
    return FAILURE_PREFIX + text if q.reply_is_error(reply) else text


def _exchange(trace: object, service: object, mcp_id: JSON) -> q.McpExchange | None:
    if not isinstance(service, str) or mcp_id is None:
        return None
    return q.mcp_exchange(trace, service, mcp_id)


def _status(output: str | None, reply: JSON | None) -> str:
    """How a call ended. The service's reply decides when there is one; only what the
    application itself wrote (a refusal, a timeout, bad arguments JSON) is read from the output.

    A tool's *text* is never read for a status: a file whose content is ``{"status": "error"}``
    was read successfully. A status comes from ``structuredContent`` (the
    order desk's envelope), else from ``isError``.
    """
    if reply is not None:
        return _reply_status(reply)
    if output is not None:
        return _envelope_status(output)
    return "not_sent"


def _reply_status(reply: JSON) -> str:
    structured = get_in(reply, "result", "structuredContent")
    if isinstance(structured, dict) and isinstance(structured.get("status"), str):
        return _envelope_code(structured)
    if q.reply_is_error(reply):
        text = reply_output(reply)
        return next((s for words, s in _TEXT_STATUS if words in text), "error")
    return "ok"


def _envelope_status(output: str) -> str:
    """The status of an output the application wrote itself (no service replied)."""
    body = output[len(FAILURE_PREFIX) :] if output.startswith(FAILURE_PREFIX) else output
    try:
        parsed = json.loads(body)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict) and isinstance(parsed.get("status"), str):
        return _envelope_code(parsed)
    if output.startswith(FAILURE_PREFIX):
        return next((s for words, s in _TEXT_STATUS if words in output), "error")
    return "ok"


def _envelope_code(envelope: JSONObject) -> str:
    error = envelope.get("error")
    return (
        str(error.get("code")) if isinstance(error, dict) and error.get("code") else str(envelope["status"])
    )


def _outputs(request: object) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for item in feedback_items(request):
        found.setdefault(str(item.call_id), []).append(item.text() or "")
    return found


def links_of(trace: object) -> list[JSONObject]:
    """The link records as plain JSON objects (with the ``attempts`` the typed ``Link`` leaves out)."""
    return objects(get_in(q.as_data(trace), "links"))


def attempts_of(link: JSONObject) -> list[JSON]:
    """The MCP ids of every try of a link's call (``attempts``), [] when the link keeps none."""
    attempts = link.get("attempts")
    return attempts if isinstance(attempts, list) else []


def ledger(trace: object) -> list[LedgerRow]:
    """Every call of the run, in the order the model proposed them (lesson 31)."""
    rounds = _rounds(trace)
    requests = {r.n: r.request for r in rounds}
    links = links_of(trace)
    rows: list[LedgerRow] = []
    for r in rounds:
        outputs = _outputs(requests.get(r.n + 1))
        for call in _calls(r.response):
            call_id = str(call.call_id)
            link = next((x for x in links if x.get("call_id") == call_id), {})
            ids = tuple(attempts_of(link) or ([link["mcp_id"]] if link.get("mcp_id") is not None else []))
            exchange = _exchange(trace, link.get("service"), ids[-1]) if ids else None
            reply = exchange.reply if exchange else None
            at = exchange.reply_at if exchange else None
            sent = outputs.get(call_id)
            rows.append(
                LedgerRow(
                    r.n,
                    call_id,
                    str(call.name),
                    normalise(call.arguments),
                    _status(sent[0] if sent else None, reply),
                    ids,
                    f"[{at + 1:02d}]" if isinstance(at, int) else "-",
                )
            )
    return rows


def check_calls(trace: object) -> list[str]:
    """Every broken many-call rule, one sentence each; an empty list means the calls pair up."""
    rounds = _rounds(trace)
    requests = {r.n: r.request for r in rounds}
    problems: list[str] = []
    for n, request in sorted(requests.items()):
        inputs = input_items(request)
        made = [str(i.get("call_id")) for i in inputs if i.get("type") == "function_call"]
        answered = [str(f.call_id) for f in feedback_items(request)]
        problems += [t("ledger.output_without_call", n=n, c=c) for c in answered if c not in made]
        problems += [
            t("ledger.answered_twice", n=n, c=c, times=answered.count(c))
            for c in made
            if answered.count(c) > 1
        ]
        problems += [t("ledger.no_output", n=n, c=c) for c in made if c not in answered]
    for r in rounds:
        nxt = requests.get(r.n + 1)
        for call in _calls(r.response) if nxt is not None else []:
            if str(call.call_id) not in _outputs(nxt):
                problems.append(t("ledger.never_answered", next=r.n + 1, n=r.n, c=call.call_id))
    problems += _check_results(trace, requests)
    problems += _check_writes(trace)
    return list(dict.fromkeys(problems))


def _check_results(trace: object, requests: Mapping[int, JSONObject | None]) -> list[str]:
    """Each output is its own call's MCP result, and each call's arguments reached the service."""
    problems: list[str] = []
    links = links_of(trace)
    made = {str(c.call_id): c for c in q.calls(trace)}
    results: dict[str, str] = {}
    for link in links:
        ids = attempts_of(link) or [link.get("mcp_id")]
        exchange = _exchange(trace, link.get("service"), ids[-1])
        if exchange is not None and exchange.reply is not None:
            results[str(link.get("call_id"))] = reply_output(exchange.reply)
        call = made.get(str(link.get("call_id")))
        given = get_in(exchange.request, "params", "arguments") if exchange else None
        filled = link.get("filled")  # fields the call layer added itself (lesson 32), not the model's
        if isinstance(given, dict) and isinstance(filled, list):
            given = {k: v for k, v in given.items() if k not in filled}
        if call is not None and exchange is not None and normalise(call.arguments) != normalise(given):
            problems.append(t("ledger.arguments_differ", c=link.get("call_id")))
    for n, request in sorted(requests.items()):
        for call_id, texts in _outputs(request).items():
            expected = results.get(call_id)
            for text in texts:
                if expected is not None and text != expected:
                    owner = next(
                        (t("ledger.owner_call", c=c) for c, got in results.items() if got == text),
                        t("ledger.owner_none"),
                    )
                    problems.append(t("ledger.wrong_output", n=n, c=call_id, owner=owner))
    return problems


def _check_writes(trace: object) -> list[str]:
    """One business write per intent: two ``created`` rows for the same arguments is a duplicate."""
    seen: dict[str, str] = {}
    problems: list[str] = []
    for row in ledger(trace):
        if row.alias not in WRITE_ALIASES or row.status != "created":
            continue
        args = json.loads(row.arguments) if row.arguments.startswith("{") else {}
        intent = json.dumps(
            {k: v for k, v in args.items() if k != "idempotency_key"}, ensure_ascii=False, sort_keys=True
        )
        if intent in seen:
            problems.append(
                t("ledger.duplicate_write", first=seen[intent], second=row.call_id, intent=intent)
            )
        seen.setdefault(intent, row.call_id)
    return problems
