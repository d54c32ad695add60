"""Rules and values: is a declaration a rule, is a value a value of the declared type? Lessons 07-08.

A rule (``parameters`` / ``inputSchema``) says how a value must be filled and carries no value
of this call; the call's ``arguments`` is JSON text whose values follow that rule, and the MCP
``params.arguments`` is the same values as an object. Each helper returns a short summary for
a PASS line or raises ``Fail`` with the reason. Standard library only.
"""

from __future__ import annotations

import json
import posixpath
from typing import Any, Final

from lessons_lib.checks.jsoncheck import Fail, json_kind, need, obj, show
from lessons_lib.core.jsonvalue import JSONObject, same
from lessons_lib.core.paths import LOGICAL_ROOT

JSON_TYPES: Final = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})
_VALUE_KEYS: Final = ("const", "default", "enum", "examples")


def rule_summary(schema: object, where: str) -> str:
    """'path: string, head: number' if the schema is a rule made of types, else Fail."""
    s = obj(schema, where)
    need(
        s.get("type", "object") == "object", f'{where}.type 是 {show(s.get("type"))}，参数规则应当是 "object"'
    )
    props = obj(s.get("properties"), f"{where}.properties")
    parts = []
    for name, rule in props.items():
        need(
            isinstance(rule, dict),
            f'{where}.properties.{name} 是 {show(rule)}：这是值，规则里应当写类型，如 {{"type": "number"}}',
        )
        kind = rule.get("type")
        kinds = kind if isinstance(kind, list) else [kind]
        valid = bool(kinds) and all(isinstance(k, str) and k in JSON_TYPES for k in kinds)
        need(
            valid or (kind is None and any(k in rule for k in ("anyOf", "oneOf", "$ref"))),
            f"{where}.properties.{name}.type 是 {show(kind)}，不是 JSON Schema 的类型名",
        )
        parts.append(f"{name}: {'|'.join(kinds) if valid else 'anyOf'}")
    required = s.get("required", [])
    need(
        isinstance(required, list) and all(isinstance(r, str) and r in props for r in required),
        f"{where}.required 应当列出 properties 里的属性名，实际是 {show(required)}",
    )
    return ", ".join(parts) or "没有参数"


def value_in_rule(schema: object, values: list[Any], where: str) -> str | None:
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


def values_follow_rule(args: dict[str, Any], schema: dict[str, Any]) -> str:
    """'path="/workspace/notes.txt"，head=20' if every value is a value of the declared type, else Fail."""
    props = schema.get("properties") or {}
    for key, value in args.items():
        need(not looks_like_rule(value), f"{key} 的值是 {show(value)}：这是规则（类型说明），不是本次的值")
        need(key in props, f"参数 {key} 不在声明的 properties 里（声明有 {', '.join(props) or '无'}）")
        declared = props[key].get("type") if isinstance(props[key], dict) else None
        need(
            type_ok(value, declared),
            f"{key} 的值 {show(value)} 是{json_kind(value)}，声明的类型是 {show(declared)}",
        )
    missing = [r for r in schema.get("required") or [] if r not in args]
    need(not missing, f"缺少必填参数 {missing[0] if missing else ''}")
    return "，".join(f"{k}={show(v)}" for k, v in args.items())


def parse_arguments(call: object, where: str = "model_call.arguments") -> JSONObject:
    """The model's arguments text parsed to an object, else Fail saying why."""
    text = obj(call, "model_call（模型的 function_call 项）").get("arguments")
    if not isinstance(text, str):
        raise Fail(f"{where} 是{json_kind(text)}，应当是 JSON 文本（字符串）；对象要由应用解析后才有")
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Fail(f"{where} 不是合法的 JSON 文本（{exc.msg}，第 {exc.pos + 1} 个字符）") from None
    if not isinstance(parsed, dict):
        raise Fail(f"{where} 解析出来是{json_kind(parsed)}，应当是对象")
    return parsed


def mcp_arguments(request: object) -> JSONObject:
    """The MCP tools/call ``params.arguments`` object, else Fail saying why."""
    need(request is not None, "没有 MCP tools/call 请求：模型的调用只是数据，声明和调用都不会自己执行")
    req = obj(request, "mcp_request")
    need(
        req.get("method") == "tools/call",
        f'mcp_request.method 是 {show(req.get("method"))}，应当是 "tools/call"',
    )
    args = obj(req.get("params"), "mcp_request.params").get("arguments")
    if not isinstance(args, dict):
        raise Fail(f"mcp_request.params.arguments 是{json_kind(args)}，应当是对象（不是 JSON 文本）")
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
