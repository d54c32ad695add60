"""The HTTP order API checks every request against its own OpenAPI document (lesson 41).

The router checks a tool call before it sends anything, but a client may skip the router
(``curl``, a hand-written script): the app itself must hold to what its document says. For each
operation this module takes the document's parameters (path, query, header) and request body,
with their schemas, and checks a request's values with the same ECMA-262 validator as the desk
(:mod:`lessons_lib.engine.schemacheck`). Query and header values arrive as text: a parameter
whose schema is an integer accepts ASCII digits only (``int("١")`` is 1 in Python, and an
Arabic-Indic digit is no page number here), so out-of-range values are refused before SQLite.

Written here rather than with ``openapi-core``: its current release (0.23.1) pins
``openapi-schema-validator<0.9``, older than the one ``openapi-spec-validator`` 0.9 needs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from lessons_lib.engine.schemacheck import ecma_validator, problem
from lessons_lib.examples.openapi.tools import HTTP_METHODS, OpenApiObject, resolve

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

_INTEGER: Final = re.compile(r"-?[0-9]{1,30}")
"""ASCII digits only, and few enough that converting them costs nothing (larger is out of range)."""


class Refused(Exception):
    """A request the document does not allow: HTTP 400 with the desk's ``invalid_arguments`` code."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


ParamValues = dict[str, str | int]
"""A request's documented parameters by name: the text sent, or a whole number where the schema says so."""


@dataclass(frozen=True)
class Parameter:
    """One documented parameter: where it goes, whether it must be there, its schema."""

    name: str
    location: str
    required: bool
    validator: Validator
    integer: bool


@dataclass(frozen=True)
class OperationCheck:
    """What one operation accepts, read from the document."""

    parameters: tuple[Parameter, ...]
    body: Validator | None
    body_required: bool

    def values(
        self, path: Mapping[str, str], query: Mapping[str, str], headers: Mapping[str, str]
    ) -> ParamValues:
        """The documented parameters of a request, typed as their schemas say, or :class:`Refused`."""
        sources = {"path": path, "query": query, "header": headers}
        found: ParamValues = {}
        for param in self.parameters:
            source = sources.get(param.location, {})
            key = param.name.lower() if param.location == "header" else param.name
            raw = source.get(key)
            if raw is None:
                if param.required:
                    raise Refused(f"{param.name} is required ({param.location} parameter)")
                continue
            value = int(raw) if param.integer and _INTEGER.fullmatch(raw) else raw
            _checked(param.validator, value, param.name)
            found[param.name] = value
        return found

    def payload(self, body: object) -> object:
        """The request body, if it holds to the documented schema, or :class:`Refused`."""
        if self.body is None:
            return body
        return _checked(self.body, body, "body")


def _checked(validator: Validator, value: object, where: str) -> object:
    found = problem(validator, value, where)
    if found is not None:
        raise Refused(found if found.startswith(where) else f"{where}: {found}")
    return value


def operation_checks(document: OpenApiObject) -> dict[str, OperationCheck]:
    """One :class:`OperationCheck` per ``operationId`` of an OpenAPI 3.1 document."""
    resolved = resolve(document)
    checks: dict[str, OperationCheck] = {}
    for item in resolved.get("paths", {}).values():
        for method in HTTP_METHODS:
            op = item.get(method)
            if op is None:
                continue
            params = tuple(
                Parameter(
                    p["name"],
                    p["in"],
                    bool(p.get("required")),
                    ecma_validator(p.get("schema", {})),
                    p.get("schema", {}).get("type") == "integer",
                )
                for p in [*item.get("parameters", []), *op.get("parameters", [])]
            )
            body = op.get("requestBody")
            schema = (body or {}).get("content", {}).get("application/json", {}).get("schema")
            checks[op["operationId"]] = OperationCheck(
                params,
                ecma_validator(schema) if schema is not None else None,
                bool((body or {}).get("required")),
            )
    return checks
