"""An example uses another example only through that example's ``ENTRY`` (lessons 30-52).

Read from the imports (``ast``, top level and inside a function): a module of
``lessons_lib/examples/<a>/`` may import from ``lessons_lib.examples.<b>`` (``b`` another example)
only ``from lessons_lib.examples.<b> import ENTRY``. Under ``if TYPE_CHECKING:`` it may name the
other example's types for its annotations: that import never runs.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "lessons_lib"
EXAMPLES = PACKAGE / "examples"


def crossings(root: Path) -> list[str]:
    """Every import, in the examples under ``root``, of another example other than its ``ENTRY``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        own = path.relative_to(root).parts[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {id(n) for block in ast.walk(tree) if _type_checking(block) for n in ast.walk(block)}
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.Import):
                targets = [(alias.name, None) for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                targets = [(node.module, [alias.name for alias in node.names])]
            else:
                continue
            for module, names in targets:
                parts = module.split(".")
                if parts[:2] != ["lessons_lib", "examples"] or len(parts) < 3 or parts[2] == own:
                    continue
                if len(parts) == 3 and names == ["ENTRY"]:
                    continue  # through the other example's entry
                found.append(f"{path.relative_to(root).as_posix()}:{node.lineno}: {module}")
    return found


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def test_examples_use_each_other_only_through_their_entries() -> None:
    assert crossings(EXAMPLES) == []


def test_an_import_of_another_examples_module_is_caught(tmp_path: Path) -> None:
    for name, source in {
        "evolve/a.py": "def f():\n    from lessons_lib.examples.orders.guards import Guards\n",
        "evolve/b.py": "import lessons_lib.examples.orders.run as run\n",
        "evolve/c.py": "from lessons_lib.examples.orders import lab\n",
        "evolve/ok.py": "from lessons_lib.examples.orders import ENTRY as ORDERS\n"
        "from lessons_lib.examples.evolve.toolwatch import fingerprint\n"
        "if TYPE_CHECKING:\n    from lessons_lib.examples.orders.run import OrdersRun\n",
    }.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(source, encoding="utf-8")
    assert crossings(tmp_path) == [
        "evolve/a.py:2: lessons_lib.examples.orders.guards",
        "evolve/b.py:1: lessons_lib.examples.orders.run",
        "evolve/c.py:1: lessons_lib.examples.orders",
    ]
