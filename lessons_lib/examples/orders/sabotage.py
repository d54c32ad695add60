"""Many-call sabotages: break a correct trace in one way, and the checks must say which. Lesson 32.

Each sabotage edits a copy of a real trace the way a buggy application would (pair an output
with the wrong call, drop one, answer a call twice, invent one, change the arguments on the
way, write twice for one intent); :func:`try_sabotages` runs
:func:`~lessons_lib.checks.ledger.check_calls` on each copy and reports whether it was
rejected, and with which sentence. Standard library only.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from lessons_lib.checks.ledger import check_calls
from lessons_lib.core.display import Displayable
from lessons_lib.core.htmltable import code, html_table, status
from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, objects
from lessons_lib.core.messages import LANGUAGES, t, text_in

Edit = Callable[[JSONObject], None]


def _object(value: JSON) -> JSONObject:
    """The value when it is a JSON object; a good trace has one there (else TypeError)."""
    if not isinstance(value, dict):
        raise TypeError(f"expected a JSON object, got {type(value).__name__}")
    return value


def _input(body: JSONObject) -> list[JSON]:
    """The request's ``input`` list itself (the edits change it in place)."""
    items = body["input"]
    if not isinstance(items, list):
        raise TypeError("the request has no input list")
    return items


def _request(trace: JSONObject, n: int) -> JSONObject:
    return next(_object(e["body"]) for e in objects(trace["events"]) if e.get("label") == f"request_{n}")


def _outputs(body: JSONObject) -> list[JSONObject]:
    return [i for i in objects(_input(body)) if i.get("type") == "function_call_output"]


def _swap_outputs(trace: JSONObject) -> None:
    first, second = _outputs(_request(trace, 2))[:2]
    first["output"], second["output"] = second["output"], first["output"]


def _drop_output(trace: JSONObject) -> None:
    body = _request(trace, 2)
    _input(body).remove(_outputs(body)[-1])


def _answer_twice(trace: JSONObject) -> None:
    body = _request(trace, 2)
    _input(body).append(copy.deepcopy(_outputs(body)[0]))


def _invent_output(trace: JSONObject) -> None:
    body = _request(trace, 2)
    _input(body).append({"type": "function_call_output", "call_id": "call_never_made", "output": "{}"})


def _change_arguments(trace: JSONObject) -> None:
    sent = next(e["body"] for e in objects(trace["events"]) if get_in(e, "body", "method") == "tools/call")
    _object(get_in(sent, "params", "arguments"))["order_id"] = "O-1043"


def _replay_becomes_create(trace: JSONObject) -> None:
    """The second write of one intent reports ``created``: as if no key had deduplicated it."""
    for event in objects(trace["events"]):
        text = json.dumps(event["body"], ensure_ascii=False)
        if '\\"status\\": \\"replayed\\"' in text or '"status": "replayed"' in text:
            text = text.replace('\\"status\\": \\"replayed\\"', '\\"status\\": \\"created\\"')
            text = text.replace('"status": "replayed"', '"status": "created"')
            event["body"] = json.loads(text)


@dataclass(frozen=True)
class CallSabotage:
    """One way to break a many-call trace, and the words its rejection must contain."""

    key: str
    base: str
    """Which scenario's trace it breaks: ``parallel`` (two calls in round 1) or ``retry``."""
    edit: Edit

    @property
    def title(self) -> str:
        """What the sabotage does, in the current language (``orders_sabotage.title.<key>``)."""
        return t(f"orders_sabotage.title.{self.key}")

    @property
    def expect(self) -> str:
        """The words of :func:`check_calls` its rejection must contain, in the current language."""
        return t(f"orders_sabotage.expect.{self.key}")

    def rejects(self, problem: str) -> bool:
        """Whether a sentence of the checks is this sabotage's: its words in either language.

        The checks speak the notebook's language (``checks/ledger.py``); a sentence still in
        Chinese in the English edition is matched by the Chinese words.
        """
        return any(text_in(lang, f"orders_sabotage.expect.{self.key}") in problem for lang in LANGUAGES)


SABOTAGES: Final = (
    CallSabotage("wrong_pairing", "parallel", _swap_outputs),
    CallSabotage("missing_output", "parallel", _drop_output),
    CallSabotage("answered_twice", "parallel", _answer_twice),
    CallSabotage("phantom_output", "parallel", _invent_output),
    CallSabotage("changed_arguments", "parallel", _change_arguments),
    CallSabotage("duplicated_write", "retry", _replay_becomes_create),
)


@dataclass(frozen=True)
class SabotageResult:
    key: str
    title: str
    rejected: bool
    message: str


@dataclass(frozen=True, repr=False)
class SabotageTable(Displayable):
    """Every sabotage with the checks' answer (lesson 32)."""

    results: tuple[SabotageResult, ...]

    @property
    def ok(self) -> bool:
        return all(r.rejected for r in self.results)

    def text(self) -> str:
        lines = [
            t(
                "orders_sabotage.line",
                title=r.title,
                key=r.key,
                verdict=t("orders_sabotage.rejected" if r.rejected else "orders_sabotage.missed"),
                message=r.message,
            )
            for r in self.results
        ]
        return "\n".join(lines)

    def repr_args(self) -> str:
        return f"ok={self.ok}, sabotages={len(self.results)}"

    def html(self) -> str:
        rows = [
            (
                r.title,
                code(r.key),
                status("pass", t("orders_sabotage.rejected"))
                if r.rejected
                else status("fail", t("orders_sabotage.missed")),
                r.message,
            )
            for r in self.results
        ]
        heads = tuple(t(f"orders_sabotage.head.{k}") for k in ("sabotage", "key", "result", "words"))
        return html_table(heads, rows)


def try_sabotages(traces: Mapping[str, object]) -> SabotageTable:
    """Apply every sabotage to a copy of its base trace (``{"parallel": ..., "retry": ...}``)."""
    results = []
    for s in SABOTAGES:
        broken = copy.deepcopy(_as_dict(traces[s.base]))
        if check_calls(broken):
            raise ValueError(f"the {s.base} trace fails the checks before any sabotage: give a correct trace")
        s.edit(broken)
        found = [p for p in check_calls(broken) if s.rejects(p)]
        message = found[0] if found else "; ".join(check_calls(broken)) or t("orders_sabotage.none_failed")
        results.append(SabotageResult(s.key, s.title, bool(found), message))
    return SabotageTable(tuple(results))


try_call_sabotages = try_sabotages
"""The facade's name for :func:`try_sabotages` (lesson 32)."""


def _as_dict(trace: object) -> JSONObject:
    to_dict = getattr(trace, "to_dict", None)
    data = to_dict() if callable(to_dict) else trace
    return data if isinstance(data, dict) else {}


__all__ = ["SABOTAGES", "CallSabotage", "SabotageTable", "try_call_sabotages", "try_sabotages"]
