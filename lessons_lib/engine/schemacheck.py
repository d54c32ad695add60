"""Checking a value against a JSON Schema as the schema means it. Introduced in lesson 30.

``jsonschema`` checks ``pattern`` with Python's ``re.search``, where ``$`` also matches before
a final newline (``"O-1042\\n"`` passes ``^O-[0-9]{1,8}$``). JSON Schema's patterns are
ECMA-262 regular expressions, where ``$`` is the end of the input: this module swaps in
``regress`` (Python bindings to Rust's ECMA-262 engine) for that one keyword and keeps every
other keyword of draft 2020-12 as ``jsonschema`` has it. The order desk, the OpenAPI router and
the HTTP order API all check through :func:`problem`, so a value means the same in each.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import TYPE_CHECKING

from lessons_lib.core.echo import hostile, short, violation

if TYPE_CHECKING:
    import regress
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator


@cache
def _regex(pattern: str) -> regress.Regex:
    import regress

    return regress.Regex(pattern)


def _ecma_pattern(
    validator: Validator, pattern: str, instance: object, schema: Mapping[str, object]
) -> Iterator[ValidationError]:
    from jsonschema.exceptions import ValidationError

    if isinstance(instance, str) and _regex(pattern).find(instance) is None:
        yield ValidationError(f"{short(instance)!r} does not match {pattern!r}")


@cache
def _validator_class() -> type[Validator]:
    from jsonschema import Draft202012Validator, validators

    extended: type[Validator] = validators.extend(Draft202012Validator, {"pattern": _ecma_pattern})
    return extended


def ecma_validator(schema: Mapping[str, object]) -> Validator:
    """A draft 2020-12 validator for ``schema`` whose ``pattern`` follows ECMA-262 (lesson 30)."""
    return _validator_class()(schema)


def problem(validator: Validator, instance: object, where: str = "arguments") -> str | None:
    """What is wrong with ``instance`` in one short line (quoting a prefix at most), or None.

    A lone surrogate or a number too long to print is named before the schema is consulted:
    ``jsonschema`` would try to print it.
    """
    from jsonschema.exceptions import best_match

    found = hostile(instance, where)
    if found is not None:
        return found
    error = best_match(validator.iter_errors(instance))
    return None if error is None else violation(error)
