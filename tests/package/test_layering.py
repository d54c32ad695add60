"""The package's layers, read from its imports (``ast``): no cycle, no upward import, stdlib-only core.

Layers, lowest first (README "The library at a glance"): the kernel (``core``, ``checks``,
``engine``, ``views``), the plug-ins (``apis``: one folder per model API; ``examples``: one
folder per example), ``course``, ``cli``, then the top-level facade. A module may import its
own layer or a lower one, so the kernel never imports a plug-in. ``core`` and ``checks``
import the standard library only; the model and MCP SDKs are imported in ``engine`` and the
plug-ins only, and inside a plug-in a file's role sets its imports (``STDLIB_ROLES``). A
module whose name starts with ``_`` is imported only from its own folder. Every import
counts: top level, inside a function (lazy) and under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path

import pytest

LAYERS = ("core", "checks", "engine", "views", "apis", "services", "examples", "workshop", "course", "cli")
KERNEL = ("core", "checks", "engine", "views")
PLUGINS = ("apis", "services", "examples")
STDLIB_ROLES = ("data", "shapes", "kinds", "checks", "guards")
"""Inside a plug-in a file's role sets its imports: these roles take the standard library only;
adapters, stand-ins and services may use the SDKs. The kernel sits below the plug-ins, so a
kernel module importing one is an upward import."""
STDLIB_ONLY = ("core", "checks")
SDKS = ("openai", "mcp", "httpx2", "anthropic")
PACKAGE = Path(__file__).resolve().parents[2] / "lessons_lib"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, root: Path) -> list[tuple[str, int]]:
    """(imported module, line) for every import statement in the file, relative ones resolved."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target == "__future__":
                continue
            # ``from lessons_lib.core import queries`` imports the submodule lessons_lib.core.traces.queries
            found += [(f"{target}.{alias.name}", node.lineno) for alias in node.names]
            found.append((target, node.lineno))
    return found


def layer_of(module: str) -> int:
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else len(LAYERS)


def check_layers(root: Path) -> list[str]:
    """Every violation in the package at ``root``, one line each (empty when the layers hold)."""
    modules = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    problems = []
    for mod, path in modules.items():
        where = path.relative_to(root.parent).as_posix()
        for target, line in imports_of(path, root):
            top = target.split(".")[0]
            if top == root.name:
                if target in modules and target != mod:
                    graph[mod].add(target)
                if target in modules and layer_of(target) > layer_of(mod):
                    problems.append(f"{where}:{line}: upward import of {target}")
                if target in modules and _private_elsewhere(target, mod):
                    problems.append(f"{where}:{line}: private module {target} imported from another folder")
            elif top not in sys.stdlib_module_names:
                layer = LAYERS[layer_of(mod)] if layer_of(mod) < len(LAYERS) else "facade"
                if layer in STDLIB_ONLY:
                    problems.append(f"{where}:{line}: third-party import {top} in {layer}/")
                elif layer in PLUGINS and path.stem in STDLIB_ROLES:
                    problems.append(
                        f"{where}:{line}: third-party import {top} in a plug-in's {path.stem} module"
                    )
                elif top in SDKS and layer not in ("engine", *PLUGINS, "workshop"):
                    problems.append(
                        f"{where}:{line}: SDK import {top} outside engine/, the plug-ins and workshop/"
                    )
    problems += [f"import cycle: {' -> '.join(c)}" for c in cycles(graph)]
    return problems


def _private_elsewhere(target: str, importer: str) -> bool:
    """A module whose name starts with ``_`` imported from outside its own folder."""
    folder, _, name = target.rpartition(".")
    return name.startswith("_") and importer.rpartition(".")[0] != folder and importer != folder


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle for each strongly connected group of modules that import each other."""
    found, state = [], dict.fromkeys(graph, 0)  # 0 new, 1 on the stack, 2 done

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state[nxt] == 1:
                found.append([*stack[stack.index(nxt) :], nxt])
            elif state[nxt] == 0:
                visit(nxt, [*stack, nxt])
        state[node] = 2

    for node in sorted(graph):
        if state[node] == 0:
            visit(node, [node])
    return found


def test_the_package_keeps_its_layers() -> None:
    assert check_layers(PACKAGE) == []


def test_every_module_is_in_a_layer() -> None:
    top = {p.name for p in PACKAGE.glob("*.py")}
    assert top == {"__init__.py", "__main__.py"}, "only the facade lives at the top"
    assert {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()} == set(LAYERS)


@pytest.mark.parametrize(
    ("module", "planted", "expected"),
    [
        ("core/paths.py", "from lessons_lib.cli.run import main", "core/paths.py:{n}: upward import of"),
        ("checks/verify.py", "    from lessons_lib.engine import host", "upward import of lessons_lib.engin"),
        ("core/glossary.py", "import numpy", "third-party import numpy in core/"),
        ("checks/doctor.py", "import jsonschema", "third-party import jsonschema in checks/"),
        ("views/narrate.py", "import openai", "SDK import openai outside engine/"),
        ("examples/files/whatif.py", "from lessons_lib.examples.files import widgets", "import cycle:"),
        (
            "engine/host.py",
            "    from lessons_lib.examples.orders import run",
            "upward import of lessons_lib.exampl",
        ),
        (
            "views/narrate.py",
            "from lessons_lib.apis.chat import adapter",
            "upward import of lessons_lib.apis.chat",
        ),
        ("services/orders/data.py", "import openai", "third-party import openai in a plug-in's data module"),
        ("apis/chat/kinds.py", "import jsonschema", "third-party import jsonschema in a plug-in's kinds"),
        (
            "core/fieldkinds/kindtables.py",
            "    from lessons_lib.apis.anthropic import kinds",
            "upward import of lessons_lib.apis.anthr",
        ),
        (
            "examples/orders/guards.py",
            "import jsonschema",
            "third-party import jsonschema in a plug-in's guards",
        ),
        (
            "course/quiz.py",
            "from lessons_lib.checks import _mistakes",
            "private module lessons_lib.checks._mist",
        ),
        (
            "apis/chat/adapter.py",
            "    from lessons_lib.checks._rules import x",
            "private module lessons_lib.checks._rul",
        ),
    ],
)
def test_a_planted_violation_is_found(tmp_path: Path, module: str, planted: str, expected: str) -> None:
    copy = tmp_path / "lessons_lib"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "data"))
    target = copy / module
    text = target.read_text(encoding="utf-8")
    if planted.startswith("    "):  # a lazy import inside a function counts as well
        planted = "\n\ndef _planted() -> None:\n" + planted + "\n"
    else:
        planted = "\n" + planted + "\n"
    target.write_text(text + planted, encoding="utf-8")
    n = len((text + planted).splitlines())  # the planted line is the last one
    problems = check_layers(copy)
    assert any(expected.format(n=n) in p for p in problems), problems
    assert check_layers(PACKAGE) == []  # the real package is untouched
