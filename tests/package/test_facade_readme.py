"""README's "Repository layout" section and its "Lessons NN add ..." paragraphs name only paths
that exist: every backticked token there that contains ``/`` or ends in ``.py``, ``.json`` or
``.ipynb`` is a file or folder of the repository, or a module of ``lessons_lib`` (``engine/host``).
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "lessons_lib"
TOKEN = re.compile(r"`([^`\s]+)`")
# MCP methods, written like paths in the prose
METHODS = {"tools/call", "tools/list", "resources/read", "prompts/get", "notifications/tools/list_changed"}
LESSON_PARAGRAPH = re.compile(r"^(Lessons? \d\d(-\d\d)? .{0,60}?\badds?\b|The gradebook for a class)", re.S)


def layout_and_lesson_paragraphs(readme: str) -> list[str]:
    """The text of the "Repository layout" section and of each paragraph that says what lessons add."""
    layout = readme.split("\n## Repository layout\n", 1)[1].split("\n## ", 1)[0]
    paragraphs = [p for p in readme.split("\n\n") if LESSON_PARAGRAPH.match(p.strip())]
    return [layout, *paragraphs]


def named_paths(text: str) -> list[str]:
    """Backticked tokens that look like paths: containing ``/`` or ending in .py, .json or .ipynb."""
    tokens = (t.rstrip(".,;:") for t in TOKEN.findall(text))
    return [t for t in tokens if t not in METHODS and ("/" in t or t.endswith((".py", ".json", ".ipynb")))]


def exists(token: str, base: Path = REPO) -> bool:
    """A path of the repository, or a module or folder of ``lessons_lib``; a file name alone may
    sit anywhere under ``data/`` or ``examples/`` (the layout names them in a list of one folder),
    and a pattern (``data/*.json``) matches at least one file."""
    token = token.split()[0]
    if token.startswith(("http://", "https://")):
        return True
    if "*" in token:
        return any(base.glob(token))
    candidates = [base / token, base / "lessons_lib" / token, base / "lessons_lib" / f"{token}.py"]
    if any(c.exists() for c in candidates):
        return True
    if "/" not in token:
        return any(any((base / folder).rglob(token)) for folder in ("data", "examples"))
    return False


def missing_paths(readme: str, base: Path = REPO) -> list[str]:
    return [
        t for text in layout_and_lesson_paragraphs(readme) for t in named_paths(text) if not exists(t, base)
    ]


def test_the_readme_names_only_paths_that_exist() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(layout_and_lesson_paragraphs(readme)) >= 5
    assert not missing_paths(readme)


def test_a_missing_path_is_found() -> None:
    readme = (
        "Lessons 30-33 (the desk) add `engine/orderdesk` and `core/paths` and `views/legend.py`.\n\n"
        "## Repository layout\n\n- `notebooks/`, `no_such_dir/`, `data/*.json`, `data/*.nope`\n"
        "  with `gone.json`\n\n## Next\n"
    )
    assert missing_paths(readme) == ["no_such_dir/", "data/*.nope", "gone.json", "engine/orderdesk"]
