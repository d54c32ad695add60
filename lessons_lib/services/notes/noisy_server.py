"""The reference server plus the mistake seed 004 ranks first: a ``print`` to stdout. Lesson 12.

``python -m lessons_lib.services.notes.noisy_server FOLDER`` prints one greeting line to stdout
before serving; with ``--glued`` the greeting has no line end, so it sticks to the first JSON-RPC
frame and that frame (the reply to ``initialize``) is lost. Shown in lesson 12; never copy it.
"""

import sys
from collections.abc import Sequence

import lessons_lib.services.notes.server as notes_server


def main(argv: Sequence[str] | None = None) -> None:
    """Print to stdout (the mistake), then serve as the reference server does."""
    args = list(sys.argv[1:] if argv is None else argv)
    glued = "--glued" in args
    print(
        "notes server: ready", end="" if glued else "\n", flush=True
    )  # the mistake: stdout is the protocol's
    notes_server.main([a for a in args if a != "--glued"])


if __name__ == "__main__":
    main()
