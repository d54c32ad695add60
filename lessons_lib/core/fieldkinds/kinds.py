"""Which kind every field of a message is: rule, value, result, identifier or envelope.

Introduced in lesson 03. The kinds come from declared tables, one per message type, never
from guessing: a message's type is detected from its shape (``lessons_lib.core.fieldkinds.msgtype``), then
the first pattern of that type's table (``lessons_lib.core.fieldkinds.kindtables``) that matches a field's
path (``lessons_lib.core.fieldpath``) gives its kind.
A field no pattern covers is shown as an envelope labelled "unclassified" (未分类).

Patterns use the path spelling of the field trees, ``tools[0].parameters.properties.path.type``,
plus wildcards: ``*`` any key, ``[*]`` any index, ``**`` any depth (zero or more steps), and
``[type=function_call]`` an index whose element has that field value.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from lessons_lib.core.fieldkinds.kindrows import NEST
from lessons_lib.core.fieldkinds.kindtables import compiled_table, tables
from lessons_lib.core.fieldkinds.msgtype import detect_known, detect_type
from lessons_lib.core.fieldpath import PathT, format_path, parse_path
from lessons_lib.core.glossary import Kind
from lessons_lib.core.jsonvalue import JSON
from lessons_lib.core.messages import t


@dataclass(frozen=True)
class Match:
    """How one field was classified: its kind, the table used and the pattern that matched."""

    kind: Kind
    message_type: str
    pattern: str | None  # None: no pattern covers the field -> shown as envelope, "unclassified"

    @property
    def unclassified(self) -> bool:
        return self.pattern is None


def nodes_along(message: JSON, path: PathT) -> list[JSON]:
    """The values at path[:0], path[:1], ... path; ValueError if the path is not in the message."""
    nodes = [message]
    for i, seg in enumerate(path):
        node = nodes[-1]
        if isinstance(seg, int) and isinstance(node, list) and -len(node) <= seg < len(node):
            nodes.append(node[seg])
        elif isinstance(seg, str) and isinstance(node, dict) and seg in node:
            nodes.append(node[seg])
        else:
            where = format_path(path[:i]) or "the message root"
            raise ValueError(
                f"no field {format_path(path)!r} in this message (nothing at {seg!r} under {where})"
            )
    return nodes


def _classify(
    message_type: str, path: PathT, nodes: Sequence[JSON], hint: Callable[[object], str] | None
) -> Match:
    if message_type == "bundle":
        for i in range(1, len(path) + 1):
            inner = detect_known(nodes[i])
            if inner is not None:
                return _classify(inner, path[i:], nodes[i:], None)
        if isinstance(nodes[-1], dict | list):
            return Match("envelope", "bundle", t("kinds.container"))
        return Match("envelope", "bundle", None)
    if message_type not in tables():
        return Match("envelope", message_type, None)
    value = nodes[-1]
    for pattern, kind, when in compiled_table(message_type):
        if when == "text" and not isinstance(value, str):
            continue
        if kind == NEST:  # the pattern names the subtree's root; it covers every field below it
            depth = len(pattern.tokens)
            if len(path) < depth or not pattern.matches(path[:depth], nodes[: depth + 1]):
                continue
            inner_nodes = nodes[depth:]
            inner = hint(nodes[depth - 1]) if hint else detect_type(inner_nodes[0])
            if inner == "unclassified" and len(path) == depth:  # e.g. a part that is null
                return Match("envelope", message_type, pattern.text)
            return _classify(inner, path[depth:], inner_nodes, None)
        if not pattern.matches(path, nodes):
            continue
        return Match(kind, message_type, pattern.text)  # type: ignore[arg-type]
    return Match("envelope", message_type, None)


def _event_hint(event: object) -> str:
    return (
        detect_type(event.get("body"), label=event.get("label"))
        if isinstance(event, dict)
        else "unclassified"
    )


def classify(message: JSON, path: str | Sequence[str | int], message_type: str | None = None) -> Match:
    """Classify one field; ``path`` like ``output[0].arguments`` or a tuple of keys/indices."""
    p = parse_path(path) if isinstance(path, str) else tuple(path)
    nodes = nodes_along(message, p)
    mtype = message_type or detect_type(message)
    return _classify(mtype, p, nodes, _event_hint if mtype == "trace" else None)


def kind_of(message: JSON, path: str | Sequence[str | int], message_type: str | None = None) -> Kind:
    """The kind of the field at ``path``: ``kind_of(response_1, "output[0].call_id") == "identifier"``.

    Introduced in lesson 03. Unclassified fields count as ``"envelope"``; see ``classify``.
    """
    return classify(message, path, message_type).kind


@dataclass(frozen=True)
class Field:
    """One field of a message, as the field tree shows it."""

    path: PathT
    value: JSON
    match: Match

    @property
    def path_text(self) -> str:
        return format_path(self.path)

    @property
    def kind(self) -> Kind:
        return self.match.kind


def walk(message: JSON, message_type: str | None = None) -> Iterator[Field]:
    """Every field of the message, depth first in document order, root first."""
    mtype = message_type or detect_type(message)
    hint = _event_hint if mtype == "trace" else None

    def visit(path: PathT, nodes: list[JSON]) -> Iterator[Field]:
        node = nodes[-1]
        yield Field(path, node, _classify(mtype, path, nodes, hint))
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, child in items:
            yield from visit((*path, key), [*nodes, child])

    yield from visit((), [message])


__all__ = ["Field", "Match", "classify", "kind_of", "nodes_along", "walk"]
