"""Path input that means something else on Windows is refused on every OS (issue 23).

Each case first shows, with ``pathlib.PureWindowsPath`` (Windows' path rules, run here on
Linux), that Windows would read the input as another place than the POSIX reading does; then
the service refuses it with one clear line, directly and over MCP, and reads nothing.
"""

from __future__ import annotations

import ntpath
import warnings
from pathlib import Path, PurePosixPath, PureWindowsPath

import pytest
from _engine_support import call_tools, spy_reads, text_of

from lessons_lib.services.files.pathrules import name_problem
from lessons_lib.services.files.service import FileService, ToolRefusal

FIX = "write a logical path such as /workspace/notes.txt"


def reserved_on_windows(name: str) -> bool:
    """Windows' own rule for device names, as the standard library states it."""
    if hasattr(ntpath, "isreserved"):  # Python 3.13+
        return bool(ntpath.isreserved(name))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return PureWindowsPath(name).is_reserved()


# id -> (input, the start of the refusal); what Windows makes of each input is checked below
CASES: dict[str, tuple[str, str]] = {
    "drive-absolute": (
        "C:\\Windows\\win.ini",
        "Invalid path: C:\\Windows\\win.ini names a Windows drive (C:)",
    ),
    "drive-slash": ("C:/Windows/win.ini", "Invalid path: C:/Windows/win.ini names a Windows drive (C:)"),
    "drive-relative": ("C:notes.txt", "Invalid path: C:notes.txt names a Windows drive (C:)"),
    "long-path": ("\\\\?\\C:\\secret.txt", "Invalid path: \\\\?\\C:\\secret.txt is a Windows device or long"),
    "device-namespace": ("\\\\.\\PhysicalDrive0", "Invalid path: \\\\.\\PhysicalDrive0 is a Windows device"),
    "unc-share": (
        "\\\\server\\share\\notes.txt",
        "Invalid path: \\\\server\\share\\notes.txt is a Windows network",
    ),
    "unc-forward": (
        "//server/share/notes.txt",
        "Invalid path: //server/share/notes.txt is a Windows network",
    ),
    "backslash": (
        "/workspace\\..\\..\\secret.txt",
        "Invalid path: /workspace\\..\\..\\secret.txt contains a back",
    ),
    "backslash-relative": ("sub\\notes.txt", "Invalid path: sub\\notes.txt contains a backslash"),
    "device-nul": ("/workspace/NUL", "Invalid path: the name 'NUL' is the Windows device NUL"),
    "device-con-ext": ("/workspace/con.txt", "Invalid path: the name 'con.txt' is the Windows device CON"),
    "device-com1-ext": (
        "/workspace/sub/COM1.tar.gz",
        "Invalid path: the name 'COM1.tar.gz' is the Windows dev",
    ),
    "device-lpt-space": ("/workspace/LPT1 .txt", "Invalid path: the name 'LPT1 .txt' is the Windows device"),
    "trailing-dot": ("/workspace/notes.txt.", "Invalid path: the name 'notes.txt.' ends with a dot or a sp"),
    "trailing-space": (
        "/workspace/notes.txt ",
        "Invalid path: the name 'notes.txt ' ends with a dot or a sp",
    ),
    "trailing-dot-folder": (
        "/workspace/sub./x.txt",
        "Invalid path: the name 'sub.' ends with a dot or a space",
    ),
    "stream": ("/workspace/notes.txt:secret", "Invalid path: the name 'notes.txt:secret' contains ':'"),
    "stream-type": ("/workspace/a.txt::$DATA", "Invalid path: the name 'a.txt::$DATA' contains ':'"),
    "forbidden-char": ("/workspace/what?.txt", "Invalid path: the name 'what?.txt' contains '?'"),
}


def windows_reading(path: str) -> str:
    """What Windows makes of the input, from ``PureWindowsPath``; '' where it reads it as POSIX does."""
    win, posix = PureWindowsPath(path), PurePosixPath(path)
    if win.drive:
        return f"drive {win.drive}" + ("" if win.root else " (relative to that drive's current folder)")
    names = win.relative_to(win.anchor).parts
    if names != posix.relative_to(posix.anchor).parts:
        return f"parts {names}"
    last = win.name
    if reserved_on_windows(last):
        return "a device"
    return ""


def test_windows_reads_these_inputs_differently() -> None:
    """The reason for the rule, shown with Windows' own path semantics (not assumed)."""
    readings = {case: windows_reading(path) for case, (path, _) in CASES.items()}
    assert readings["drive-absolute"] == readings["drive-slash"] == "drive C:"
    assert readings["drive-relative"] == "drive C: (relative to that drive's current folder)"
    assert readings["long-path"] == "drive \\\\?\\C:"
    assert readings["device-namespace"] == "drive \\\\.\\PhysicalDrive0"
    assert readings["unc-share"] == readings["unc-forward"] == "drive \\\\server\\share"
    assert readings["backslash-relative"] == "parts ('sub', 'notes.txt')"  # one name on POSIX, two here
    for case in ("device-nul", "device-con-ext", "device-com1-ext", "device-lpt-space"):
        assert readings[case] == "a device", case


@pytest.mark.parametrize("case", sorted(CASES))
def test_windows_input_is_refused_on_every_os(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, expected = CASES[case]
    (tmp_path / "notes.txt").write_text("x\n", encoding="utf-8")
    spy = spy_reads(monkeypatch)
    with pytest.raises(ToolRefusal) as refused:
        FileService(tmp_path).read(path)
    message = str(refused.value)
    assert message.startswith(expected) and message.endswith(FIX), message
    assert "\n" not in message and str(tmp_path) not in message
    assert spy.calls == []


def test_windows_input_over_mcp_is_a_tool_error(tmp_path: Path) -> None:
    paths = [path for path, _ in CASES.values()]
    session = call_tools(tmp_path, [("read_text_file", {"path": p}) for p in paths])
    assert [r.is_error for r in session.results] == [True] * len(paths)
    assert [text_of(r) for r in session.results] == [str(_refusal(tmp_path, p)) for p in paths]


def _refusal(root: Path, path: str) -> ToolRefusal:
    try:
        FileService(root).read(path)
    except ToolRefusal as refusal:
        return refusal
    raise AssertionError(f"{path!r} was not refused")


@pytest.mark.parametrize(
    "name",
    ["CON", "prn", "Aux", "nul.txt", "COM1", "com9.log", "LPT3.tar.gz", "COM\u00b9", "CONIN$", "NUL .txt"],
)
def test_device_names_agree_with_the_standard_library(name: str) -> None:
    assert reserved_on_windows(name)
    assert name_problem(name) is not None and "Windows device" in str(name_problem(name))


@pytest.mark.parametrize("name", ["notes.txt", "console.txt", "COM10", "nul_x", "LPT", "CONFIG.SYS", "a.b.c"])
def test_ordinary_names_pass(name: str) -> None:
    assert not reserved_on_windows(name)
    assert name_problem(name) is None


def test_ordinary_paths_still_read(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "console.txt").write_text("ok\n", encoding="utf-8")
    service = FileService(tmp_path)
    assert service.read("/workspace/sub/console.txt") == service.read("sub/./console.txt") == "ok\n"
