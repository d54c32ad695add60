"""The registries: the only places that know the plug-ins' names (issues 22 and 35).

A toy example, copied from CONTRIBUTING's "Add an example" into one folder outside the package
(a one-tool MCP service, one command, one public name), runs through ``run_chain``, the chain
doctor, ``verify-calls``, the command line, the cheat sheet and the facade, and no file of the
package changes. The command table, the facade, the cheat sheet, the README and the API plug-ins
are held to the entries.
"""

from __future__ import annotations

import ast
import json
import os
import re
import sys
from pathlib import Path

import pytest
from _engine_support import clean_env, cli, package_digest

import lessons_lib
from lessons_lib.core.plugins import discover
from lessons_lib.core.plugins.apiregistry import api_entry, names
from lessons_lib.core.plugins.commands import KERNEL, command_table
from lessons_lib.core.plugins.exampleregistry import (
    ExampleEntry,
    example_entries,
    example_entry,
    public_parts,
)
from lessons_lib.core.plugins.serviceregistry import service_entries, service_for

PACKAGE = Path(lessons_lib.__file__).resolve().parent
REPO = PACKAGE.parent


def contributing_toy() -> str:
    """The toy example of CONTRIBUTING.md ("Add an example"): its one Python block."""
    text = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text[text.index("## Add an example") :]
    section = section[: section.index("\n## ", 1)]
    (block,) = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    return block


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """One new folder, ``toy_example/``, on ``sys.path`` and named in ``LESSONS_LIB_EXAMPLES``."""
    plugins = tmp_path / "plugins"
    (plugins / "toy_example").mkdir(parents=True)
    (plugins / "toy_example" / "__init__.py").write_text(contributing_toy(), encoding="utf-8")
    monkeypatch.syspath_prepend(str(plugins))
    monkeypatch.setenv("LESSONS_LIB_EXAMPLES", "toy_example")
    yield plugins
    sys.modules.pop("toy_example", None)
    vars(lessons_lib).pop("shout_run", None)  # the facade keeps a name once asked for


def test_a_toy_example_runs_everywhere_without_changing_the_package(toy: Path, tmp_path: Path) -> None:
    from lessons_lib.course.cheatsheet import command_list

    before = package_digest()
    entry = example_entry("toy")  # found through LESSONS_LIB_EXAMPLES: no register call, no table
    assert [c.name for c in entry.commands] == ["toy-shout"]
    assert list(command_table())[-1] == "toy-shout"
    assert ("toy-shout", "toy-shout", "run the toy once, print its trace", "99") in command_list().rows
    assert "shout_run" in dir(lessons_lib) and "shout_run" in lessons_lib.__all__

    trace = lessons_lib.shout_run()  # the facade finds the toy's public name through its entry
    assert trace.outcome["status"] == "answered", trace.outcome
    request, reply = trace.mcp_pair()
    assert request["params"] == {"name": "shout", "arguments": {"text": "hello"}}
    assert reply["result"]["content"][0]["text"] == "HELLO"
    assert lessons_lib.diagnose(trace).ok
    assert lessons_lib.verify_calls(trace).ok

    env = clean_env(LESSONS_LIB_EXAMPLES="toy_example", PYTHONPATH=f"{toy}{os.pathsep}{REPO}")
    for command in (["toy-shout"], ["run", "--example", "toy"]):
        done = cli(*command, env=env, cwd=tmp_path, timeout=300)
        assert done.returncode == 0, (command, done.stderr)
        saved = tmp_path / "toy.json"
        saved.write_text(done.stdout, encoding="utf-8")
        assert json.loads(done.stdout)["outcome"]["status"] == "answered"
        for check in (["verify-calls", str(saved)], ["diagnose", str(saved)]):
            checked = cli(*check, env=env, cwd=tmp_path, timeout=300)
            assert checked.returncode == 0, (check, checked.stdout, checked.stderr)
    listed = cli("--help", env=env, cwd=tmp_path, timeout=300)
    assert "toy-shout" in listed.stdout and "run the toy once, print its trace" in listed.stdout
    assert package_digest() == before


def test_unknown_names_are_a_clear_error_never_a_default() -> None:
    with pytest.raises(ValueError, match="unknown model API 'gemini'; known: responses, chat, anthropic"):
        api_entry("gemini")
    with pytest.raises(
        ValueError, match="unknown example 'nope'; known: files, orders, openapi, mcp, evolve, network"
    ):
        example_entry("nope")
    with pytest.raises(ValueError, match="unknown model API"):
        lessons_lib.run_chain(api="gemini")


