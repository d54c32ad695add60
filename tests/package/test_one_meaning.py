"""One meaning per name in the package's identifiers, each in one home (read with ``ast``).

- ``STEPS`` is the chain's four steps (declaration, call, execution, feedback), defined in
  ``core/glossary.py`` only; the troubleshooting walk's seven links are ``LINK_NAMES``, lesson 11's
  exercise checkers ``STEP_CHECKERS``.
- ``Verdict`` is an exercise's result (``core/verdict.py``); nothing else is a ``*Verdict`` class or
  alias, and no other module is named for verdicts.
- ``CallRecord`` is the application's record tying a ``call_id`` to an MCP id (the trace's ``links``),
  defined in ``core/traces/tracetypes.py`` only; nothing is a ``*Link`` class (the gradebook's pipe is
  ``Pipe``, two equal values of a side-by-side view are a ``SharedValue``), and the functions that
  read those records say "call record" (``call_record``, ``call_records_in``), so that in the
  checks "link" is a link of the chain the doctor walks.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "lessons_lib"
HOMES = {
    "STEPS": "core/glossary.py",
    "Verdict": "core/verdict.py",
    "CallRecord": "core/traces/tracetypes.py",
}
"""Each name with one meaning, and the one module that defines it."""
SUFFIXES = ("Verdict", "Link")
"""No class or type alias anywhere else may end with these (``WindowVerdict`` was a second meaning)."""
MODULE_WORDS = {"verdict": "core/verdict.py"}
"""A module named for the word lives only here."""
RETIRED = frozenset(
    {"link_for", "link_records", "link_or_first", "links_of", "need_link_to", "find_links", "verdict_line"}
)
"""Former names that gave a word a second meaning; none may be defined again."""


def defined_names(tree: ast.Module) -> set[str]:
    """Classes, functions, and module-level names assigned or annotated, of one module."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def second_meanings(package: Path = PACKAGE) -> list[str]:
    """Every definition of a one-meaning name outside its home, one line each."""
    problems = []
    for path in sorted(package.rglob("*.py")):
        module = path.relative_to(package).as_posix()
        for word, home in MODULE_WORDS.items():
            if word in path.stem and module != home:
                problems.append(f"{module}: a module named for {word!r} outside {home}")
        names = defined_names(ast.parse(path.read_text(encoding="utf-8")))
        for name in sorted(names):
            home = HOMES.get(name)
            if name in RETIRED:
                problems.append(f"{module}: defines {name}, a retired name with a second meaning")
            elif home is not None and module != home:
                problems.append(f"{module}: defines {name}, whose home is {home}")
            elif home is None and name[:1].isupper():
                problems += [
                    f"{module}: {name} gives a second meaning to {s}" for s in SUFFIXES if name.endswith(s)
                ]
    return problems


def test_each_name_has_one_meaning_and_one_home() -> None:
    assert second_meanings() == []


def test_a_second_meaning_is_found(tmp_path: Path) -> None:
    for module, text in {
        "core/glossary.py": "STEPS = ('declaration',)\n",
        "core/verdict.py": "class Verdict: ...\n",
        "core/traces/tracetypes.py": "class CallRecord: ...\n",
        "workshop/loop/steps.py": "STEPS: dict[int, str] = {}\n",
        "workshop/gradebook/worker.py": "class CallRecord: ...\nclass Link: ...\n",
        "checks/manycalls.py": "class WindowVerdict: ...\n",
        "examples/files/verdicts.py": "x = 1\n",
        "checks/evidence.py": "def link_records() -> None: ...\n",
    }.items():
        (tmp_path / module).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / module).write_text(text, encoding="utf-8")
    assert second_meanings(tmp_path) == [
        "checks/evidence.py: defines link_records, a retired name with a second meaning",
        "checks/manycalls.py: WindowVerdict gives a second meaning to Verdict",
        "examples/files/verdicts.py: a module named for 'verdict' outside core/verdict.py",
        "workshop/gradebook/worker.py: defines CallRecord, whose home is core/traces/tracetypes.py",
        "workshop/gradebook/worker.py: Link gives a second meaning to Link",
        "workshop/loop/steps.py: defines STEPS, whose home is core/glossary.py",
    ]
