"""The ``function_call`` items the Responses stand-ins send: one builder for all of them. Lesson 06.

Every offline stand-in of the Responses API (part one's file reader, the order desk's, the
gullible reader of lesson 52) answers a turn's calls with the same items: an item ``id``
``fc_offline_<turn>_<n>`` and a ``call_id`` ``call_offline_<turn>_<n>``, numbered from 1 in
the order of the moves, as the real API's ``ResponseFunctionToolCall`` spells them.
Standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable

from lessons_lib.core.jsonvalue import JSONObject


def function_calls(turn: int, moves: Iterable[tuple[str, str]]) -> list[JSONObject]:
    """One completed ``function_call`` item per ``(name, arguments text)`` move of this turn."""
    return [
        {
            "type": "function_call",
            "id": f"fc_offline_{turn:03d}_{n}",
            "call_id": f"call_offline_{turn:03d}_{n}",
            "name": name,
            "arguments": arguments,
            "status": "completed",
        }
        for n, (name, arguments) in enumerate(moves, start=1)
    ]
