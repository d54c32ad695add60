"""Fuzzing the readers of untrusted input (issue 40, "Done when").

A hypothesis-driven stream of bad lines (deeply nested, huge, truncated, not UTF-8, random JSON)
goes to one real ``python -m lessons_lib serve`` subprocess; after each bad line the server must
still answer a valid request. The same kinds of bad files go to every trace reader (``tree``,
``diagnose``, ``verify-calls``, ``verify-fields``, ``verify-roundtrip``): an exit code of 0, 1 or
2, one line on stderr for 2, never a traceback. Example counts are bounded so both run in seconds.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from _engine_support import NOTES, RawStdio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lessons_lib.core.bounds import MAX_FILE_BYTES
from lessons_lib.core.paths import DATA_DIR

TRACE_TEXT = (DATA_DIR / "trace.json").read_text(encoding="utf-8")
GOOD_FRAME = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "read_text_file", "arguments": {"path": "/workspace/notes.txt", "head": 1}},
    }
)
FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)


def _nested(depth: int, opener: str, closed: bool) -> str:
    head = ('{"a": ' if opener == "{" else "[") * depth
    tail = ("}" if opener == "{" else "]") * depth
    return head + "1" + (tail if closed else tail[: depth // 2])


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=30,
)

BAD_TEXT = st.one_of(
    st.builds(_nested, st.integers(1, 4000), st.sampled_from("[{"), st.booleans()),
    st.builds(
        lambda n, c: '{"jsonrpc": "2.0", "id": 5, "method": "' + c * n + '"}',
        st.integers(0, 300_000),
        st.sampled_from("x中"),
    ),
    st.builds(lambda cut: GOOD_FRAME[:cut], st.integers(0, len(GOOD_FRAME) - 1)),
    st.builds(
        lambda v: json.dumps({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": v}), JSON_VALUES
    ),
    st.builds(json.dumps, JSON_VALUES),
)
BAD_BYTES = st.one_of(
    BAD_TEXT.map(lambda text: text.encode("utf-8")),
    st.binary(min_size=1, max_size=300),
    st.builds(lambda cut: GOOD_FRAME.encode()[:cut] + b"\xff\xfe\xc3", st.integers(0, len(GOOD_FRAME))),
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("fuzzroot")
    (root / "notes.txt").write_bytes(NOTES.read_bytes())
    raw = RawStdio(root, cwd=root)
    raw.initialize()
    yield raw
    _, stderr = raw.close()
    assert "Traceback" not in stderr, stderr[-3000:]


COUNTER = iter(range(1000, 10**9))


@settings(FUZZ, max_examples=150)  # a few milliseconds each
@given(bad=BAD_BYTES)
def test_the_stdio_server_answers_a_valid_request_after_any_bad_line(server: Any, bad: bytes) -> None:
    assert server.proc.stdin is not None
    server.proc.stdin.flush()
    server.proc.stdin.buffer.write(bad.replace(b"\n", b" ") + b"\n")
    server.proc.stdin.buffer.flush()
    rid = next(COUNTER)
    server.send({"jsonrpc": "2.0", "id": rid, "method": "tools/list"})
    for _ in range(5):  # the bad line's own answer (if any) comes first
        reply = server.receive(timeout=30)
        assert reply.get("jsonrpc") == "2.0", reply
        if reply.get("id") == rid:
            assert reply["result"]["tools"], reply
            break
    else:
        pytest.fail(f"no answer to the valid request after {bad[:80]!r}")
    assert server.proc.poll() is None


def _readers() -> dict[str, Callable[[list[str]], int]]:
    from lessons_lib.cli.checks import main_diagnose, main_fields, main_roundtrip
    from lessons_lib.cli.tree import main as main_tree
    from lessons_lib.examples.orders.cli import main_verify_calls

    return {
        "verify-calls": main_verify_calls,
        "tree": main_tree,
        "diagnose": main_diagnose,
        "verify-fields": main_fields,
        "verify-roundtrip": main_roundtrip,
    }


def _mutated_trace(cut: int, junk: bytes) -> bytes:
    return TRACE_TEXT.encode("utf-8")[:cut] + junk


BAD_FILES = st.one_of(
    BAD_BYTES,
    st.builds(_mutated_trace, st.integers(0, len(TRACE_TEXT)), st.binary(max_size=20)),
    st.builds(lambda v: json.dumps({**json.loads(TRACE_TEXT), "events": v}).encode(), JSON_VALUES),
)


@pytest.mark.parametrize("reader", sorted(_readers()))
@FUZZ
@given(content=BAD_FILES)
def test_every_trace_reader_answers_any_file_in_one_line(
    reader: str, content: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "fuzz.json"
    path.write_bytes(content)
    code = _readers()[reader]([str(path)])
    _, err = capsys.readouterr()
    assert code in (0, 1, 2) and "Traceback" not in err
    if code == 2:
        assert len(err.strip().splitlines()) == 1, err


def test_a_file_past_the_size_bound_is_refused_by_every_reader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    huge = tmp_path / "huge.json"
    with huge.open("wb") as out:
        out.write(b'{"events": [' + b" " * MAX_FILE_BYTES + b"]}")
    for name, read in _readers().items():
        assert read([str(huge)]) == 2, name
        err = capsys.readouterr().err
        assert "larger than" in err and len(err.strip().splitlines()) == 1, (name, err)
