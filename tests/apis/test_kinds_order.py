"""Each API's shape tests, now in its folder, name every message as before (issue 22).

``core/kinds_apis.py`` interleaved the Chat Completions and Anthropic Messages tests; each API's
``kinds`` module now lists its own with a tier, and ``core.msgtype.detectors`` merges them (the
rule is in ``core.apiregistry``). The frozen copy of the old list (``_kinds_before22``) is the
oracle: the same order, and the same type for every JSON object and array of every file under
``data/`` (the fixtures, round trips and recorded traces) and for generated look-alikes.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

from _kinds_before22 import BEFORE, first_match
from hypothesis import given, settings
from hypothesis import strategies as st

from lessons_lib.core.fieldkinds.kindtables import TABLES, tables
from lessons_lib.core.fieldkinds.msgtype import detectors
from lessons_lib.core.paths import DATA_DIR

API_TYPES = {
    "chat_request", "chat_response", "chat_tool", "chat_tool_call", "chat_tool_message",
    "anthropic_request", "anthropic_response", "anthropic_tool", "tool_use", "tool_result",
}  # fmt: skip


def first_now(message: Any) -> str | None:
    return next((name for name, test in detectors() if test(message)), None)


def nodes(value: Any) -> Iterator[Any]:
    """The value and every object and array inside it."""
    if isinstance(value, dict | list):
        yield value
        for child in value.values() if isinstance(value, dict) else value:
            yield from nodes(child)


def test_the_merged_order_is_the_old_one() -> None:
    assert [name for name, _ in detectors()] == [name for name, _ in BEFORE]


def test_the_api_tables_come_from_the_api_folders() -> None:
    assert not API_TYPES & set(TABLES)  # the kernel's own tables hold none of them
    assert API_TYPES <= set(tables())


def test_every_node_of_every_data_file_has_its_old_type() -> None:
    seen: Counter[str | None] = Counter()
    files = sorted(DATA_DIR.rglob("*.json"))
    assert len(files) >= 30
    for path in files:
        for node in nodes(json.loads(path.read_text(encoding="utf-8"))):
            old = first_match(node)
            assert first_now(node) == old, (path.relative_to(DATA_DIR).as_posix(), node)
            seen[old] += 1
    assert API_TYPES <= set(seen), API_TYPES - set(seen)  # each API type is met at least once


MESSAGES = [
    [], [{"role": "user", "content": "hi"}], [{"role": "assistant", "content": [{"type": "tool_use"}]}],
    [{"role": "user", "content": [{"type": "tool_result"}]}], "not a list",
]  # fmt: skip
ATOMS = [
    *(("object", v) for v in ("chat.completion", "response", "list")),
    *(("type", v) for v in ("message", "tool_use", "tool_result", "function", "function_call", "text")),
    *(("type", v) for v in ("function_call_output",)),
    *(("role", v) for v in ("user", "assistant", "system", "developer", "tool", "function")),
    ("stop_reason", "end_turn"), ("content", "t"), ("content", [{"type": "text", "text": "t"}]),
    *(("messages", m) for m in MESSAGES), ("max_tokens", 10), ("input", "t"), ("input", []),
    ("model", "m"), ("tools", []), ("tools", [{"name": "t", "input_schema": {}}]),
    ("tools", [{"type": "function", "function": {"name": "t"}}]), ("function", {"name": "f"}),
    ("function", {"name": "f", "arguments": "{}"}), ("id", "x1"), ("input_schema", {}), ("parameters", {}),
    ("name", "n"), ("inputSchema", {}), ("arguments", {}), ("arguments", "{}"), ("jsonrpc", "2.0"),
    ("method", "tools/call"), ("result", {}), ("error", {}), ("format", "lessons_lib.trace/1"),
    ("model_call", {}), ("request_1", {}), ("response_1", {}), ("isError", False), ("_meta", {}),
]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(ATOMS), max_size=7))
def test_generated_look_alikes_have_their_old_type(atoms: list[tuple[str, Any]]) -> None:
    message = dict(atoms)
    assert first_now(message) == first_match(message), message


def test_a_schema_whose_role_is_an_object_is_classified_not_an_error() -> None:
    from lessons_lib.core.fieldkinds.kinds import walk
    from lessons_lib.core.fieldkinds.msgtype import detect_type

    schema = {"properties": {"role": {"type": "string", "enum": ["user", "tool"]}}}
    assert detect_type({"role": {"type": "string"}}) == "unclassified"
    assert detect_type({"messages": [{"content": [{"type": {"const": "tool_use"}}]}]}) == "chat_request"
    assert [f.kind for f in walk(schema)] == ["envelope"] * 7
    spec = json.loads((DATA_DIR / "specs" / "openai" / "tool_components.json").read_text(encoding="utf-8"))
    assert len(list(walk(spec))) > 100  # raised TypeError before issue 22
