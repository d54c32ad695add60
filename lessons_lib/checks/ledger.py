"""The call ledger and the many-call checks of a trace. Introduced in lesson 31. Stdlib only.

Seed 001: for every call keep the original call id, the normalised arguments, the execution
status and the link to its result. :func:`ledger` reads them from a trace (the model's
``function_call`` items, the application's ``links``, the MCP frames, the feedback sent);
:func:`record_ledger` writes them into the trace's links. :func:`check_calls` holds a trace
with many calls to what pairing needs -- every call answered exactly once in the next
request, no output for a call never made, each output the result of its own call, the
arguments sent unchanged, one business write per intent -- and names each broken rule in
its own sentence (lesson 32's sabotage catalogue).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from lessons_lib.core.example import FAILURE_PREFIX

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


def _data(trace: Any) -> dict[str, Any]:
    to_dict = getattr(trace, "to_dict", None)
    data = to_dict() if callable(to_dict) else trace
    return data if isinstance(data, dict) else {}


def _events(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in data.get("events") or [] if isinstance(e, dict) and isinstance(e.get("body"), dict)]


def _model(data: dict[str, Any], kind: str) -> dict[int, dict[str, Any]]:
    """``{n: body}`` of ``request_n`` / ``response_n`` events (``http_error_n`` is neither)."""
    found: dict[int, dict[str, Any]] = {}
    for e in _events(data):
        label = str(e.get("label", ""))
        if e.get("channel") == "model" and label.startswith(kind + "_") and label[len(kind) + 1 :].isdigit():
            found[int(label[len(kind) + 1 :])] = e["body"]
    return found


def _items(body: dict[str, Any], key: str, kind: str) -> list[dict[str, Any]]:
    return [i for i in body.get(key) or [] if isinstance(i, dict) and i.get("type") == kind]


def normalise(arguments: object) -> str:
    """Arguments as one canonical JSON text (sorted keys); text that is not JSON stays as sent."""
    try:
        value = json.loads(arguments) if isinstance(arguments, str) else arguments
    except ValueError:
        return str(arguments)
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _reply(data: dict[str, Any], service: object, mcp_id: object) -> dict[str, Any] | None:
    for e in _events(data):
        body = e["body"]
        if (
            e.get("from") == service
            and "method" not in body
            and body.get("id") == mcp_id
            and mcp_id is not None
        ):
            return e
    return None


def _request(data: dict[str, Any], service: object, mcp_id: object) -> dict[str, Any] | None:
    for e in _events(data):
        body = e["body"]
        if e.get("to") == service and body.get("method") == "tools/call" and body.get("id") == mcp_id:
            return body
    return None


def reply_output(reply: dict[str, Any]) -> str:
    """The feedback an MCP reply becomes: its text, marked when ``isError``."""
    result = reply.get("result") or {}
    text = "\n".join(c.get("text", "") for c in result.get("content") or [] if isinstance(c, dict))
    return FAILURE_PREFIX + text if result.get("isError") else text


def _status(output: str | None, reply: dict[str, Any] | None) -> str:
    if output is not None:
        body = output[len(FAILURE_PREFIX) :] if output.startswith(FAILURE_PREFIX) else output
        try:
            parsed = json.loads(body)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict) and isinstance(parsed.get("status"), str):
            error = parsed.get("error")
            return (
                str(error.get("code")) if isinstance(error, dict) and error.get("code") else parsed["status"]
            )
        if output.startswith(FAILURE_PREFIX):
            return next((s for words, s in _TEXT_STATUS if words in output), "error")
        return "ok"
    if reply is not None:
        return _status(reply_output(reply["body"]), None)
    return "not_sent"


def _outputs(request: dict[str, Any] | None) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for item in _items(request or {}, "input", "function_call_output"):
        found.setdefault(str(item.get("call_id")), []).append(str(item.get("output", "")))
    return found


def ledger(trace: Any) -> list[LedgerRow]:
    """Every call of the run, in the order the model proposed them (lesson 31)."""
    data = _data(trace)
    requests, links = _model(data, "request"), [x for x in data.get("links") or [] if isinstance(x, dict)]
    rows: list[LedgerRow] = []
    for n, response in sorted(_model(data, "response").items()):
        outputs = _outputs(requests.get(n + 1))
        for call in _items(response, "output", "function_call"):
            call_id = str(call.get("call_id"))
            link = next((x for x in links if x.get("call_id") == call_id), {})
            ids = tuple(link.get("attempts") or ([link["mcp_id"]] if link.get("mcp_id") is not None else []))
            reply = _reply(data, link.get("service"), ids[-1]) if ids else None
            sent = outputs.get(call_id)
            number = f"[{reply['seq'] + 1:02d}]" if reply and isinstance(reply.get("seq"), int) else "-"
            rows.append(
                LedgerRow(
                    n,
                    call_id,
                    str(call.get("name", "")),
                    normalise(call.get("arguments")),
                    _status(sent[0] if sent else None, reply),
                    ids,
                    number,
                )
            )
    return rows


def record_ledger(trace: Any) -> None:
    """Write each call's ledger fields into its link (the trace is what keeps them)."""
    rows = {r.call_id: r for r in ledger(trace)}
    for link in getattr(trace, "links", None) or []:
        row = rows.get(str(link.get("call_id")))
        if row is not None:
            link.update(round=row.round, arguments=row.arguments, status=row.status, result=row.result)


