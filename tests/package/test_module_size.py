"""No module of ``lessons_lib`` is over 350 lines: a module that grows past it is split by concept.

The facade (``lessons_lib/__init__.py``) is the one exception: a table of the public names and the
``TYPE_CHECKING`` imports that give each its type, a list rather than logic.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "lessons_lib"
LIMIT = 350
EXEMPT = frozenset({"__init__.py"})
"""Paths relative to the package: the facade only."""


def oversized(package: Path = PACKAGE, limit: int = LIMIT) -> dict[str, int]:
    """Each module over ``limit`` lines, with its line count (paths relative to ``package``)."""
    sizes = {
        path.relative_to(package).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(package.rglob("*.py"))
    }
    return {name: n for name, n in sizes.items() if n > limit and name not in EXEMPT}


def test_no_module_is_over_350_lines() -> None:
    assert oversized() == {}


def test_a_long_module_is_found(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "long.py").write_text("x = 1\n" * (LIMIT + 1), encoding="utf-8")
    (tmp_path / "sub" / "short.py").write_text("x = 1\n" * LIMIT, encoding="utf-8")
    (tmp_path / "__init__.py").write_text("x = 1\n" * (LIMIT + 1), encoding="utf-8")
    assert oversized(tmp_path) == {"sub/long.py": LIMIT + 1}
