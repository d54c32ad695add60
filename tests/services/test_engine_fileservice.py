"""The file service's reading rules: what it returns, and what it refuses without reading.

Every refusal is checked twice: on ``FileService`` directly and through the real MCP server
(``build_server`` behind JSON-RPC text frames), where it must be a tool execution error
(``isError: true``) that speaks of ``/workspace/...`` and never of the folder behind it.
The direct refusals and reads run once per way of opening (``opener`` in ``_opener.py``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _engine_support import NOTES, call_tools, notes_lines, spy_reads, text_of
from _opener import opener  # noqa: F401  (a fixture, used by name)
from hypothesis import given
from hypothesis import strategies as st

from lessons_lib.services.files.service import MAX_BYTES, FileService, ToolRefusal, select_lines

SECRET = "TOP-SECRET-7f3a9c-outside-the-root"
BOTH = "Cannot specify both head and tail parameters simultaneously"
OUTSIDE = "Access denied - path outside allowed directories"


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    """A root served as /workspace and a sibling folder outside it holding a secret."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "sub").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET + "\n", encoding="utf-8")
    (root / "notes.txt").write_bytes(NOTES.read_bytes())
    (root / "short.txt").write_text("a\nb\nc", encoding="utf-8")
    (root / "sub" / "inner.txt").write_text("inner\n", encoding="utf-8")
    (root / "latin1.txt").write_bytes("café über\n".encode("latin-1"))
    (root / "big.txt").write_bytes(b"x" * (MAX_BYTES + 1))
    (root / "link_in.txt").symlink_to(root / "short.txt")
    (root / "link_out.txt").symlink_to(outside / "secret.txt")
    (root / "dir_out").symlink_to(outside, target_is_directory=True)
    return root, outside


NOTES_PATH = "/workspace/notes.txt"

# id -> (arguments, text the message must contain, True if the message must equal it exactly)
REFUSALS: dict[str, tuple[dict[str, Any], str, bool]] = {
    "head-and-tail": ({"path": NOTES_PATH, "head": 2, "tail": 3}, BOTH, True),
    "dotdot-escape": ({"path": "/workspace/../.."}, OUTSIDE, False),
    "dotdot-etc": ({"path": "/workspace/../../etc/passwd"}, OUTSIDE, False),
    "etc-passwd": ({"path": "/etc/passwd"}, OUTSIDE, False),
    "relative-escape": ({"path": "../x"}, OUTSIDE, False),
    "lookalike-root": ({"path": "/workspace_evil/notes.txt"}, OUTSIDE, False),
    "symlink-file-out": ({"path": "/workspace/link_out.txt"}, "/workspace/link_out.txt", False),
    "symlink-dir-out": ({"path": "/workspace/dir_out/secret.txt"}, "/workspace/dir_out/secret.txt", False),
    "null-byte": ({"path": "/workspace/notes.txt\x00.png"}, "null byte", False),
    "directory": ({"path": "/workspace/sub"}, "Is a directory, not a file: /workspace/sub", True),
    "root-itself": ({"path": "/workspace"}, "Is a directory, not a file: /workspace", True),
    "missing": ({"path": "/workspace/nope.txt"}, "File not found: /workspace/nope.txt", True),
    "too-large": ({"path": "/workspace/big.txt"}, "File too large: /workspace/big.txt", False),
    "empty-path": ({"path": ""}, "'path'", False),
    "path-not-string": ({"path": 7}, "'path'", False),
    "head-zero": ({"path": NOTES_PATH, "head": 0}, "'head' must be at least 1", False),
    "head-negative": ({"path": NOTES_PATH, "head": -3}, "'head' must be at least 1", False),
    "head-fraction": ({"path": NOTES_PATH, "head": 2.5}, "'head' must be a whole number", False),
    "head-string": ({"path": NOTES_PATH, "head": "5"}, "'head' must be a number, got str", False),
    "head-bool": ({"path": NOTES_PATH, "head": True}, "'head' must be a number, got bool", False),
    "tail-zero": ({"path": NOTES_PATH, "tail": 0}, "'tail' must be at least 1", False),
    "tail-negative": ({"path": NOTES_PATH, "tail": -1}, "'tail' must be at least 1", False),
    "tail-fraction": ({"path": NOTES_PATH, "tail": 0.5}, "'tail' must be a whole number", False),
    "tail-string": ({"path": NOTES_PATH, "tail": "3"}, "'tail' must be a number, got str", False),
    "tail-bool": ({"path": NOTES_PATH, "tail": False}, "'tail' must be a number, got bool", False),
}


