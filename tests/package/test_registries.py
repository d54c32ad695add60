"""The API and example registries: the only places that know the names (issue 22).

A toy example written into a temporary folder (a one-tool MCP service and one stand-in
scenario) registers itself and runs through ``run_chain``, the chain doctor, ``verify-calls``
and the command line, and no file of the package changes. The command table, the facade, the
cheat sheet, the README and the API plug-ins are held to the registries' entries.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from _engine_support import clean_env

import lessons_lib
from lessons_lib.core.plugins.apiregistry import api_entry, names
from lessons_lib.core.plugins.commands import COMMANDS
from lessons_lib.core.plugins.exampleregistry import EXAMPLES, example_entry

PACKAGE = Path(lessons_lib.__file__).resolve().parent
REPO = PACKAGE.parent

TOY = '''
"""A toy example: one MCP tool (shout) and one stand-in scenario, registered from outside."""

from __future__ import annotations

import json
import sys

from lessons_lib.core.plugins.exampleregistry import ExampleEntry, register_example

TASK = "把 hello 变成大写"


def build_server(name: str):
    import mcp_types as types
    from mcp.server import Server

    tool = types.Tool(
        name="shout",
        description="Upper-case a text.",
        input_schema={"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
    )

    async def on_list_tools(ctx, params):
        return types.ListToolsResult(tools=[tool])

    async def on_call_tool(ctx, params):
        text = str((params.arguments or {}).get("text", ""))
        return types.CallToolResult(content=[types.TextContent(type="text", text=text.upper())])

    return Server(name, version="1.0.0", on_list_tools=on_list_tools, on_call_tool=on_call_tool)


def scenario():
    """The stand-in's moves: call toy__shout with these arguments."""
    from lessons_lib import Script

    return Script(tool="toy__shout", arguments=json.dumps({"text": "hello"}))


def run():
    from lessons_lib import Limits, run_chain

    # generous bounds: a loaded CI machine must still reach the answer
    limits = Limits(call_timeout=60, total_timeout=240)
    return run_chain(TASK, services={"toy": build_server}, script=scenario(), limits=limits)


def main(argv) -> int:
    trace = run()
    print(trace.to_json(), end="")
    return 0 if trace.outcome.get("status") == "answered" else 1


register_example(ExampleEntry("toy", "a one-tool toy", "none", "toy_example", run="toy_example:main"))
'''


def _package_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "toy_example.py").write_text(textwrap.dedent(TOY), encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setenv("LESSONS_LIB_EXAMPLES", "toy_example")
    yield folder
    EXAMPLES.pop("toy", None)
    sys.modules.pop("toy_example", None)


def test_a_toy_example_runs_everywhere_without_changing_the_package(toy: Path, tmp_path: Path) -> None:
    before = _package_digest()
    entry = example_entry("toy")  # imports the plug-in named in LESSONS_LIB_EXAMPLES
    assert entry.run == "toy_example:main"
    import toy_example  # type: ignore[import-not-found]

    trace = toy_example.run()
    assert trace.outcome["status"] == "answered", trace.outcome
    request, reply = trace.mcp_pair()
    assert request["params"] == {"name": "shout", "arguments": {"text": "hello"}}
    assert reply["result"]["content"][0]["text"] == "HELLO"
    assert lessons_lib.diagnose(trace).ok
    assert lessons_lib.verify_calls(trace).ok

    env = clean_env(LESSONS_LIB_EXAMPLES="toy_example", PYTHONPATH=f"{toy}{__import__('os').pathsep}{REPO}")
    done = subprocess.run(
        [sys.executable, "-m", "lessons_lib", "run", "--example", "toy"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    saved = tmp_path / "toy.json"
    saved.write_text(done.stdout, encoding="utf-8")
    assert json.loads(done.stdout)["outcome"]["status"] == "answered"
    for command in (["verify-calls", str(saved)], ["diagnose", str(saved)]):
        checked = subprocess.run(
            [sys.executable, "-m", "lessons_lib", *command],
            capture_output=True,
            text=True,
            encoding="utf-8",
            env=env,
            timeout=300,
            check=False,
        )
        assert checked.returncode == 0, (command, checked.stdout, checked.stderr)
    assert _package_digest() == before


def test_unknown_names_are_a_clear_error_never_a_default() -> None:
    with pytest.raises(ValueError, match="unknown model API 'gemini'; known: responses, chat, anthropic"):
        api_entry("gemini")
    with pytest.raises(ValueError, match="unknown example 'nope'; known: files, orders, openapi, mcp"):
        example_entry("nope")
    with pytest.raises(ValueError, match="unknown model API"):
        lessons_lib.run_chain(api="gemini")


# the API plug-ins (one folder, one entry of objects, no name in the kernel, a toy fourth API):
# tests/package/test_plugins_apis.py


def test_commands_and_facade_names_are_the_example_registrys() -> None:
    for name, entry in EXAMPLES.items():
        assert (REPO / entry.package.replace(".", "/") / "__init__.py").is_file(), name
        owned = {c for c, (module, _, _) in COMMANDS.items() if module.startswith(entry.package + ".")}
        assert owned == set(entry.commands), name
        homes = (entry.package + ".", entry.package.replace(".examples.", ".services.") + ".")
        exported = {n for n, module in lessons_lib._EXPORTS.items() if module.startswith(homes)}
        assert exported == set(entry.facade), name
    for module, func, _ in COMMANDS.values():  # every command's function is where the table says
        source = (REPO / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8")
        assert f"def {func}(" in source, (module, func)


def test_the_cheat_sheet_and_the_readme_follow_the_registries() -> None:
    from lessons_lib.course.cheatsheet import EXAMPLES as SHEET

    assert set(SHEET) == set(COMMANDS)
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for name in EXAMPLES:
        assert f"examples/{name}/" in readme, name
    for name in names():
        assert f"apis/{name}/" in readme, name
