"""Command-line arguments are bounded before anything starts (issue 40, point 5).

``openapi serve --port 99999`` once printed the ready banner and a fresh token, then three
tracebacks; ``--root ""`` served the current folder; ``mcp-revisions --head NaN`` sent ``null``.
"""

from __future__ import annotations

import socket

import pytest

from lessons_lib.cli.run import main as main_run
from lessons_lib.examples.files.cli_serve import main as main_serve
from lessons_lib.examples.mcp.cli import main_revisions
from lessons_lib.examples.openapi.cli import main as main_openapi


@pytest.mark.parametrize("port", ["99999", "-1", "65536", "http"])
def test_openapi_serve_refuses_a_port_out_of_range_before_any_banner(
    port: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main_openapi(["serve", "--port", port]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "1 to 65535" in err and "Traceback" not in err


def test_openapi_serve_refuses_a_port_in_use_before_any_banner(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main_openapi(["serve", "--port", str(port)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "bearer" not in (out + err).lower()
    assert len(err.strip().splitlines()) == 1 and f"--port {port}" in err


@pytest.mark.parametrize("main", [main_run, main_serve], ids=["run", "serve"])
@pytest.mark.parametrize("root", ["", "  "])
def test_an_empty_root_is_refused_not_taken_for_the_current_folder(
    main: object, root: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--root", root, "--path", "/workspace/README.md"] if main is main_run else ["--root", root])  # type: ignore[operator]
    assert done.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and "empty path" in err


@pytest.mark.parametrize("head", ["NaN", "Infinity", "-Infinity", "1e400", "-1e400"])
def test_mcp_revisions_refuses_a_number_json_cannot_carry(
    head: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main_revisions([f"--head={head}"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "--head must be JSON" in err
