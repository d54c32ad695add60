"""The offline stand-in for the order desk: a deterministic rule program, not a language model.

Introduced in lesson 30. It extends :class:`~lessons_lib.apis.responses.standin.OfflineModel`
(same transport behind the real ``openai`` SDK, same documented Response shapes) with rules
for the order desk, read from the user's task and from what the input already holds:

- no order id in a task that needs one -> no call: it asks for the id (the tool-calling SOP, rule 1);
- round 1 -> ``get_order`` and, when the task asks for a policy, ``search_delivery_policy``
  in the same reply (parallel calls);
- once the order is back -> ``track_shipment`` with the waybill number it carries (the
  dependent call) and/or ``create_investigation`` (order, reason, note: the idempotency key is
  not the model's to write; the application's call layer adds it, lesson 32);
- everything asked is answered, or a call failed -> an answer that cites the evidence, or
  says what failed (never a retry of the same call, the tool-calling SOP, rule 3).

:class:`Quirks` make it break the rules on purpose (invalid JSON, an invented id, a call
that repeats forever, a failed HTTP reply) so that lessons 32-33 can show which of the
application's checks still hold.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Final

import httpx2

from lessons_lib.apis.responses.standin import OfflineModel
from lessons_lib.core.example import FAILURE_PREFIX
from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, objects
from lessons_lib.core.messages import t
from lessons_lib.engine.standins.calls import function_calls
from lessons_lib.engine.standins.shapes import error_reply, response_body
from lessons_lib.services.orders.wiretext import BOUGHT as _BOUGHT
from lessons_lib.services.orders.wiretext import ORDER_TOKEN as _ORDER_TOKEN
from lessons_lib.services.orders.wiretext import POLICY_WORDS, TRACK_WORDS, WRITE_WORD
from lessons_lib.services.orders.wiretext import REASONS as _REASONS
from lessons_lib.services.orders.wiretext import REGIONS as _REGIONS
from lessons_lib.services.orders.wiretext import TOPICS as _TOPICS
from lessons_lib.services.orders.words import tool_name, value_word

_MORE_IDS = re.compile(r"(?<![A-Za-z0-9])O-[0-9]+(?![0-9])")
_FINDER: Final = "finder__find_orders"


def label() -> str:
    """The stand-in's name in a trace, in the current language."""
    return t("orders_standin.label")


@dataclass
class Quirks:
    """Ways the stand-in breaks the rules on purpose (each off by default)."""

    bad_json_once: bool = False
    invent_order_id: bool = False
    repeat_forever: bool = False
    fail_http_after_write: int = 0
    """Answer this many requests that carry a write's result with HTTP 503 (model-layer retry)."""


@dataclass
class OrdersModel(OfflineModel):
    """The order desk's stand-in: one instance per run (it counts turns and injected failures)."""

    quirks: Quirks = field(default_factory=Quirks)
    failed_http: int = 0

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(await request.aread() or b"{}")
        if self.failed_http < self.quirks.fail_http_after_write and _has_write_result(body):
            self.failed_http += 1
            self.turns += 1
            return error_reply(request, 503, "the offline stand-in plays an overloaded model API (injected)")
        return await super().handle_async_request(request)

    def respond(self, body: JSONObject) -> JSONObject:
        items = objects(body.get("input"))
        aliases = {str(t.get("name", "")): t for t in objects(body.get("tools"))}
        output = plan(_task(items), items, aliases, self.quirks, self.turns)
        if not isinstance(output, str) and body.get("parallel_tool_calls") is False:
            output = output[:1]  # the request allows one call per reply: the rest wait a round
        if isinstance(output, str):
            return response_body(f"resp_offline_{self.turns:03d}", body, [self._message(output)])
        return response_body(f"resp_offline_{self.turns:03d}", body, function_calls(self.turns, output))


