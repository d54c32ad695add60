"""A learner's own MCP server file, loaded to be served over HTTP. Lessons 12 and 60-62.

Lesson 12's server file runs itself on stdio (``python my_server.py FOLDER``, its last four lines).
To serve the same server over Streamable HTTP (``serve --http --file``) or to put it through the
official conformance suite (``conformance server --file``), the file is imported as a module (so
its ``if __name__ == "__main__":`` block does not run) and its server is taken from it: the
builder ``build_notes_server(root)`` (lesson 12's name) or ``build_server(root)``, else the one
server object the module holds (``MCPServer`` or a low-level ``Server``). Nothing is copied.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from lessons_lib.engine.http.serve import HttpServable

BUILDERS: Final = ("build_notes_server", "build_server")


class ServerFileError(ValueError):
    """The file cannot give a server; the message is one line that says why and what to do."""


def load_server(path: Path, root: Path) -> HttpServable:
    """The server that ``path`` builds over ``root`` (or holds); :class:`ServerFileError` otherwise."""
    from mcp.server import MCPServer, Server

    if not path.is_file():
        raise ServerFileError(f"no such file: {path}; give the path of your server's .py file")
    if path.suffix != ".py":
        raise ServerFileError(f"{path.name} is not a .py file; save the server as a Python file first")
    spec = importlib.util.spec_from_file_location(f"lessons_server_file_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ServerFileError(f"{path.name} cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        raise ServerFileError(f"{path.name} line {exc.lineno}: syntax error ({exc.msg})") from None
    except Exception as exc:  # noqa: BLE001  (the learner's code: any failure is one line)
        raise ServerFileError(f"{path.name} failed while loading: {type(exc).__name__}: {exc}") from None
    kinds = (MCPServer, Server)
    for name in BUILDERS:
        build = getattr(module, name, None)
        if callable(build):
            try:
                server = build(root)
            except Exception as exc:  # noqa: BLE001
                raise ServerFileError(f"{name}({root.name!r}) failed: {type(exc).__name__}: {exc}") from None
            if not isinstance(server, kinds):
                raise ServerFileError(f"{name}(root) returned {type(server).__name__}, not an MCP server")
            return server
    found = [value for value in vars(module).values() if isinstance(value, kinds)]
    if len(found) == 1:
        return found[0]
    raise ServerFileError(
        f"{path.name} defines no {BUILDERS[0]}(root) or {BUILDERS[1]}(root), nor exactly one server object"
    )
