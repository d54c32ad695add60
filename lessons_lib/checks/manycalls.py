"""verify-roundtrip and diagnose for a trace with many rounds and many calls. Lesson 31.

A run of the order desk has several model rounds, several calls per round, and retries.
Each round that holds calls is cut out as a two-round *window* (``request_k``,
``response_k``, the MCP exchanges of its calls, ``request_k+1``, ``response_k+1``), renamed
to the labels the single-call verifiers read, and checked by the same
:func:`~lessons_lib.checks.verify.verify_roundtrip` and
:func:`~lessons_lib.checks.doctor.diagnose`. Two of their rules are about the *end* of a
chain (the second response is the answer); in a window that is not the last, the chain
continues instead (the next response holds further calls, or the next request failed and
the application asked again), and that is accepted with a stated reason. Calls that never
reached a service (invalid JSON, declined by the user) have no MCP exchange to verify: the
pairing rules of :func:`~lessons_lib.checks.ledger.check_calls` cover them, and cover the
whole run. Standard library only.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Final

from lessons_lib.checks.ledger import attempts_of, check_calls, ledger, raw_call_records
from lessons_lib.checks.verify_report import esc
from lessons_lib.core.display import Displayable
from lessons_lib.core.glossary import status_word
from lessons_lib.core.htmltable import html_table, status, status_badge
from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, objects
from lessons_lib.core.messages import t
from lessons_lib.core.traces import queries as q

_END_RULES: Final = ("answer",)
"""The keys of the round-trip checks about the chain's end (the second response is the answer)."""
_END_LINK: Final = "next_input"
_PAIRED: Final = ("function_call", "function_call_output")


@dataclass(frozen=True)
class WindowResult:
    """One round's window: what each verifier said, and whether it holds."""

    round: int
    calls: int
    roundtrip: str
    diagnosis: str
    ok: bool


@dataclass(frozen=True, repr=False)
class ManyCallsReport(Displayable):
    """Every window's result plus the run-wide pairing problems (lesson 31)."""

    windows: tuple[WindowResult, ...]
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems and all(w.ok for w in self.windows)

    def verdict(self) -> str:
        if self.ok:
            return t("manycalls.all_passed", n=len(self.windows))
        broken = [t("manycalls.round", n=w.round) for w in self.windows if not w.ok]
        return t("manycalls.not_passed", problems=t("manycalls.sep").join(broken + list(self.problems)))

    @property
    def title(self) -> str:
        return t("manycalls.title")

    def text(self) -> str:
        lines = [self.title]
        lines += [
            t("manycalls.window", n=w.round, calls=w.calls, roundtrip=w.roundtrip, diagnosis=w.diagnosis)
            for w in self.windows
        ]
        lines += [t("manycalls.pairing", problem=p) for p in self.problems]
        return "\n".join([*lines, t("manycalls.verdict_label") + self.verdict()])

    def repr_args(self) -> str:
        return f"ok={self.ok}, windows={len(self.windows)}, problems={len(self.problems)}"

    def html(self) -> str:
        failed = t("manycalls.failed_word")
        rows = [
            (
                w.round,
                w.calls,
                w.roundtrip,
                w.diagnosis,
                status("pass", status_word("pass")) if w.ok else status("fail", failed),
            )
            for w in self.windows
        ]
        head = (t("manycalls.head.round"), t("manycalls.head.calls"), "verify-roundtrip", "diagnose")
        table = html_table((*head, t("manycalls.head.verdict")), rows)
        extra = "".join(f"<li>{esc(p)}</li>" for p in self.problems)
        listing = f"<ul>{extra}</ul>" if extra else ""
        badge = status_badge("pass", status_word("pass")) if self.ok else status_badge("fail", failed)
        return f"{table}{listing}<p>{esc(t('manycalls.verdict_label'))}{badge} {esc(self.verdict())}</p>"


def windows(trace: object) -> list[tuple[int, JSONObject]]:
    """``(k, window)`` for every round k whose response holds calls that a service answered.

    A call that timed out has a request but no reply; like a call that never reached a
    service, only the pairing rules apply to it (its feedback must say so).
    """
    data = _as_dict(trace)
    found: list[tuple[int, JSONObject]] = []
    records = raw_call_records(data)
    timed_out = {r.call_id for r in ledger(data) if r.status == "timeout"}
    for r in q.model_rounds(data):
        k = r.n
        ids = {str(c.call_id) for c in q.calls(data, k)}
        mine = [x for x in records if str(x.get("call_id")) in ids]
        reached = [x for x in mine if x.get("mcp_id") is not None and str(x.get("call_id")) not in timed_out]
        if reached:
            found.append((k, _window(data, k, mine, reached)))
    return found


