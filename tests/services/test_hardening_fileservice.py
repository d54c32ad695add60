"""The file service under attack from inside the root (issue 11, points 6-8).

Each test here runs twice, once per way of opening (``opener`` in ``_opener.py``): the
descriptor walk and the checked open that Windows uses. Point 6: someone who can write inside
the root swaps a folder for a link to an outside folder while the service reads; in 10,000
tries nothing from outside is ever returned. Point 7: every file-system error is a refusal
with logical paths only, directly and over MCP. Point 8 (the declaration and the service agree
on extra fields) is in ``test_engine_fileservice.py``.
"""

from __future__ import annotations

import os
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from _engine_support import call_tools, text_of
from _opener import opener  # noqa: F401  (a fixture, used by name)

from lessons_lib.core.echo import short
from lessons_lib.services.files.service import FileService, ToolRefusal, read_text_file

SECRET = "OUTSIDE-SECRET-4b1e"
TRIES = 10_000


@pytest.fixture
def swapped(tmp_path: Path) -> Iterator[Path]:
    """A root whose folder ``swap`` keeps turning into a link to an outside folder and back."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "swap").mkdir(parents=True)
    outside.mkdir()
    (root / "swap" / "secret.txt").write_text("inside\n", encoding="utf-8")
    (outside / "secret.txt").write_text(SECRET + "\n", encoding="utf-8")
    stop = threading.Event()

    def swapper() -> None:
        swap, parked = root / "swap", root / "parked"
        while not stop.is_set():
            os.rename(swap, parked)
            os.symlink(outside, swap)
            os.unlink(swap)
            os.rename(parked, swap)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible: the race needs it
    thread = threading.Thread(target=swapper, daemon=True)
    thread.start()
    try:
        yield root
    finally:
        stop.set()
        thread.join(10)
        sys.setswitchinterval(old)


@pytest.mark.usefixtures("opener")
def test_a_folder_swapped_for_a_link_is_never_followed(swapped: Path) -> None:
    service = FileService(swapped)
    seen: Counter[str] = Counter()
    for _ in range(TRIES):
        try:
            text = service.read("/workspace/swap/secret.txt")
        except ToolRefusal as refusal:
            message = str(refusal)
            assert SECRET not in message and str(swapped) not in message, message
            seen[message.split(":")[0].split(" - ")[0]] += 1
        except Exception as exc:  # noqa: BLE001  (counted: a crash is a failure too, reported below)
            seen[f"crash {type(exc).__name__}"] += 1
        else:
            seen["read outside" if SECRET in text else "read inside" if text == "inside\n" else text] += 1
    assert seen["read outside"] == 0, seen
    assert not [k for k in seen if k.startswith("crash")], seen
    assert seen["read inside"] > 0, seen  # the loop really raced the swapper


LONG = "/workspace/" + "a" * 300


@pytest.mark.usefixtures("opener")
@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (LONG, f"Invalid path: a name in {short(LONG)} is too long for the file system"),
        ("/workspace/" + "d/" * 2100 + "x", "File not found: /workspace/"),
        ("/workspace/notes.txt/inner", "File not found: /workspace/notes.txt/inner"),
    ],
    ids=["name-too-long", "path-too-long", "file-as-folder"],
)
def test_file_system_errors_are_refusals_with_logical_paths(tmp_path: Path, path: str, expected: str) -> None:
    (tmp_path / "notes.txt").write_text("x\n", encoding="utf-8")
    with pytest.raises(ToolRefusal) as direct:
        read_text_file(path, root=tmp_path)
    assert str(direct.value).startswith(expected) and str(tmp_path) not in str(direct.value)
    (result,) = call_tools(tmp_path, [("read_text_file", {"path": path})]).results
    assert result.is_error is True and text_of(result) == str(direct.value)
    assert "Internal error" not in text_of(result)


@pytest.mark.skipif(getattr(os, "geteuid", lambda: -1)() in (0, -1), reason="root reads any file; no modes")
@pytest.mark.usefixtures("opener")
def test_an_unreadable_file_is_a_permission_refusal(tmp_path: Path) -> None:
    locked = tmp_path / "locked.txt"
    locked.write_text("x\n", encoding="utf-8")
    locked.chmod(0)
    with pytest.raises(ToolRefusal, match="^Permission denied: /workspace/locked.txt$"):
        read_text_file("/workspace/locked.txt", root=tmp_path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs in this file system")
@pytest.mark.usefixtures("opener")
def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(ToolRefusal, match="^Not a regular file: /workspace/pipe$"):
        read_text_file("/workspace/pipe", root=tmp_path)


def test_the_checked_open_asks_the_system_where_the_handle_is(tmp_path: Path) -> None:
    """The fallback's check reads the opened handle's own path (here /proc/self/fd), not the name."""
    from lessons_lib.services.files.opener import handle_path

    target = tmp_path / "a.txt"
    target.write_text("x", encoding="utf-8")
    fd = os.open(target, os.O_RDONLY)
    try:
        moved = tmp_path / "b.txt"
        os.rename(target, moved)  # the name changes; the handle still knows where the file is
        assert handle_path(fd) in (str(moved.resolve()), None)
    finally:
        os.close(fd)
