"""Each docstring and comment of ``lessons_lib`` speaks to a reader of the package: no project
issue numbers ("issue 22") and no seed files, by name or by number (``seeds/``,
``001_c28e3cd8672e2ef3.txt``, ``000_*.md``, "seed 004", "seeds 001 and 003"), which a reader cannot
open: a source is named by its subject ("the source lesson", "the tool-design article"); and each
module's docstring says which lesson uses it.
Test files may name issues and seeds; this checks the package only.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "lessons_lib"
UNREADABLE = re.compile(
    r"(?i)\bissues? \d+|\bseeds/|\b\d{3}_[0-9a-f]{16}\b|\bseeds? \d{3}\b|\b\d{3}_[\w*]*\.(?:md|txt)\b"
)


def docstrings(source: str) -> list[tuple[int, str]]:
    """``(line, text)`` of the module's, each class's and each function's docstring."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            text = ast.get_docstring(node, clean=False)
            if text:
                found.append((getattr(node, "lineno", 1), text))
    return found


def comments(source: str) -> list[tuple[int, str]]:
    """``(line, text)`` of each ``#`` comment."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return [(tok.start[0], tok.string) for tok in tokens if tok.type == tokenize.COMMENT]


def unreadable_references(source: str) -> list[str]:
    """``line: text`` of each docstring or comment that names an issue number or a seed file."""
    return [
        f"{line}: {UNREADABLE.search(text).group(0)}"  # type: ignore[union-attr]
        for line, text in docstrings(source) + comments(source)
        if UNREADABLE.search(text)
    ]


def package_sources() -> dict[str, str]:
    return {
        str(path.relative_to(PACKAGE.parent)): path.read_text(encoding="utf-8")
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def test_no_docstring_or_comment_names_an_issue_number_or_a_seed_file() -> None:
    found = {
        name: refs for name, source in package_sources().items() if (refs := unreadable_references(source))
    }
    assert not found, found


def test_each_module_docstring_names_the_lesson_that_uses_it() -> None:
    missing = [
        name
        for name, source in package_sources().items()
        if not re.search(r"(?i)\blessons?\b", ast.get_docstring(ast.parse(source)) or "")
    ]
    assert not missing, missing


def test_the_check_finds_what_it_forbids_and_spares_ids() -> None:
    planted = '"""The loop (issue 22). Lesson 05."""\n\n\ndef f() -> None:\n    """From seeds/x."""\n'
    planted += "# as 001_c28e3cd8672e2ef3.txt says\nID = 'call_offline_001_1'  # a counter id, not a seed\n"
    planted += '\n\nclass C:\n    """Seed 004 ranks it first."""\n# seeds 001 and 003, as 000_*.md says\n'
    planted += '\n\nclass D:\n    """See 000_*.md."""\n'
    assert unreadable_references(planted) == [
        "1: issue 22",
        "4: seeds/",
        "10: Seed 004",
        "15: 000_*.md",
        "6: 001_c28e3cd8672e2ef3",
        "12: seeds 001",
    ]