# the API plug-ins (one folder, one entry of objects, no name in the kernel, a toy fourth API):
# tests/package/test_plugins_apis.py


def test_a_toy_service_is_one_folder_the_workbench_and_the_conformance_servers_find(
    toy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A service folder named in ``LESSONS_LIB_SERVICES`` (its ``ENTRY``: the toy's ``ServiceEntry``)."""
    from lessons_lib.workshop.loop.kit_standin import listed_tools

    (toy / "toy_service").mkdir()
    (toy / "toy_service" / "__init__.py").write_text(
        "from toy_example import SHOUT as ENTRY\n", encoding="utf-8"
    )
    monkeypatch.setenv("LESSONS_LIB_SERVICES", "toy_service")
    try:
        assert service_for("toy").title == "upper-case a text"
        assert [t["name"] for t in listed_tools("toy")] == ["shout"]  # lesson 11's bench builds it
        assert service_for("fs").folder is not None  # any other name: the file service, renamed
    finally:
        sys.modules.pop("toy_service", None)


def test_every_example_and_service_folder_declares_one_entry() -> None:
    folders = sorted(p.parent.name for p in (PACKAGE / "examples").glob("*/__init__.py"))
    assert sorted(e.name for e in example_entries()) == folders
    services = sorted(p.parent.name for p in (PACKAGE / "services").glob("*/__init__.py"))
    assert sorted(s.name for s in service_entries()) == services
    assert [e.name for e in example_entries()] == ["files", "orders", "openapi", "mcp", "evolve", "network"]


def test_the_command_table_is_the_kernels_and_the_entries() -> None:
    table = command_table()
    from_entries = [c for e in example_entries() for c in e.commands]
    assert sorted(table) == sorted(c.name for c in (*KERNEL, *from_entries))
    assert all(table[c.name] is c for c in from_entries)  # the entry's own object: its function, its words
    assert [c.order for c in table.values()] == sorted(c.order for c in table.values())


def test_the_facade_names_are_the_kernels_and_the_entries() -> None:
    kernel = set(lessons_lib._EXPORTS)
    examples = set(public_parts())
    assert not kernel & examples
    assert set(lessons_lib.__all__) == kernel | examples and len(kernel | examples) == 183
    assert not [
        m
        for m in lessons_lib._EXPORTS.values()
        if m.startswith(("lessons_lib.examples", "lessons_lib.services"))
    ]
    for name, part in public_parts().items():  # each name is where its entry says (imports every module)
        assert hasattr(part.module(), part.own_name(name)), name


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple | list):
        return [s for v in value for s in _strings(v)]
    if hasattr(value, "__dataclass_fields__"):
        return [s for f in value.__dataclass_fields__ for s in _strings(getattr(value, f))]
    return []


def test_no_entry_holds_a_module_path_string() -> None:
    looks_like_a_path = re.compile(r"^[\w.]*lessons_lib[\w.]*(:\w+)?$|^[\w]+(\.[\w]+)+:\w+$")
    found = [
        s for e in (*example_entries(), *service_entries()) for s in _strings(e) if looks_like_a_path.match(s)
    ]
    assert found == []
    assert _strings(ExampleEntry("x", "a.b:c", "1")) == ["x", "a.b:c", "1"]  # the walk sees every text


def test_no_kernel_module_names_a_plug_in_in_its_code() -> None:
    """Strings in the kernel's code (not its docstrings) never name an example's or a service's
    module: the kernel finds them by their entries."""
    named = re.compile(r"lessons_lib\.(examples|services)\.")
    found = []
    for layer in ("core", "checks", "engine", "views"):
        for path in (PACKAGE / layer).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            docs = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}  # docstrings
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                    if named.search(node.value):
                        found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert found == []


def test_the_cheat_sheet_and_the_readme_follow_the_entries() -> None:
    from lessons_lib.course.cheatsheet import command_list

    assert [r[0] for r in command_list().rows] == list(command_table())
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for entry in example_entries():
        assert f"examples/{entry.name}/" in readme, entry.name
    for name in names():
        assert f"apis/{name}/" in readme, name


def test_a_named_plug_in_that_is_missing_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LESSONS_LIB_EXAMPLES", "no_such_toy")
    with pytest.raises(
        ValueError, match="LESSONS_LIB_EXAMPLES names 'no_such_toy', which cannot be imported"
    ):
        example_entries()
    assert discover.named_in("LESSONS_LIB_EXAMPLES") == ["no_such_toy"]
