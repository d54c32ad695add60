"""Rules and values: is a declaration a rule, is a value a value of the declared type? Lessons 07-08.

A rule (``parameters`` / ``inputSchema``) says how a value must be filled and carries no value
of this call; the call's ``arguments`` is JSON text whose values follow that rule, and the MCP
``params.arguments`` is the same values as an object. Each helper returns a short summary for
a PASS line or raises ``Fail`` with the reason. Standard library only.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Sequence
from typing import Final

from lessons_lib.checks.jsoncheck import Fail, json_kind, need, obj, show
from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, same
from lessons_lib.core.messages import t
from lessons_lib.core.paths import LOGICAL_ROOT

JSON_TYPES: Final = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})
_VALUE_KEYS: Final = ("const", "default", "enum", "examples")


def rule_summary(schema: object, where: str) -> str:
    """'path: string, head: number' if the schema is a rule made of types, else Fail."""
    s = obj(schema, where)
    need(
        s.get("type", "object") == "object", t("rules.type_not_object", where=where, got=show(s.get("type")))
    )
    props = obj(s.get("properties"), f"{where}.properties")
    parts = []
    for name, rule in props.items():
        need(
            isinstance(rule, dict),
            t("rules.value_in_rule", where=where, name=name, got=show(rule)),
        )
        kind = rule.get("type")
        kinds = kind if isinstance(kind, list) else [kind]
        valid = bool(kinds) and all(isinstance(k, str) and k in JSON_TYPES for k in kinds)
        need(
            valid or (kind is None and any(k in rule for k in ("anyOf", "oneOf", "$ref"))),
            t("rules.not_a_type", where=where, name=name, got=show(kind)),
        )
        parts.append(f"{name}: {'|'.join(kinds) if valid else 'anyOf'}")
    required = s.get("required", [])
    need(
        isinstance(required, list) and all(isinstance(r, str) and r in props for r in required),
        t("rules.required", where=where, got=show(required)),
    )
    return ", ".join(parts) or t("rules.no_parameters")


def value_in_rule(schema: object, values: Sequence[JSON], where: str) -> str | None:
    """Where a rule carries one of this call's values (in const/default/enum/examples or a string)."""
    if isinstance(schema, dict):
        for key, sub in schema.items():
            here = f"{where}.{key}"
            candidates = (
                sub if key in _VALUE_KEYS and isinstance(sub, list) else [sub] if key in _VALUE_KEYS else []
            )
            if isinstance(sub, str):
                candidates.append(sub)
            if any(same(c, v) for c in candidates for v in values):
                return f"{here} = {show(sub)}"
            found = value_in_rule(sub, values, here)
            if found:
                return found
    elif isinstance(schema, list):
        for n, sub in enumerate(schema):
            found = value_in_rule(sub, values, f"{where}[{n}]")
            if found:
                return found
    return None


def looks_like_rule(value: object) -> bool:
    return isinstance(value, dict) and (
        value.get("type") in JSON_TYPES or "properties" in value or "$schema" in value
    )


def type_ok(value: object, kind: object) -> bool:
    kinds = kind if isinstance(kind, list) else [kind]
    checks = {
        "string": lambda v: isinstance(v, str),
        "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
        "integer": lambda v: (
            (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer())
        ),
        "boolean": lambda v: isinstance(v, bool),
        "object": lambda v: isinstance(v, dict),
        "array": lambda v: isinstance(v, list),
        "null": lambda v: v is None,
    }
    return kind is None or any(k in checks and checks[k](value) for k in kinds)


def values_follow_rule(args: JSONObject, schema: JSONObject) -> str:
    """'path="/workspace/notes.txt"，head=20' if every value is a value of the declared type, else Fail."""
    given = schema.get("properties")
    props = given if isinstance(given, dict) else {}
    for key, value in args.items():
        need(not looks_like_rule(value), t("rules.rule_as_value", key=key, got=show(value)))
        declared_names = ", ".join(props) or t("rules.none")
        need(key in props, t("rules.undeclared", key=key, declared=declared_names))
        declared = get_in(props, key, "type")
        need(
            type_ok(value, declared),
            t("rules.wrong_type", key=key, got=show(value), kind=json_kind(value), declared=show(declared)),
        )
    required = schema.get("required")
    missing = (
        [r for r in required if isinstance(r, str) and r not in args] if isinstance(required, list) else []
    )
    need(not missing, t("rules.missing_required", name=missing[0] if missing else ""))
    return t("rules.values_sep").join(f"{k}={show(v)}" for k, v in args.items())


def parse_arguments(call: object, where: str = "model_call.arguments") -> JSONObject:
    """The model's arguments text parsed to an object, else Fail saying why."""
    text = obj(call, t("rules.model_call")).get("arguments")
    if not isinstance(text, str):
        raise Fail(t("rules.arguments_not_text", where=where, kind=json_kind(text)))
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Fail(t("rules.arguments_invalid", where=where, msg=exc.msg, pos=exc.pos + 1)) from None
    if not isinstance(parsed, dict):
        raise Fail(t("rules.arguments_not_object", where=where, kind=json_kind(parsed)))
    return parsed


def mcp_arguments(request: object) -> JSONObject:
    """The MCP tools/call ``params.arguments`` object, else Fail saying why."""
    need(request is not None, t("rules.no_mcp_request"))
    req = obj(request, "mcp_request")
    need(
        req.get("method") == "tools/call",
        t("rules.not_tools_call", got=show(req.get("method"))),
    )
    args = obj(req.get("params"), "mcp_request.params").get("arguments")
    if not isinstance(args, dict):
        raise Fail(t("rules.mcp_arguments", kind=json_kind(args)))
    return args


def call_values(fr: JSONObject) -> JSONObject:
    """This call's values: the parsed arguments text, else the MCP arguments, else {}."""
    for read in (lambda: parse_arguments(fr.get("model_call")), lambda: mcp_arguments(fr.get("mcp_request"))):
        try:
            return read()
        except Fail:
            continue
    return {}


def normalised(path: str, root: str = LOGICAL_ROOT) -> str:
    """A logical path with ``..`` and ``.`` resolved (a relative path counts from the root)."""
    return posixpath.normpath(path if path.startswith("/") else posixpath.join(root, path))


def inside_root(path: str, root: str = LOGICAL_ROOT) -> str | None:
    """The normalised logical path if it stays under the root, else None."""
    norm = normalised(path, root)
    return norm if norm == root or norm.startswith(root + "/") else None
