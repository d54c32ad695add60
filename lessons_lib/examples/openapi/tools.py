"""OpenAPI operations -> tool declarations (lesson 41).

One operation becomes one tool: ``operationId`` is the name, ``summary`` and ``description``
the description, and the path and query parameters plus the JSON request body's properties
one ``parameters`` object. ``$ref`` is resolved by ``jsonref`` (a model API does not follow
references into a document it never sees). What no library does is written here: ``allOf``
merged into one object, and ``oneOf``/``anyOf`` of plain values folded into one ``enum`` or a
nullable type, because model APIs accept only part of JSON Schema. Header parameters and
``security`` stay in the call layer: they never become a parameter the model fills.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Final

from lessons_lib.core.jsonvalue import JSON, JSONObject
from lessons_lib.core.messages import t
from lessons_lib.core.plugins.apiregistry import api_entry, api_or_reference

OpenApiObject = dict[str, Any]
"""A part of an OpenAPI document (the document, a path item, an operation, a parameter) as
``json.loads`` gives it; read loosely, since its shape is the OpenAPI specification's, not Python's."""
JsonSchema = OpenApiObject
"""A JSON Schema inside an OpenAPI document, or one this converter builds."""
HTTP_METHODS: Final = ("get", "put", "post", "delete", "patch")
STRICT_KEYWORDS: Final = frozenset(
    {"type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf"}
    | {"description", "title", "pattern", "format", "minimum", "maximum", "exclusiveMinimum"}
    | {"exclusiveMaximum", "multipleOf", "minItems", "maxItems", "$defs", "$ref"}
)
"""The keywords this converter treats as expressible under OpenAI strict mode (Structured
Outputs guide); any other keyword in a strict schema is reported, not silently kept."""


@dataclass(frozen=True)
class Operation:
    """One HTTP operation and where each of its tool parameters goes (lesson 41)."""

    name: str
    method: str
    path: str
    description: str
    parameters: JsonSchema
    path_params: tuple[str, ...] = ()
    query_params: tuple[str, ...] = ()
    body_params: tuple[str, ...] = ()
    call_layer: tuple[str, ...] = ()  # header parameters and security: filled by the application
    output_schema: JsonSchema | None = None
    notes: tuple[str, ...] = field(default=(), compare=False)


def resolve(document: OpenApiObject) -> OpenApiObject:
    """The document with every ``$ref`` replaced by what it points to (``jsonref``)."""
    import jsonref

    resolved = jsonref.replace_refs(document, proxies=False, lazy_load=False)
    return copy.deepcopy(dict(resolved))


def flatten(schema: JsonSchema, notes: list[str] | None = None, where: str = "") -> JsonSchema:
    """``allOf`` merged, ``oneOf``/``anyOf`` of plain values folded; recurses into objects."""
    notes = notes if notes is not None else []
    out = {k: v for k, v in schema.items() if k not in ("allOf", "oneOf", "anyOf")}
    for part in schema.get("allOf", []):
        part = flatten(part, notes, where)
        for key, value in part.items():
            if key == "properties":
                out.setdefault("properties", {}).update(value)
            elif key == "required":
                out["required"] = list(dict.fromkeys([*out.get("required", []), *value]))
            else:
                out.setdefault(key, value)
        notes.append(t("openapi.flatten.allof", where=where or "schema"))
    for key in ("oneOf", "anyOf"):
        if key in schema:
            out.update(_fold(key, [flatten(b, notes, where) for b in schema[key]], notes, where))
    if isinstance(out.get("properties"), dict):
        out["properties"] = {
            name: flatten(sub, notes, f"{where}.{name}" if where else name)
            for name, sub in out["properties"].items()
        }
    if isinstance(out.get("items"), dict):
        out["items"] = flatten(out["items"], notes, f"{where}[]")
    return out


def _fold(key: str, branches: list[JsonSchema], notes: list[str], where: str) -> JsonSchema:
    types = {b.get("type") for b in branches if isinstance(b.get("type"), str)}
    values: list[JSON] = []
    for b in branches:
        values += b.get("enum", [b["const"]] if "const" in b else [])
    plain = all(set(b) <= {"type", "enum", "const", "description"} for b in branches)
    label = where or "schema"
    if plain and values and len(values) == sum(len(b.get("enum", [0])) for b in branches) and len(types) == 1:
        notes.append(t("openapi.flatten.enum", label=label, key=key))
        return {"type": types.pop(), "enum": list(dict.fromkeys(values))}
    if plain and not values and "null" in types and len(types) == 2:
        notes.append(t("openapi.flatten.nullable", label=label, key=key))
        return {"type": sorted(types, key=lambda t: t == "null")}
    notes.append(t("openapi.flatten.anyof", label=label, key=key))
    return {"anyOf": branches}


def operations(document: OpenApiObject) -> list[Operation]:
    """Every operation of an OpenAPI 3.x document, in document order (lesson 41)."""
    resolved = resolve(document)
    global_security = bool(resolved.get("security"))
    found = []
    for path, item in resolved.get("paths", {}).items():
        for method in HTTP_METHODS:
            if method in item:
                found.append(
                    _operation(path, method, item[method], item.get("parameters", []), global_security)
                )
    return found


def _operation(
    path: str, method: str, op: OpenApiObject, shared: list[OpenApiObject], secured: bool
) -> Operation:
    notes: list[str] = []
    name = op.get("operationId") or f"{method}_{path}".replace("/", "_").replace("{", "").replace("}", "")
    properties: dict[str, JsonSchema] = {}
    required: list[str] = []
    where: dict[str, list[str]] = {"path": [], "query": [], "body": [], "call_layer": []}
    for param in [*shared, *op.get("parameters", [])]:
        location = param.get("in")
        if location in ("header", "cookie"):
            where["call_layer"].append(f"{location}:{param['name']}")
            continue
        schema = flatten(param.get("schema", {"type": "string"}), notes, param["name"])
        if param.get("description") and "description" not in schema:
            schema = {**schema, "description": param["description"]}
        properties[param["name"]] = schema
        where[location].append(param["name"])
        if param.get("required", location == "path"):
            required.append(param["name"])
    body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    if body is not None:
        flat = flatten(body, notes, "body")
        for prop, schema in flat.get("properties", {}).items():
            if prop in properties:
                raise ValueError(f"{name}: body property {prop!r} clashes with a parameter of that name")
            properties[prop] = schema
            where["body"].append(prop)
        required += [r for r in flat.get("required", []) if r in flat.get("properties", {})]
    if secured or op.get("security"):
        where["call_layer"].append("security")
    parameters = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    description = " ".join(p for p in (op.get("summary", ""), op.get("description", "")) if p).strip()
    return Operation(
        name=name,
        method=method.upper(),
        path=path,
        description=description,
        parameters=parameters,
        path_params=tuple(where["path"]),
        query_params=tuple(where["query"]),
        body_params=tuple(where["body"]),
        call_layer=tuple(where["call_layer"]),
        output_schema=_output_schema(op, notes),
        notes=tuple(dict.fromkeys(notes)),
    )


def _output_schema(op: OpenApiObject, notes: list[str]) -> JsonSchema | None:
    for status in ("200", "201"):
        content = op.get("responses", {}).get(status, {}).get("content", {})
        schema = content.get("application/json", {}).get("schema")
        if schema is not None:
            return flatten(schema, notes, f"response {status}")
    return None


def responses_tool(op: Operation) -> JSONObject:
    """A Responses API ``function`` tool (``strict: false``, as the course's fixtures)."""
    from lessons_lib.apis.responses.shapes import declare

    return declare(op.name, op.description, op.parameters)


def chat_tool(op: Operation) -> JSONObject:
    """A Chat Completions tool: the same three fields, one level down under ``function``."""
    from lessons_lib.apis.chat.shapes import declare

    return declare(op.name, op.description, op.parameters)


def tool_declarations(document: JSONObject, api: str | None = None) -> list[JSONObject]:
    """Every operation as a tool of ``api`` (its registry entry's ``shapes.declare``; None: the
    reference API, Responses). An unknown name is a one-line ``ValueError``."""
    declare = api_entry(api_or_reference(api)).shapes.declare
    return [declare(op.name, op.description, op.parameters) for op in operations(document)]


def strict_report(op: Operation) -> list[str]:
    """What OpenAI strict mode cannot express in ``op.parameters``, one line per finding."""
    findings: list[str] = []
    _strict_walk(op.parameters, op.name, findings)
    return findings


def _strict_walk(schema: JsonSchema, where: str, findings: list[str]) -> None:
    for key in sorted(set(schema) - STRICT_KEYWORDS):
        findings.append(t("openapi.strict.keyword", where=where, key=key))
    if schema.get("type") == "object" or "properties" in schema:
        if schema.get("additionalProperties") is not False:
            findings.append(t("openapi.strict.additional", where=where))
        optional = sorted(set(schema.get("properties", {})) - set(schema.get("required", [])))
        if optional:
            names = ", ".join(optional)
            findings.append(t("openapi.strict.optional", where=where, names=names))
        for name, sub in schema.get("properties", {}).items():
            _strict_walk(sub, f"{where}.{name}", findings)
    if isinstance(schema.get("items"), dict):
        _strict_walk(schema["items"], f"{where}[]", findings)
