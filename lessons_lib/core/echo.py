"""Bounded echoes of hostile input: what a refusal may quote of a value. Introduced in lesson 30.

Every service and the application loop say *which* value they refused; none of them sends a
huge or hostile value back whole (a 100 KB tool name, a 5,000-character path, a note of 1 MB).
:func:`short` quotes at most a short prefix with the value's length; :func:`hostile` names what
no JSON tool argument may hold here (a lone surrogate, which UTF-8 cannot carry; a number too
long for Python to print); :func:`violation` words a JSON Schema error from its keyword, without
the instance (jsonschema's own message repeats the whole value).

Standard library only (the layer rule): ``violation`` reads a ``jsonschema`` error by duck typing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Protocol

ECHO_LIMIT: Final = 60
"""Characters of input a message quotes at most (the course's bound is 200, with room for the rest)."""

MAX_INT_BITS: Final = 14_000
"""About 4,200 decimal digits: past Python's default limit of 4,300 a number cannot even be printed."""


def short(value: object, limit: int = ECHO_LIMIT) -> str:
    """``value`` as text, cut to ``limit`` characters with its length when longer (lesson 30).

    Lone surrogates and other characters UTF-8 cannot carry come out as ``\\udXXX`` escapes, so a
    message that quotes them can always be written to the wire.
    """
    text = value if isinstance(value, str) else _text(value)
    if len(text) > limit:
        text = f"{text[:limit]}... ({len(text)} characters)"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _text(value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > MAX_INT_BITS:
        return f"<a number of about {value.bit_length() * 3 // 10} digits>"
    return str(value)


def hostile(value: object, where: str = "arguments") -> str | None:
    """Why a JSON value cannot be taken as tool arguments here, or None (lesson 30).

    Walks objects and arrays; names the first lone surrogate (valid JSON text ``"\\ud800"``, but
    no UTF-8 string) and the first integer too long to print or compare sensibly.
    """
    stack: list[tuple[str, object]] = [(where, value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str) and _has_surrogate(item):
            return (
                f"{path} contains a lone surrogate (\\ud800-\\udfff), which is not text; send real characters"
            )
        if isinstance(item, int) and not isinstance(item, bool) and item.bit_length() > MAX_INT_BITS:
            return f"{path} is a number with thousands of digits; send a number in the tool's range"
        if isinstance(item, dict):
            for key, child in reversed(list(item.items())):
                if isinstance(key, str) and _has_surrogate(key):
                    return f"a field name in {path} contains a lone surrogate, which is not text"
                stack.append((f"{path}.{short(key, 40)}", child))
        elif isinstance(item, list):
            stack.extend((f"{path}[{n}]", child) for n, child in reversed(list(enumerate(item))))
    return None


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


class SchemaError(Protocol):
    """What :func:`violation` reads of a ``jsonschema.ValidationError``."""

    validator: object
    validator_value: object
    message: str

    @property
    def absolute_path(self) -> Iterable[object]: ...


def violation(error: SchemaError) -> str:
    """A JSON Schema error as ``where: what is expected``, quoting no more than a prefix of input."""
    where = ".".join(short(p, 40) for p in error.absolute_path)
    keyword, expected = error.validator, error.validator_value
    if keyword == "pattern":
        what = f"must match {expected}"
    elif keyword in ("maximum", "minimum", "maxLength", "minLength", "maxItems", "minItems"):
        what = f"{keyword} is {expected}"
    elif keyword == "enum" and isinstance(expected, list):
        what = "must be one of " + ", ".join(map(str, expected))
    elif len(error.message) <= 120:
        what = error.message  # jsonschema's own words, short enough to quote whole
    elif keyword == "type":
        kinds = expected if isinstance(expected, list) else [expected]
        what = f"must be of type {' or '.join(map(str, kinds))}"
    elif keyword == "additionalProperties":
        what = "has a field the schema does not declare; send only the declared fields"
    else:
        what = short(error.message, 120)
    return f"{where}: {what}" if where else what
