"""The six round-trip checks of ``verify_roundtrip`` and its three built-in sabotages. Lesson 07.

Each check takes the round trip (``lessons_lib.roundtrip/1``, see ``lessons_lib.checks.verify``) and
returns the PASS reason or raises ``Fail``. ``trials`` breaks a copy three ways (wrong
call_id, dropped call, arguments as an object) and passes only if the checks reject each.
Standard library only.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any, Final

from lessons_lib.checks._rules import parse_arguments, rule_summary, values_follow_rule
from lessons_lib.checks.attachments import fragments_from_roundtrip
from lessons_lib.checks.evidence import call_items, is_call, is_output, message_text, output_items
from lessons_lib.checks.fieldchecks import (
    check_feedback,
    check_mcp_pair,
    check_route,
    check_text_object,
    check_values_equal,
    need_not_mcp_id,
)
from lessons_lib.checks.jsoncheck import list_of, need, obj, show
from lessons_lib.checks.verify_report import Check, run_check
from lessons_lib.core.jsonvalue import JSONObject, diff_path, get_in, objects, same
from lessons_lib.core.messages import t
from lessons_lib.core.plugins.apishapes import input_items


def check_declaration_kept(roundtrip: object) -> str:
    """Both requests carry the same tools, and every call names a declared tool."""
    rt = obj(roundtrip, t("roundtripchecks.where.roundtrip"))
    first = obj(rt.get("request_1"), "request_1")
    need(rt.get("request_2") is not None, t("roundtripchecks.no_request_2.results"))
    second = obj(rt.get("request_2"), "request_2")
    tools = list_of(first.get("tools"), "request_1.tools")
    need(tools, t("roundtripchecks.no_tools"))
    changed = diff_path(tools, second.get("tools"), "tools")
    need(changed is None, t("roundtripchecks.tools_changed", changed=changed))
    names = []
    for n, tool in enumerate(tools):
        entry = obj(tool, f"request_1.tools[{n}]")
        if entry.get("type") == "function":
            rule_summary(entry.get("parameters"), f"request_1.tools[{n}].parameters")
            names.append(str(entry.get("name")))
    for call in call_items(rt.get("response_1")):
        need(
            call.get("name") in names,
            t("roundtripchecks.undeclared", name=show(call.get("name")), names=", ".join(names)),
        )
    declared = ", ".join(names) or t("roundtripchecks.no_function_tools")
    return t("roundtripchecks.declaration_kept", names=declared)


def check_context(roundtrip: object) -> str:
    """The second input keeps the task and the original call, then adds the feedback."""
    rt = obj(roundtrip, t("roundtripchecks.where.roundtrip"))
    first = obj(rt.get("request_1"), "request_1")
    need(rt.get("request_2") is not None, t("roundtripchecks.no_request_2.context"))
    second = obj(rt.get("request_2"), "request_2")
    before, after = input_items(first), input_items(second)
    need(before, t("roundtripchecks.no_task"))
    need(isinstance(second.get("input"), list), t("roundtripchecks.input_not_list"))
    changed = diff_path(before, after[: len(before)], "input")
    need(changed is None, t("roundtripchecks.input_changed", changed=changed))
    calls = call_items(rt.get("response_1"))
    need(calls, t("roundtripchecks.no_call.continue"))
    rest = after[len(before) :]
    for call in calls:
        kept = [
            n for n, item in enumerate(rest) if is_call(item) and item.get("call_id") == call.get("call_id")
        ]
        need(
            kept,
            t("roundtripchecks.call_dropped", call_id=show(call.get("call_id"))),
        )
        changed = _call_copy_diff(call, rest[kept[0]])
        need(changed is None, t("roundtripchecks.call_changed", changed=changed))
        later = [i for i in rest[kept[0] + 1 :] if is_output(i)]
        need(later, t("roundtripchecks.no_output_after", call_id=call.get("call_id")))
    n_out = len(output_items(second))
    return t("roundtripchecks.context", before=len(before), calls=len(calls), outputs=n_out)


def _call_copy_diff(call: JSONObject, copy_: JSONObject) -> str | None:
    """The first key where the copy in the next input differs from the call (status may be left out)."""
    for key in ("type", "call_id", "name", "arguments", "id", "status"):
        if (key == "status" and key not in copy_) or (key == "id" and key not in call and key not in copy_):
            continue
        if key not in copy_ or not same(call.get(key), copy_.get(key)):
            return key
    return None


def check_values_passed(fragments: object) -> str:
    """arguments is JSON text whose values follow the rule and reach the service unchanged."""
    check_text_object(fragments)
    equal = check_values_equal(fragments)
    fr = obj(fragments, t("roundtripchecks.where.fragments"))
    decl = obj(fr.get("declaration"), t("roundtripchecks.where.declaration"))
    parameters = obj(decl.get("parameters"), t("roundtripchecks.where.parameters"))
    values_follow_rule(parse_arguments(fr.get("model_call")), parameters)
    return t("roundtripchecks.values_passed", equal=equal)


def check_id_domains(roundtrip: object, fragments: object) -> str:
    """call_id pairs inside the model exchange, the MCP id inside the MCP exchange; links tie them."""
    rt = obj(roundtrip, t("roundtripchecks.where.roundtrip"))
    calls = call_items(rt.get("response_1"))
    need(calls, t("roundtripchecks.no_call.pair"))
    need(rt.get("request_2") is not None, t("roundtripchecks.no_request_2.pair"))
    outs = output_items(rt.get("request_2"))
    ids = [c.get("call_id") for c in calls]
    mcp_id = (rt.get("mcp_request") or {}).get("id") if isinstance(rt.get("mcp_request"), dict) else None
    for out in outs:
        got = out.get("call_id")
        need_not_mcp_id(got, ids, mcp_id)
        need(
            got in ids,
            t("roundtripchecks.unknown_call_id", got=show(got), ids=", ".join(map(str, ids))),
        )
    for call_id in ids:
        count = sum(1 for o in outs if o.get("call_id") == call_id)
        need(count == 1, t("roundtripchecks.feedback_count", call_id=call_id, count=count))
    check_mcp_pair(fragments)
    need(isinstance(rt.get("links"), list), t("roundtripchecks.no_links"))
    route = check_route(fragments)
    return t("roundtripchecks.id_domains", route=route)


def check_answer(roundtrip: object) -> str:
    """The second response carries the model's answer text."""
    rt = obj(roundtrip, t("roundtripchecks.where.roundtrip"))
    need(rt.get("response_2") is not None, t("roundtripchecks.no_response_2"))
    text = message_text(obj(rt.get("response_2"), "response_2"))
    need(text, t("roundtripchecks.no_answer"))
    return t("roundtripchecks.answer", n=len(text))


