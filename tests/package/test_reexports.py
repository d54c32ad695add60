"""No module of ``lessons_lib`` hands on a name it does not define, except the facade (``ast``). Issue 22.

A module re-exports a name when it imports the name from another ``lessons_lib`` module and either
lists it in ``__all__`` or another module imports that name from it. The facade
(``lessons_lib/__init__.py``) is the one module allowed to do so. Run as a script to list them;
import each name from the module that defines it.
"""

from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "lessons_lib"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(node: ast.ImportFrom, name: str, is_init: bool) -> str:
    if not node.level:
        return node.module or ""
    package = name if is_init else name.rpartition(".")[0]
    base = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def _imported(tree: ast.Module) -> set[str]:
    """Every name a module binds by an import, at any depth."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return found


def _all(tree: ast.Module) -> list[str]:
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            value = getattr(node, "value", None)
            if isinstance(value, (ast.List, ast.Tuple)):
                return [
                    e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
                ]
    return []


def _defined(tree: ast.Module) -> set[str]:
    """Names a module defines itself at top level (functions, classes, assignments)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.add(node.id)
    return found


def _attributes(
    tree: ast.Module, mod: str, path: Path, trees: dict[str, tuple[Path, ast.Module]]
) -> set[tuple[str, str]]:
    """(module, name) for ``alias.name`` where ``alias`` is an imported package module."""
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = _resolve(node, mod, path.name == "__init__.py")
            aliases |= {a.asname or a.name: f"{source}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            aliases |= {a.asname: a.name for a in node.names if a.asname}
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            target = aliases.get(node.value.id)
            if target in trees and target != root_name(trees):
                t_tree = trees[target][1]
                if node.attr not in _defined(t_tree) and node.attr in _imported(t_tree):
                    if f"{target}.{node.attr}" not in trees:
                        found.add((target, node.attr))
    return found


def root_name(trees: dict[str, tuple[Path, ast.Module]]) -> str:
    return min(trees, key=len)


def reexports(root: Path = PACKAGE) -> list[str]:
    """``module.name  (why)`` for every name handed on by a module that does not define it."""
    trees = {module_name(p, root): (p, ast.parse(p.read_text(encoding="utf-8"))) for p in root.rglob("*.py")}
    facade = root.name
    handed: set[tuple[str, str, str]] = set()
    for mod, (path, tree) in trees.items():
        bound, own = _imported(tree), _defined(tree)
        if mod != facade:
            handed |= {(mod, n, "__all__") for n in _all(tree) if n in bound and n not in own}
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            source = _resolve(node, mod, path.name == "__init__.py")
            if source == facade or source not in trees:
                continue
            s_tree = trees[source][1]
            s_own, s_bound = _defined(s_tree), _imported(s_tree)
            for alias in node.names:
                n = alias.name
                if f"{source}.{n}" in trees or n in s_own or n not in s_bound:
                    continue
                handed.add((source, n, f"imported by {mod}"))
        handed |= {(s, n, f"used by {mod}") for s, n in _attributes(tree, mod, path, trees)}
    return sorted(f"{m}.{n}  ({why})" for m, n, why in handed)


def test_no_module_reexports_a_name_it_does_not_define() -> None:
    assert reexports() == []


def test_only_the_facade_answers_through_a_module_getattr() -> None:
    """A name other modules import is defined or is a function: no module ``__getattr__`` but the facade's."""
    found = [
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__"
    ]
    assert found == ["__init__.py"]


@pytest.mark.parametrize(
    ("module", "planted", "expected"),
    [
        (
            "views/sidebyside.py",
            "from lessons_lib.core.jsonvalue import same\n__all__ = ['same']",
            "lessons_lib.views.sidebyside.same  (__all__)",
        ),
        (
            "core/traces/queries.py",
            "from lessons_lib.core.jsonvalue import get_in",
            "queries.get_in  (imported by",
        ),
        (
            "views/narrate.py",
            "x = q.get_in",
            "lessons_lib.core.traces.queries.get_in  (used by lessons_lib.views.narrate)",
        ),
    ],
)
def test_a_planted_reexport_is_found(tmp_path: Path, module: str, planted: str, expected: str) -> None:
    copy = tmp_path / "lessons_lib"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "data"))
    target = copy / module
    target.write_text(target.read_text(encoding="utf-8") + "\n" + planted + "\n", encoding="utf-8")
    if "imported by" in expected:  # a user that imports the name from the module that does not define it
        user = copy / "views" / "legend.py"
        user.write_text(
            user.read_text(encoding="utf-8") + "\nfrom lessons_lib.core.traces.queries import get_in\n"
        )
    found = reexports(copy)
    assert any(expected in line for line in found), found


if __name__ == "__main__":
    found = reexports()
    print("\n".join(found))
    print(len({line.split()[0] for line in found}), "names", file=sys.stderr)
