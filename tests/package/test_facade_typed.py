"""The facade (``lessons_lib/__init__.py``) stays lazy and is typed: every public name (the kernel's
table ``_EXPORTS`` and the examples' entries) is imported from its real module under
``if TYPE_CHECKING:`` (as openai-python does), so that mypy and IDEs see the real types. The block
is generated from both: run this file as a script (``python tests/package/test_facade_typed.py``)
to rewrite it after a name is added.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FACADE = REPO / "lessons_lib" / "__init__.py"
BEGIN = "if TYPE_CHECKING:  # generated from _EXPORTS and the examples by tests/package/test_facade_typed.py"


def exports() -> dict[str, str]:
    """Every public name -> ``module`` (or ``module:name``): the kernel's table and the examples'."""
    return {**kernel_exports(), **example_exports()}


def example_exports() -> dict[str, str]:
    """The examples' public names, each with the module its entry imports it from."""
    sys.path.insert(0, str(REPO))
    try:
        from lessons_lib.core.plugins.exampleregistry import public_parts
    finally:
        sys.path.remove(str(REPO))
    found = {}
    for name, part in public_parts().items():
        module, own = part.module().__name__, part.own_name(name)
        found[name] = module if own == name else f"{module}:{own}"
    return found


def kernel_exports() -> dict[str, str]:
    """The facade's table ``_EXPORTS``, read from the source (importing it would load nothing)."""
    tree = ast.parse(FACADE.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if node.target.id == "_EXPORTS" and node.value is not None:
                value = ast.literal_eval(node.value)
                assert isinstance(value, dict)
                return value
    raise AssertionError("no _EXPORTS table in lessons_lib/__init__.py")


def typed_block(table: dict[str, str]) -> str:
    """The ``if TYPE_CHECKING:`` block that imports each name of ``table`` from its module.

    Each name is imported ``as`` itself (the explicit re-export of PEP 484), one import a line;
    the writer then lets ruff sort them.
    """
    lines = [BEGIN]
    for public, target in sorted(table.items(), key=lambda item: (item[1], item[0])):
        module, _, defined = target.partition(":")
        renamed = (
            "  # noqa: F401 (renamed: not an explicit re-export)" if defined and defined != public else ""
        )
        lines.append(f"    from {module} import {defined or public} as {public}{renamed}")
    return "\n".join(lines) + "\n"


def imported_under_type_checking() -> dict[str, str]:
    """Public name -> ``module`` (or ``module:name``) as the facade's ``TYPE_CHECKING`` block imports it."""
    tree = ast.parse(FACADE.read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom) and stmt.module, ast.unparse(stmt)
                for alias in stmt.names:
                    public = alias.asname or alias.name
                    assert public not in found, f"{public} imported twice"
                    found[public] = stmt.module if public == alias.name else f"{stmt.module}:{alias.name}"
    return found


def test_the_typed_block_names_the_same_names_and_modules_as_the_table() -> None:
    table = exports()
    hint = "run `python tests/package/test_facade_typed.py` to regenerate"
    assert imported_under_type_checking() == table, hint


def test_a_drifted_table_is_caught() -> None:
    """The comparison fails when the table gains a name the block lacks, or moves one."""
    table = kernel_exports()
    assert imported_under_type_checking() != {**table, "extra_name": "lessons_lib.core.glossary"}
    moved = dict(table, run_chain="lessons_lib.workshop.loop.kit")
    assert imported_under_type_checking() != moved


def test_the_facade_stays_lazy() -> None:
    """Importing the package loads none of the modules behind its names."""
    code = (
        "import sys, lessons_lib\n"
        "print(sorted(m for m in sys.modules if m.startswith('lessons_lib.') "
        "and m not in {'lessons_lib.engine', 'lessons_lib.engine.lazyschema'}))"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "[]"


# three facade names and the end of the signature mypy reveals for each (``Any`` before the block)
REVEALED = {
    "run_chain": "-> lessons_lib.core.traces.trace.Trace",
    "verify_roundtrip": "object, *, sabotage: bool =) -> lessons_lib.checks.verify_report.Report",
    "field_tree": "-> lessons_lib.views.fieldtree.FieldTree",
}


@pytest.mark.system
def test_mypy_sees_the_real_types_of_facade_names(tmp_path: Path) -> None:
    """mypy reveals each name's real signature, not ``Any``, through ``import lessons_lib``."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import lessons_lib\n" + "".join(f"reveal_type(lessons_lib.{name})\n" for name in REVEALED),
        encoding="utf-8",
    )
    command = [sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml")]
    command += ["--cache-dir", str(tmp_path / "cache"), "--follow-imports=silent", str(probe)]
    env = {**os.environ, "MYPYPATH": str(REPO)}
    run = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path)
    revealed = [
        line.split('Revealed type is "', 1)[1] for line in run.stdout.splitlines() if "Revealed" in line
    ]
    assert len(revealed) == len(REVEALED), run.stdout + run.stderr
    for (name, end), shown in zip(REVEALED.items(), revealed, strict=True):
        assert shown.startswith("def (") and shown.endswith(end + '"'), f"{name}: {shown}"


def _rewrite() -> None:
    """Replace the facade's generated block (or add it before its first function) from the names."""
    text = FACADE.read_text(encoding="utf-8")
    block = typed_block(exports())
    if BEGIN in text:
        start = text.index(BEGIN)
        end = text.index("\n\ndef ", start)
        text = text[:start] + block + "\n" + text[end:]
    else:
        text = text.replace("\n\ndef ", "\n" + block + "\n\ndef ", 1)
    FACADE.write_text(text, encoding="utf-8")
    subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--fix", "--select", "I", str(FACADE)], check=False
    )
    subprocess.run([sys.executable, "-m", "ruff", "format", str(FACADE)], check=False)


if __name__ == "__main__":
    _rewrite()