def check_calls(trace: Any) -> list[str]:
    """Every broken many-call rule, one sentence each; an empty list means the calls pair up."""
    data = _data(trace)
    requests, problems = _model(data, "request"), []
    for n, request in sorted(requests.items()):
        inputs = [i for i in request.get("input") or [] if isinstance(i, dict)]
        made = [str(i.get("call_id")) for i in inputs if i.get("type") == "function_call"]
        answered = [str(i.get("call_id")) for i in inputs if i.get("type") == "function_call_output"]
        problems += [
            f"request_{n}: an output for call {c}, a call the model never made"
            for c in answered
            if c not in made
        ]
        problems += [
            f"request_{n}: call {c} is answered {answered.count(c)} times"
            for c in made
            if answered.count(c) > 1
        ]
        problems += [f"request_{n}: call {c} has no function_call_output" for c in made if c not in answered]
    for n, response in sorted(_model(data, "response").items()):
        nxt = requests.get(n + 1)
        for call in _items(response, "output", "function_call") if nxt is not None else []:
            if str(call.get("call_id")) not in _outputs(nxt):
                problems.append(
                    f"request_{n + 1}: call {call.get('call_id')} of response_{n} was never answered"
                )
    problems += _check_results(data, requests)
    problems += _check_writes(data)
    return list(dict.fromkeys(problems))


def _check_results(data: dict[str, Any], requests: dict[int, dict[str, Any]]) -> list[str]:
    """Each output is its own call's MCP result, and each call's arguments reached the service."""
    problems: list[str] = []
    links = [x for x in data.get("links") or [] if isinstance(x, dict)]
    calls = {
        str(c.get("call_id")): c
        for r in _model(data, "response").values()
        for c in _items(r, "output", "function_call")
    }
    for link in links:
        call_id, ids = str(link.get("call_id")), link.get("attempts") or [link.get("mcp_id")]
        if ids[-1] is None:
            continue
        reply = _reply(data, link.get("service"), ids[-1])
        sent = _request(data, link.get("service"), ids[-1])
        call = calls.get(call_id)
        if call is not None and sent is not None:
            given = (sent.get("params") or {}).get("arguments")
            if normalise(call.get("arguments")) != normalise(given):
                problems.append(f"call {call_id}: the service got other arguments than the model sent")
        expected = reply_output(reply["body"]) if reply else None
        for n, request in sorted(requests.items()):
            for text in _outputs(request).get(call_id, []):
                if expected is not None and text != expected:
                    owner = next(
                        (
                            str(x.get("call_id"))
                            for x in links
                            if (r := _reply(data, x.get("service"), x.get("mcp_id")))
                            and reply_output(r["body"]) == text
                        ),
                        "no call",
                    )
                    problems.append(
                        f"request_{n}: the output paired to call {call_id} is the result of {owner}"
                    )
    return problems


def _check_writes(data: dict[str, Any]) -> list[str]:
    """One business write per intent: two ``created`` rows for the same arguments is a duplicate."""
    seen: dict[str, str] = {}
    problems: list[str] = []
    for row in ledger(data):
        if row.alias not in WRITE_ALIASES or row.status != "created":
            continue
        args = json.loads(row.arguments) if row.arguments.startswith("{") else {}
        intent = json.dumps(
            {k: v for k, v in args.items() if k != "idempotency_key"}, ensure_ascii=False, sort_keys=True
        )
        if intent in seen:
            problems.append(
                f"calls {seen[intent]} and {row.call_id} both created a row for one intent {intent}:"
                " a duplicated write (an idempotency key makes the second a replay)"
            )
        seen.setdefault(intent, row.call_id)
    return problems