def plan(
    task: str, items: list[JSONObject], tools: dict[str, JSONObject], quirks: Quirks, turn: int
) -> str | list[tuple[str, str]]:
    """The next move: an answer text, or ``(alias, arguments text)`` calls. Pure: lesson 31."""
    done = _results(items)
    order_id = _order_id(task, quirks)
    wants_track = any(w in task for w in TRACK_WORDS)
    wants_policy = any(w in task for w in POLICY_WORDS)
    wants_write = WRITE_WORD in task
    failures = [(alias, r) for alias, r in done if r is None or r.get("status") == "error"]
    if failures and not quirks.repeat_forever:
        return _failure_answer(failures)
    if quirks.repeat_forever and failures:
        alias, _ = failures[-1]
        return [(alias, _last_arguments(items, alias))]
    by_alias = {alias: r for alias, r in done if r is not None}
    if order_id is None and _FINDER in tools:  # the tool-calling SOP: search first, then look up (finder.py)
        found = by_alias.get(_FINDER)
        keyword = _BOUGHT.search(task)
        if found is None and keyword:
            return [(_FINDER, _args({"keyword": keyword.group(1)}))]
        matches = objects((found or {}).get("items"))
        if len(matches) == 1:
            order_id = str(matches[0]["order_id"])
        elif matches:
            listed = t("orders_standin.sep").join(
                t("orders_standin.candidate", order_id=m["order_id"], item=m["item"]) for m in matches
            )
            return t("orders_standin.candidates", listed=listed)
    if order_id is None and (wants_track or wants_write or not wants_policy):
        return t("orders_standin.ask_id")
    wanted: list[tuple[str, str]] = []
    if order_id is not None:
        more = [m for m in _MORE_IDS.findall(task) if m not in order_id]
        wanted += [
            ("orders__get_order", _args({"order_id": oid})) for oid in dict.fromkeys([order_id, *more])
        ]
    if wants_policy:
        query: JSONObject = {"topic": _pick(task, _TOPICS, "delay")}
        region = _pick(task, _REGIONS, None)
        if region is not None:
            query["region"] = region
        wanted.append(("orders__search_delivery_policy", _args(query)))
    order = _object((by_alias.get("orders__get_order") or {}).get("order"))
    if order:
        if wants_track and order.get("waybill_no"):
            wanted.append(("orders__track_shipment", _args({"waybill_no": order["waybill_no"]})))
        if wants_write:  # one write per reason the user names, all in one reply (lesson 31's conflict)
            named = sorted((task.find(w), v) for w, v in _REASONS if w in task)  # in the user's order
            for reason in [v for _, v in named] or ["delayed"]:
                wanted.append(("orders__create_investigation", _investigation_args(reason, task, order)))
    made = {(str(i.get("name")), str(i.get("arguments"))) for i in items if i.get("type") == "function_call"}
    calls = [c for c in wanted if c not in made]
    if calls:
        if quirks.bad_json_once and turn == 1:
            first_alias, first_args = calls[0]
            calls[0] = (first_alias, first_args[:-1])  # the closing brace is missing
        return calls
    return _answer(by_alias, [r for alias, r in done if alias == "orders__get_order" and r])


def _investigation_args(reason: str, task: str, order: JSONObject) -> str:
    # No idempotency key: the application's call layer adds it from the intent (calllayer.py);
    # the model is never declared that field. The note is the user's own words, so it differs
    # from one wording of the same intent to the next, as a real model's would.
    return _args({"order_id": order["order_id"], "reason": reason, "note": task[:200]})


def _answer(results: dict[str, JSONObject], orders: list[JSONObject]) -> str:
    parts: list[str] = []
    for got in orders:
        o, ev = _object(got["order"]), _object(got["evidence"])
        parts.append(
            t(
                "orders_standin.order",
                order_id=o["order_id"],
                item=o["item"],
                status=value_word(o["status"]),
                waybill=o["waybill_no"] or t("orders_standin.no_waybill"),
                version=ev["order_version"],
                when=_when(str(ev["updated_at"])),
            )
        )
    shipped = results.get("orders__track_shipment")
    if shipped and shipped.get("shipment"):
        s = _object(shipped["shipment"])
        stamp, _, event = str(s["last_event"]).partition(" ")
        parts.append(
            t(
                "orders_standin.shipment",
                carrier=s["carrier"],
                status=value_word(s["status"]),
                when=_when(stamp),
                event=event,
            )
        )
    found = results.get("orders__search_delivery_policy")
    if found is not None:
        titles = t("orders_standin.sep").join(
            t("orders_standin.policy", policy_id=p["policy_id"], title=p["title"])
            for p in objects(found.get("items", []))
        )
        more = t("orders_standin.more_policies") if get_in(found, "paging", "truncated") else ""
        parts.append(
            t("orders_standin.policies", titles=titles or t("orders_standin.no_policies"), more=more)
        )
    made = results.get("orders__create_investigation")
    if made and made.get("investigation"):
        inv = _object(made["investigation"])
        verb = t("orders_standin.created" if made["status"] == "created" else "orders_standin.replayed")
        parts.append(
            t(
                "orders_standin.investigation",
                investigation_id=inv["investigation_id"],
                verb=verb,
                reason=value_word(inv["reason"]),
            )
        )
    return "\n".join(parts) or t("orders_standin.nothing")


