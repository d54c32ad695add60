"""The console policy of every command: print in the console's encoding, never fail on it.
Used by every command the lessons run in a terminal (lesson 10's cheat sheet lists them).

A Chinese Windows console encodes output redirected to a file or a pipe in GBK, a Western one
in cp1252; neither has every character the course prints (``⏎``, ``✓``, and cp1252 no Chinese
at all), and Python's default there is to raise ``UnicodeEncodeError``. The policy, stated in
the README ("Platforms"): stdout and stderr keep the encoding the console (or
``PYTHONIOENCODING``) chose, so Chinese shows wherever the code page has it, and a character
the encoding lacks is written as a backslash escape (``\\u23ce``) instead of stopping the
command. Files the commands write (fixtures, SVG, CSV, HTML) are always UTF-8, whatever the
console. The standard library's ``errors="backslashreplace"`` does the work.
"""

from __future__ import annotations

import sys
from typing import Final

SAFE_ERRORS: Final = "backslashreplace"


def safe_streams() -> None:
    """Make stdout and stderr write what their encoding lacks as escapes (every command)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if callable(reconfigure) and getattr(stream, "errors", None) == "strict":
            reconfigure(errors=SAFE_ERRORS)