def roundtrip_checks(rt: object) -> list[Check]:
    """The six checks of ``verify_roundtrip`` on one round trip, in order."""
    fr = fragments_from_roundtrip(rt)
    checks: list[tuple[str, Callable[..., str], tuple[object, ...]]] = [
        ("declaration_kept", check_declaration_kept, (rt,)),
        ("context", check_context, (rt,)),
        ("values", check_values_passed, (fr,)),
        ("ids", check_id_domains, (rt, fr)),
        ("tool_text", check_feedback, (fr,)),
        ("answer", check_answer, (rt,)),
    ]
    return [run_check(key, t(f"roundtripchecks.check.{key}"), fn, *args) for key, fn, args in checks]


def _trial(key: str, title: str, sabotage: Callable[[Any], Any], rt: object) -> Check:
    try:
        broken = sabotage(copy.deepcopy(rt))
    except Exception as exc:  # a round trip too malformed to sabotage
        return Check(key, title, False, t("roundtripchecks.trial.cannot_apply", error=type(exc).__name__))
    failed = [c for c in roundtrip_checks(broken) if not c.passed]
    if not failed:
        return Check(key, title, False, t("roundtripchecks.trial.not_rejected"))
    reasons = [t("roundtripchecks.trial.reason", name=c.name, reason=c.reason) for c in failed[:2]]
    return Check(
        key,
        title,
        True,
        t("roundtripchecks.trial.rejected", reasons=t("roundtripchecks.trial.sep").join(reasons)),
    )


def _sab_wrong_id(rt: JSONObject) -> JSONObject:
    for item in input_items(rt.get("request_2")):
        if is_output(item):
            item["call_id"] = f"{item.get('call_id')}_wrong"
    return rt


def _sab_drop_call(rt: JSONObject) -> JSONObject:
    request_2 = obj(rt.get("request_2"), "request_2")
    request_2["input"] = [i for i in input_items(request_2) if not is_call(i)]
    return rt


def _sab_arguments_object(rt: JSONObject) -> JSONObject:
    items = input_items(rt.get("request_2")) + objects(get_in(rt, "response_1", "output"))
    for item in items:
        if is_call(item) and isinstance(text := item.get("arguments"), str):
            item["arguments"] = json.loads(text)
    return rt


_BUILT_IN: Final = (
    ("wrong_id", _sab_wrong_id),
    ("dropped_call", _sab_drop_call),
    ("arguments_object", _sab_arguments_object),
)
"""The built-in sabotages by key; each one's title is ``roundtripchecks.sabotage.<key>``."""


def trials(rt: object) -> list[Check]:
    """Each built-in sabotage applied to a copy: PASS when the checks reject it."""
    return [_trial(name, t(f"roundtripchecks.sabotage.{name}"), fn, rt) for name, fn in _BUILT_IN]