def _when(iso: str) -> str:
    """How the stand-in tells a time to the user: ``2026-08-06T11:20:00Z`` -> ``2026-08-06 11:20 UTC``."""
    return f"{iso[:10]} {iso[11:16]} UTC" if len(iso) >= 16 and iso[10] == "T" else iso


def _object(value: JSON) -> JSONObject:
    return value if isinstance(value, dict) else {}


def _failure_answer(failures: list[tuple[str, JSONObject | None]]) -> str:
    alias, result = failures[-1]
    tool = tool_name(alias.split("__", 1)[-1])
    if result is None:
        return t("orders_standin.unavailable", tool=tool)
    error = _object(result.get("error"))
    message = str(error.get("message", ""))
    if error.get("code") == "declined":
        return t("orders_standin.declined", tool=tool)
    if error.get("code") == "internal":
        # the desk says the fault may pass and nothing was written: waiting and trying again is safe
        return t("orders_standin.internal", tool=tool)
    if error.get("code") == "conflict" and "in this reply" in message:
        # the application ran only the first write to this order (lesson 31): say so, ask about the rest
        return t("orders_standin.conflict")
    if error.get("code") == "not_found":
        return t("orders_standin.not_found", tool=tool)
    if error.get("code") == "permission_revoked":
        return t("orders_standin.revoked", tool=tool, reason=t("orders_standin.revoked_reason"))
    if error.get("code") == "conflict" and "idempotency key" in message:
        # the key names an intent already written with other values (one rule): nothing new
        return t("hostile.standin_key_conflict", tool=tool)
    return t("orders_standin.failed", tool=tool)


def _results(items: list[JSONObject]) -> list[tuple[str, JSONObject | None]]:
    """(alias, parsed result or None) for every output, in input order."""
    names = {i.get("call_id"): i.get("name", "") for i in items if i.get("type") == "function_call"}
    found: list[tuple[str, JSONObject | None]] = []
    for item in items:
        if item.get("type") != "function_call_output":
            continue
        text = str(item.get("output", ""))
        if "not valid JSON" in text:
            continue  # nothing ran: the call is planned again, this time as valid JSON
        body = text[len(FAILURE_PREFIX) :] if text.startswith(FAILURE_PREFIX) else text
        try:
            parsed = json.loads(body)
        except ValueError:
            parsed = None
        found.append((str(names.get(item.get("call_id"), "")), parsed if isinstance(parsed, dict) else None))
    return found


def _has_write_result(body: JSONObject) -> bool:
    items = objects(body.get("input"))
    return any(alias == "orders__create_investigation" and r is not None for alias, r in _results(items))


def _order_id(task: str, quirks: Quirks) -> str | None:
    found = _ORDER_TOKEN.search(task)
    if found:
        return found.group(1)  # copied as written, however hostile: the desk must refuse it
    return "O-1" if quirks.invent_order_id else None


def _last_arguments(items: list[JSONObject], alias: str) -> str:
    calls = [i for i in items if i.get("type") == "function_call" and i.get("name") == alias]
    return str(calls[-1].get("arguments", "{}")) if calls else "{}"


def _pick(task: str, table: tuple[tuple[str, str], ...], default: str | None) -> str | None:
    return next((value for word, value in table if word in task), default)


def _args(values: JSONObject) -> str:
    return json.dumps(values, ensure_ascii=False)


def _task(items: list[JSONObject]) -> str:
    for item in items:
        if item.get("role") == "user" and isinstance(item.get("content"), str):
            return str(item["content"])
    return ""
