"""Where the course's data lives: one constant, never the working directory.
Every lesson reads its example files and fixtures from here.

``DATA_DIR`` is the repository's ``data/`` folder (editable install, Binder) or the copy
packed into the wheel as ``lessons_lib/data``. ``LESSONS_DATA_DIR`` overrides both.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

_PACKAGE: Final = Path(__file__).resolve().parent.parent


def _find_data_dir() -> Path:
    override = os.environ.get("LESSONS_DATA_DIR")
    if override:
        return Path(override).expanduser().resolve()
    for candidate in (_PACKAGE / "data", _PACKAGE.parent / "data"):
        if (candidate / "workspace").is_dir():
            return candidate
    return _PACKAGE.parent / "data"


DATA_DIR: Final[Path] = _find_data_dir()
WORKSPACE_DIR: Final[Path] = DATA_DIR / "workspace"
LOGICAL_ROOT: Final[str] = "/workspace"
"""The path the model and the MCP messages use; it maps to ``WORKSPACE_DIR`` on disk."""
NOTEBOOK_DIR: Final[Path] = DATA_DIR.parent / "notebooks"
"""The lessons' folder beside ``data/`` (a repository checkout, Binder)."""


def lesson_notebooks() -> list[Path]:
    """Every lesson notebook, ``NN_*.ipynb``, in lesson order."""
    return sorted(NOTEBOOK_DIR.glob("[0-9][0-9]_*.ipynb"))
