"""The order desk's call layer: the idempotency key comes from the intent, never from the model. Lesson 32.

A model cannot be trusted to write the same key twice: a real one words each call afresh, and
after the application restarts nothing remembers what it wrote last time. The application does
know the business intent, so it computes the key itself (the tool-design article: 同一业务意图复用同一幂等键):

- :meth:`IntentKeys.declare`: the model is declared the write tool *without* ``idempotency_key``
  (it is neither in ``properties`` nor in ``required``), so it never sees or sends one;
- :meth:`IntentKeys.fill`: before ``tools/call``, the key is computed from the intent fields
  (for ``create_investigation``: the order and the reason, not the free-text note) and added;
  a value the model sent anyway is overwritten, so the key never depends on the model.

The service still declares and requires the key: it is the desk's contract with whoever calls
it. Lesson 41's HTTP router does the same with the ``Idempotency-Key`` header.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from lessons_lib.engine.adapters import Declared
from lessons_lib.services.orders.tools import KEY_PATTERN

KEY_FIELD: Final = "idempotency_key"
INTENT_FIELDS: Final[Mapping[str, tuple[str, ...]]] = {"create_investigation": ("order_id", "reason")}
"""Per write tool, the argument fields that make one business intent (the note is wording, not intent)."""
KEY_PREFIX: Final[Mapping[str, str]] = {"create_investigation": "inv"}


def intent_key(tool: str, arguments: Mapping[str, object]) -> str:
    """The key of one intent: ``inv-O-1042-delayed``; a hash when the values do not fit the key rule.

    The same tool and intent fields give the same key in any run, after any restart (lesson 32).
    """
    fields = INTENT_FIELDS.get(tool, ())
    values = [str(arguments.get(name, "")) for name in fields]
    readable = "-".join([KEY_PREFIX.get(tool, tool), *values])
    if re.fullmatch(KEY_PATTERN[1:-1], readable):
        return readable
    # a value outside the key's characters (the desk will refuse the call anyway): a stable digest
    digest = hashlib.sha256(json.dumps([tool, *values], ensure_ascii=False).encode()).hexdigest()
    return f"{KEY_PREFIX.get(tool, 'key')}-{digest[:24]}"


def with_key(tool: str, arguments: Mapping[str, object]) -> dict[str, object]:
    """The arguments of a keyed write as the call layer sends them (lesson 50 replays them so)."""
    if tool not in INTENT_FIELDS:
        return dict(arguments)
    return {**arguments, KEY_FIELD: intent_key(tool, arguments)}


@dataclass
class IntentKeys:
    """The call layer of one run (``Policy.calls``): hides the key from the model, fills it in."""

    keyed: set[tuple[str, str]] = field(default_factory=set)
    """(service, tool) pairs whose declaration takes a key (learned from ``tools/list``)."""

    def declare(self, declared: list[Declared]) -> list[Declared]:
        """The declarations as the model gets them: without the fields the call layer fills."""
        shown: list[Declared] = []
        for d in declared:
            properties = d.input_schema.get("properties")
            if d.tool not in INTENT_FIELDS or not isinstance(properties, dict) or KEY_FIELD not in properties:
                shown.append(d)
                continue
            self.keyed.add((d.service, d.tool))
            schema = copy.deepcopy(d.input_schema)
            schema["properties"] = {k: v for k, v in properties.items() if k != KEY_FIELD}
            required = schema.get("required")
            if isinstance(required, list):
                schema["required"] = [name for name in required if name != KEY_FIELD]
            shown.append(Declared(d.alias, d.service, d.tool, d.description, schema))
        return shown

    def fill(self, service: str, tool: str, arguments: dict[str, object]) -> dict[str, object]:
        """The arguments the service gets: the model's, plus the key of their intent."""
        return with_key(tool, arguments) if (service, tool) in self.keyed else arguments


def sent_key(trace: object, tool: str = "create_investigation") -> list[str | None]:
    """The key each ``tools/call`` of ``tool`` carried on the wire, in order (lesson 32)."""
    from lessons_lib.core.jsonvalue import get_in, objects
    from lessons_lib.core.traces import queries as q

    keys: list[str | None] = []
    for event in objects(get_in(q.as_data(trace), "events")):
        if get_in(event, "body", "method") != "tools/call" or get_in(event, "body", "params", "name") != tool:
            continue
        key = get_in(event, "body", "params", "arguments", KEY_FIELD)
        keys.append(str(key) if key is not None else None)
    return keys
