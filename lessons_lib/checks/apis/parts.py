"""What the model APIs' own round-trip checks share (``apis/<name>/checks.py``). Lesson 22.

The two readers of a round trip's messages and the sabotage that Chat and Anthropic share (the
assistant message holding the calls is not re-sent); the rows each API lists are typed in
``core.plugins.apitypes``. Standard library only.
"""

from __future__ import annotations

from lessons_lib.checks.jsoncheck import list_of, obj
from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, objects


def messages_of(rt: JSONObject, key: str) -> list[JSON]:
    """The ``messages`` of one request of a round trip (a wrong shape fails the check)."""
    return list_of(obj(rt.get(key), key).get("messages"), f"{key}.messages")


def request_2(rt: JSONObject) -> list[JSONObject]:
    """The message objects of the second request (what the sabotages edit)."""
    return objects(get_in(rt, "request_2", "messages"))


def drop_assistant_message(rt: JSONObject) -> JSONObject:
    """Chat and Anthropic: the assistant message holding the calls is not re-sent."""
    kept: list[JSON] = [m for m in request_2(rt) if m.get("role") != "assistant"]
    obj(rt.get("request_2"), "request_2")["messages"] = kept
    return rt
