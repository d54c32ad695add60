"""README's "Repository layout" section, its "The library at a glance" section and its "Lessons NN
add ..." paragraphs name only paths that exist: every backticked token there that contains ``/`` or
ends in ``.py``, ``.json`` or ``.ipynb`` is a file or folder of the repository, or a module of
``lessons_lib`` (``engine/host``); and every module the glance table names in a layer's row is a
module or folder of that layer (``http/serve`` in the ``engine/`` row, ``adapter`` in
``apis/chat/``'s parentheses).
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "lessons_lib"
LAYERS = ("core", "checks", "engine", "views", "apis", "services", "examples", "workshop", "course", "cli")
"""A module may be named by its path inside its layer's folder (``plugins/discover``)."""
TOKEN = re.compile(r"`([^`\s]+)`")
# MCP methods, written like paths in the prose
METHODS = {"tools/call", "tools/list", "resources/read", "prompts/get", "notifications/tools/list_changed"}
LESSON_PARAGRAPH = re.compile(r"^(Lessons? \d\d(-\d\d)? .{0,60}?\badds?\b|The gradebook for a class)", re.S)


def section(readme: str, title: str) -> str:
    """The text of the section ``## title``, up to the next ``## `` heading."""
    return readme.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def layout_and_lesson_paragraphs(readme: str) -> list[str]:
    """The text of the "Repository layout" section, of "The library at a glance" up to its command
    list, and of each paragraph that says what lessons add."""
    paragraphs = [p for p in readme.split("\n\n") if LESSON_PARAGRAPH.match(p.strip())]
    glance = section(readme, "The library at a glance").split("\nCommand line (", 1)[0]
    return [section(readme, "Repository layout"), glance, *paragraphs]


GROUP = re.compile(r"`([^`\s]+)`|(\()|(\))")


def table_modules(readme: str) -> list[str]:
    """Every module the glance table names, as a path under ``lessons_lib``: a bare name in a
    layer's row is in that layer's folder; inside parentheses, in the folder(s) just before them."""
    found = []
    for row in section(readme, "The library at a glance").splitlines():
        cells = row.split(" | ")
        if not row.startswith("| `") or len(cells) < 3:
            continue
        layer = cells[0].removeprefix("| `").split("`", 1)[0]
        pending: list[str] = []
        base = [layer]
        for token, opening, closing in GROUP.findall(cells[1]):
            if opening:
                base, pending = pending or base, []
            elif closing:
                base = [layer]
            elif token.endswith("/"):
                pending.append(token if token.startswith(layer) else layer + token)
            else:
                found += [f"{folder}{token}" for folder in base]
    return found


def missing_modules(readme: str, package: Path = PACKAGE) -> list[str]:
    return [
        m for m in table_modules(readme) if not (package / f"{m}.py").exists() and not (package / m).is_dir()
    ]


def named_paths(text: str) -> list[str]:
    """Backticked tokens that look like paths: containing ``/`` or ending in .py, .json or .ipynb."""
    tokens = (t.rstrip(".,;:") for t in TOKEN.findall(text))
    return [
        t
        for t in tokens
        if t not in METHODS and "<" not in t and ("/" in t or t.endswith((".py", ".json", ".ipynb")))
    ]


def exists(token: str, base: Path = REPO) -> bool:
    """A path of the repository, or a module or folder of ``lessons_lib``; a file name alone may
    sit anywhere under ``data/`` or ``examples/`` (the layout names them in a list of one folder),
    and a pattern (``data/*.json``) matches at least one file."""
    token = token.split()[0]
    if token.startswith(("http://", "https://")):
        return True
    if "*" in token:
        return any(base.glob(token))
    package = base / "lessons_lib"
    candidates = [base / token, package / token, package / f"{token}.py"]
    candidates += [package / layer / name for layer in LAYERS for name in (token, f"{token}.py")]
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
    assert len(layout_and_lesson_paragraphs(readme)) >= 6
    assert not missing_paths(readme)


def test_the_glance_table_names_only_modules_that_exist() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    named = table_modules(readme)
    assert {
        "core/traces/trace",
        "engine/http/authority",
        "apis/chat/adapter",
        "workshop/server/judges",
    } <= set(named)
    assert not missing_modules(readme)


def test_a_missing_module_of_the_table_is_found() -> None:
    readme = (
        "\n## The library at a glance\n\n| layer | modules | what |\n|---|---|---|\n"
        "| `engine/` | `host`, `httpauth`, `http/serve`; `standins/gone` | loop |\n"
        "| `apis/` | `apis/chat/` and `apis/nope/` (`adapter`, `standin`); shared: `replay` | APIs |\n"
        "\n## Next\n"
    )
    assert missing_modules(readme) == [
        "engine/httpauth",
        "engine/standins/gone",
        "apis/nope/adapter",
        "apis/nope/standin",
    ]


def test_a_missing_path_is_found() -> None:
    readme = (
        "Lessons 30-33 (the desk) add `engine/orderdesk` and `core/paths` and `views/legend.py`.\n\n"
        "## The library at a glance\n\n- `engine/gone`, `apis/<name>/`\n\n"
        "## Repository layout\n\n- `notebooks/`, `no_such_dir/`, `data/*.json`, `data/*.nope`\n"
        "  with `gone.json`\n\n## Next\n"
    )
    assert missing_paths(readme) == [
        "no_such_dir/",
        "data/*.nope",
        "gone.json",
        "engine/gone",
        "engine/orderdesk",
    ]
