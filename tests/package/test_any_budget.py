"""How much of the package is typed ``Any``: at most ``BUDGET`` uses in ``lessons_lib``'s ``.py`` files.

A use is the name ``Any`` as Python reads it (``tokenize`` NAME tokens): in an annotation, an
alias, a cast or an import. Comments, docstrings and other strings are not counted, so a
docstring may still say why a value is loose. Where a value really is loose, prefer a named alias
with a docstring (``JSONDict``, ``OpenApiObject``) or ``object`` where it is only passed on.
"""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "lessons_lib"
BUDGET = 140
"""Issue 35's ceiling for the whole package."""


def any_uses(source: str) -> int:
    """How many times the name ``Any`` occurs in this Python source, outside comments and strings."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return sum(1 for tok in tokens if tok.type == tokenize.NAME and tok.string == "Any")


def package_any_uses() -> dict[str, int]:
    """Module path (relative to the package) -> its uses of ``Any``, for modules that have some."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        uses = any_uses(path.read_text(encoding="utf-8"))
        if uses:
            found[path.relative_to(PACKAGE).as_posix()] = uses
    return found


def test_the_counter_counts_names_not_words() -> None:
    source = (
        '"""Any docstring: Any."""\n'
        "from typing import Any  # Any comment\n"
        "x: dict[str, Any] = {}\n"
        'y = "Any"\n'
        "AnyThing = 1\n"
        "def f(v: Any) -> Any: ...\n"
    )
    assert any_uses(source) == 4


def test_the_package_uses_any_at_most_budget_times() -> None:
    found = package_any_uses()
    total = sum(found.values())
    worst = ", ".join(f"{name} {n}" for name, n in sorted(found.items(), key=lambda kv: -kv[1])[:8])
    assert total <= BUDGET, f"lessons_lib uses Any {total} times (budget {BUDGET}); most in: {worst}"