def _without(event: JSONObject, fields: JSON) -> JSONObject:
    """A ``tools/call`` request event without the call layer's own argument fields."""
    event = copy.deepcopy(event)
    arguments = get_in(event, "body", "params", "arguments")
    if isinstance(arguments, dict) and isinstance(fields, list):
        for name in fields:
            arguments.pop(str(name), None)
    return event


def _window(data: JSONObject, k: int, records: list[JSONObject], reached: list[JSONObject]) -> JSONObject:
    # only the calls that reached a service: one refused before it ran (declined, a conflict) has no
    # exchange to verify, and the pairing rules of check_calls cover it
    mine = {str(x.get("call_id")) for x in reached}
    rename = {f"request_{k}": "request_1", f"response_{k}": "response_1"}
    rename |= {f"request_{k + 1}": "request_2", f"response_{k + 1}": "response_2"}
    calls = {(x.get("service"), a) for x in reached for a in attempts_of(x) or [x.get("mcp_id")]}
    # fields the application's call layer added itself (lesson 32's key) are not the model's values:
    # they are set aside so that the single-call rule "the model's values reach the service" applies
    filled = {
        (x.get("service"), a): x["filled"]
        for x in reached
        if isinstance(x.get("filled"), list)
        for a in attempts_of(x) or [x.get("mcp_id")]
    }
    events: list[JSON] = []
    for event in objects(data.get("events")):
        label, body = event.get("label"), _object(event.get("body"))
        if event.get("channel") == "model":
            if label not in rename:
                continue
            event = {**event, "label": rename[str(label)], "body": _project(body, mine)}
        elif label == "tools/call":
            service = event.get("to") if "method" in body else event.get("from")
            if (service, body.get("id")) not in calls:
                continue
            added = filled.get((service, body.get("id"))) if "method" in body else None
            if added:
                event = _without(event, added)
        events.append(event)
    kept: list[JSON] = [x for x in records if x in reached]
    window: JSONObject = copy.deepcopy({**data, "events": events, "links": kept})
    window["answer"] = data.get("answer") if q.model_body(data, f"response_{k + 1}") is not None else None
    return window


def _object(value: JSON) -> JSONObject:
    return value if isinstance(value, dict) else {}


def _as_dict(trace: object) -> JSONObject:
    return _object(q.as_data(trace))


def _project(body: JSONObject, mine: set[str]) -> JSONObject:
    """A request (or reply) without the calls and outputs of other rounds or of calls that never ran."""
    projected = dict(body)
    for key in ("input", "output"):
        items = body.get(key)
        if isinstance(items, list):
            projected[key] = [
                i
                for i in items
                if not (
                    isinstance(i, dict) and i.get("type") in _PAIRED and str(i.get("call_id")) not in mine
                )
            ]
    return projected


def verify_calls(trace: object) -> ManyCallsReport:
    """Check a many-call trace window by window, then its pairing as a whole (lesson 31).

    Anything that is not a trace raises ValueError saying what it is not; a trace without a
    single model round fails (nothing was checked, so nothing passed).
    """
    from lessons_lib.checks.doctor import diagnose
    from lessons_lib.checks.evidence import checked_trace
    from lessons_lib.checks.verify import verify_roundtrip

    data = checked_trace(_as_dict(trace))
    last = len(q.model_rounds(data))
    results = []
    stopped = get_in(data, "outcome", "status") == "stopped"
    for k, window in windows(data):
        calls = len(q.calls(data, k))
        if k == last and stopped:
            note = t("manycalls.stopped")
            results.append(WindowResult(k, calls, note, note, True))
            continue
        continues = k + 1 < last or (k + 1 == last and get_in(data, "outcome", "status") != "answered")
        report = verify_roundtrip(window, sabotage=False)
        failed = [c for c in report.checks if not c.passed and not (continues and c.key in _END_RULES)]
        diagnosis = diagnose(window)
        broken = diagnosis.broken
        tolerated = broken is not None and continues and broken.key == _END_LINK
        reasons = t("manycalls.sep").join(
            t("manycalls.rt_failed", name=c.name, reason=c.reason) for c in failed
        )
        rt_text = t("manycalls.rt_passed") if not failed else t("manycalls.not_passed", problems=reasons)
        if broken is None:
            dx_text = diagnosis.verdict()
        elif tolerated:
            dx_text = t("manycalls.continues")
        else:
            dx_text = diagnosis.verdict()
        results.append(WindowResult(k, calls, rt_text, dx_text, not failed and (broken is None or tolerated)))
    empty = () if last else (t("hostile.no_model_round"),)
    return ManyCallsReport(tuple(results), (*empty, *check_calls(data)))