def _assert_clean(message: str, root: Path, outside: Path) -> None:
    """A refusal names the logical path, never the machine one, and leaks nothing from outside."""
    for machine in {str(root), str(root.resolve()), str(outside), str(outside.resolve()), str(root.parent)}:
        assert machine not in message, f"machine path leaked: {message!r}"
    assert SECRET not in message
    assert "Traceback" not in message


@pytest.mark.usefixtures("opener")
@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_refusal_reads_nothing(case: str, tree: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    root, outside = tree
    args, expected, exact = REFUSALS[case]
    spy = spy_reads(monkeypatch)
    with pytest.raises(ToolRefusal) as refused:
        FileService(root).read(args["path"], args.get("head"), args.get("tail"))
    message = str(refused.value)
    assert message == expected if exact else expected in message, message
    _assert_clean(message, root, outside)
    assert spy.calls == [], f"{case}: a refused call opened {spy.calls}"


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_refusal_over_mcp_is_tool_error(
    case: str, tree: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, outside = tree
    args, expected, exact = REFUSALS[case]
    spy = spy_reads(monkeypatch)
    session = call_tools(root, [("read_text_file", args)])
    (result,) = session.results
    assert result.is_error is True
    message = text_of(result)
    assert message == expected if exact else expected in message, message
    # The same rule decides, whatever the entry point.
    with pytest.raises(ToolRefusal, match=None) as direct:
        FileService(root).read(args["path"], args.get("head"), args.get("tail"))
    assert str(direct.value) == message
    # On the wire: a result with isError, not a JSON-RPC error; and no path or secret anywhere.
    reply = session.frames[-1][1]
    assert "error" not in reply and reply["result"]["isError"] is True
    _assert_clean(session.frames_text(), root, outside)
    assert spy.calls == []


@pytest.mark.usefixtures("opener")
def test_size_cap_is_configurable_and_checked_before_reading(
    tree: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, outside = tree
    spy = spy_reads(monkeypatch)
    size = len((root / "notes.txt").read_bytes())
    with pytest.raises(ToolRefusal, match=f"is {size} bytes; the limit is 100 bytes") as refused:
        FileService(root, max_bytes=100).read(NOTES_PATH, head=1)
    _assert_clean(str(refused.value), root, outside)
    assert spy.calls == []
    assert FileService(root, max_bytes=size).read(NOTES_PATH, head=1) == notes_lines()[0]


def test_not_utf8_is_refused_without_returning_its_bytes(
    tree: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether bytes are UTF-8 can only be known by reading them: one read, nothing returned."""
    root, outside = tree
    spy = spy_reads(monkeypatch)
    session = call_tools(root, [("read_text_file", {"path": "/workspace/latin1.txt"})])
    (result,) = session.results
    assert result.is_error is True
    assert text_of(result) == "Not a UTF-8 text file: /workspace/latin1.txt"
    assert "caf" not in session.frames_text()
    assert [p.name for p in spy.calls] == ["latin1.txt"]


def test_symlink_secret_never_on_the_wire(tree: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    root, outside = tree
    spy = spy_reads(monkeypatch)
    calls = [
        ("read_text_file", {"path": p})
        for p in (
            "/workspace/link_out.txt",
            "/workspace/dir_out/secret.txt",
            "dir_out/secret.txt",
            "/workspace/sub/../link_out.txt",
        )
    ]
    session = call_tools(root, calls)
    assert [r.is_error for r in session.results] == [True] * len(calls)
    assert SECRET not in session.frames_text()
    assert spy.calls == []


def test_extra_arguments_are_ignored_as_the_schema_allows(
    tree: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The declaration allows other properties (no ``additionalProperties: false``), like the
    reference server's; so the service ignores them instead of refusing the call."""
    import jsonschema

    from lessons_lib.services.files.service import INPUT_SCHEMA

    root, _ = tree
    extra = {"path": NOTES_PATH, "head": 2, "encoding": "utf-8"}
    jsonschema.validate(extra, INPUT_SCHEMA)  # the rule accepts it...
    session = call_tools(root, [("read_text_file", extra), ("read_text_file", {"head": 5})])
    assert (
        [text_of(r) for r in session.results]
        == [  # ...and so does the service
            "\n".join(notes_lines()[:2]),
            "Invalid arguments: 'path' must be a non-empty string",
        ]
    )
    assert [r.is_error for r in session.results] == [False, True]


# --- what it returns -------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 5, 20, 36, 100])
def test_head_returns_first_lines_without_trailing_newline(n: int) -> None:
    text = FileService().read(NOTES_PATH, head=n)
    assert text == "\n".join(notes_lines()[:n])
    assert not text.endswith("\n")


@pytest.mark.parametrize("n", [1, 3, 36, 50])
def test_tail_returns_last_lines_without_empty_last_line(n: int) -> None:
    assert NOTES.read_bytes().endswith(b"\n"), "the fixture file must end with a newline for this test"
    text = FileService().read(NOTES_PATH, tail=n)
    assert text.split("\n") == notes_lines()[-n:]
    assert text.split("\n")[-1] != ""


@pytest.mark.usefixtures("opener")
def test_whole_file_and_equivalent_spellings(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    service = FileService(root)
    assert service.read(NOTES_PATH) == NOTES.read_text(encoding="utf-8")
    assert (
        service.read(NOTES_PATH, head=5.0)
        == service.read("notes.txt", head=5)
        == service.read("/workspace/sub/../notes.txt", head=5)
    )
    assert service.read("/workspace/short.txt", tail=2) == "b\nc"
    assert service.read("/workspace/short.txt", head=9) == "a\nb\nc"
    assert service.read("/workspace/link_in.txt") == "a\nb\nc"  # a link that stays inside is fine
    assert service.logical("sub/./inner.txt") == "/workspace/sub/inner.txt"


def test_notes_fixture_has_numbered_lines() -> None:
    lines = notes_lines()
    assert len(lines) == 36
    assert [line[:2] for line in lines] == [f"{i:02d}" for i in range(1, 37)]


@given(
    lines=st.lists(
        st.text(alphabet=st.characters(blacklist_characters="\n"), max_size=5), max_size=12
    ).filter(lambda ls: not ls or ls[-1] != ""),
    final_newline=st.booleans(),
    n=st.integers(min_value=1, max_value=15),
)
def test_select_lines_property(lines: list[str], final_newline: bool, n: int) -> None:
    """A final newline ends the last line; it never adds an empty one (unlike the reference tail)."""
    text = "\n".join(lines) + ("\n" if final_newline and lines else "")
    assert select_lines(text, head=n) == "\n".join(lines[:n])
    assert select_lines(text, tail=n) == "\n".join(lines[-n:])
    assert select_lines(text) == text


def test_tool_declaration_matches_the_reference_server() -> None:
    session = call_tools(None, [])
    (tool,) = session.tools
    assert tool.name == "read_text_file"
    assert tool.input_schema == {
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "head": {
                "type": "number",
                "description": "If provided, returns only the first N lines of the file",
            },
            "tail": {
                "type": "number",
                "description": "If provided, returns only the last N lines of the file",
            },
        },
        "required": ["path"],
    }
    assert tool.annotations is not None and tool.annotations.read_only_hint is True
    listed = next(f for d, f in session.frames if d == "to_application" and "tools" in f.get("result", {}))
    assert json.dumps(listed).count("inputSchema") == 1  # camelCase on the wire
