"""Field paths and path patterns, in the spelling of the field trees. Lesson 03.

A path is ``tools[0].parameters.properties.path.type``; a pattern adds wildcards: ``*`` any
key, ``[*]`` any index, ``**`` any depth (zero or more steps), and ``[type=function_call]``
an index whose element has that field value. Standard library only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from lessons_lib.core.jsonvalue import JSON

PathT = tuple[str | int, ...]

_PLAIN_KEY = re.compile(r"[A-Za-z_$@][\w$@/-]*")  # used with fullmatch: "$" would allow a final "\n"
_TOKEN = re.compile(r'\.?(\*\*|\*|[A-Za-z_$@][\w$@/-]*)|\[(\*|\d+|[\w$@-]+=[^\]]*|"(?:[^"\\]|\\.)*")\]')


def format_path(path: Sequence[str | int]) -> str:
    """``("tools", 0, "name")`` -> ``tools[0].name``; the root is the empty string."""
    out = ""
    for seg in path:
        if isinstance(seg, int):
            out += f"[{seg}]"
        elif _PLAIN_KEY.fullmatch(seg) and seg not in {"*", "**"}:
            out += f".{seg}" if out else seg
        else:
            out += f"[{json.dumps(seg, ensure_ascii=False)}]"
    return out


Token = tuple[str, str | int | tuple[str, str] | None]
"""One step of a pattern: its kind ("key", "index", "select", "anykey", "anyindex", "deep") and its
argument (the key, the index, the ``(field, value)`` a ``[field=value]`` selects, or None)."""


def _tokens(text: str) -> list[Token]:
    tokens: list[Token] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or (m.group(0).startswith(".") and pos == 0):
            raise ValueError(f"cannot read the path {text!r} at position {pos}: write it like tools[0].name")
        key, sel = m.group(1), m.group(2)
        if key is not None:
            tokens.append(("deep", None) if key == "**" else ("anykey", None) if key == "*" else ("key", key))
        elif sel == "*":
            tokens.append(("anyindex", None))
        elif sel.isdigit():
            tokens.append(("index", int(sel)))
        elif sel.startswith('"'):
            tokens.append(("key", json.loads(sel)))
        else:
            field, _, want = sel.partition("=")
            tokens.append(("select", (field, want)))
        pos = m.end()
    return tokens


def parse_path(text: str) -> PathT:
    """``tools[0].name`` -> ``("tools", 0, "name")``; wildcards are not allowed here."""
    out: list[str | int] = []
    for kind, arg in _tokens(text):
        if kind not in {"key", "index"} or not isinstance(arg, str | int):
            raise ValueError(f"{text!r} is a pattern, not a path: use a concrete path like tools[0].name")
        out.append(arg)
    return tuple(out)


@dataclass(frozen=True)
class Pattern:
    """A compiled path pattern; ``matches(path, nodes)`` needs the values along the path."""

    text: str
    tokens: tuple[Token, ...]

    @classmethod
    def compile(cls, text: str) -> Pattern:
        return cls(text, tuple(_tokens(text)))

    def matches(self, path: PathT, nodes: Sequence[JSON]) -> bool:
        return _match(self.tokens, 0, path, 0, nodes)


def _match(tokens: Sequence[Token], ti: int, path: PathT, pi: int, nodes: Sequence[JSON]) -> bool:
    if ti == len(tokens):
        return pi == len(path)
    kind, arg = tokens[ti]
    if kind == "deep":
        return any(_match(tokens, ti + 1, path, p, nodes) for p in range(pi, len(path) + 1))
    if pi == len(path):
        return False
    seg = path[pi]
    if kind == "key":
        ok = seg == arg
    elif kind == "anykey":
        ok = isinstance(seg, str)
    elif kind == "index":
        ok = isinstance(seg, int) and seg == arg
    elif kind == "anyindex":
        ok = isinstance(seg, int)
    else:  # select
        element = nodes[pi + 1]
        ok = (
            isinstance(seg, int)
            and isinstance(element, dict)
            and isinstance(arg, tuple)
            and _as_text(element.get(arg[0])) == arg[1]
        )
    return ok and _match(tokens, ti + 1, path, pi + 1, nodes)


def _as_text(value: object) -> str | None:
    return value if isinstance(value, str) else None if value is None else json.dumps(value)
