"""The model API plug-ins: one folder and one ``ENTRY`` each, found by the kernel, never named by it.

Each ``lessons_lib/apis/<name>/__init__.py`` defines an ``ApiEntry`` whose parts are objects
(no ``module:name`` text anywhere in an entry); no kernel module (core, checks, engine, views)
nor the command line compares or maps API names. A toy fourth API written into a temporary
folder (the Chat Completions wire format under a new name: its own adapter, settings and
stand-in class, behind the real ``openai`` SDK) and named in ``LESSONS_LIB_APIS`` runs through
``run_chain``, the doctor, ``verify-calls`` and ``python -m lessons_lib run``, and no file of
the package changes.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import re
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from _engine_support import clean_env, cli, package_digest

import lessons_lib
from lessons_lib.core.plugins.apiregistry import ApiEntry, api_entry, apis, names
from lessons_lib.core.plugins.apitypes import ApiShape

PACKAGE = Path(lessons_lib.__file__).resolve().parent
REPO = PACKAGE.parent
KERNEL = ("core", "checks", "engine", "views", "cli")
MODULE_PATH = re.compile(r"lessons_lib\.|^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
"""Text that names a module (``lessons_lib.apis.chat``) or an object in one (``pkg.mod:Name``)."""


def _strings(value: object) -> Iterator[str]:
    """Every text inside an entry's fields (a dataclass, a mapping, a sequence)."""
    if isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _strings(getattr(value, f.name))
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def module_paths_in(entry: ApiEntry) -> list[str]:
    """The texts of an entry that look like module paths (there must be none)."""
    return [s for s in _strings(entry) if MODULE_PATH.search(s)]


def name_uses(source: str, api_names: tuple[str, ...]) -> list[int]:
    """Lines of ``source`` that compare an ``api`` or write an API's name as a text (docstrings aside)."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in api_names and id(node) not in docstrings
    ]
    compare = re.compile(r"\bapi (==|!=) ")
    found += [n for n, line in enumerate(source.splitlines(), 1) if compare.search(line)]
    return sorted(set(found))


def test_every_api_is_one_folder_with_one_entry_of_objects() -> None:
    assert names() == ("responses", "chat", "anthropic")  # the order of every table and of detection
    assert [e.order for e in apis()] == sorted(e.order for e in apis())
    for entry in apis():
        folder = PACKAGE / "apis" / entry.name
        assert (folder / "__init__.py").is_file(), entry.name
        assert sys.modules[f"lessons_lib.apis.{entry.name}"].ENTRY is entry
        assert isinstance(entry.shapes, ApiShape) and callable(entry.adapter) and callable(entry.is_body)
        assert module_paths_in(entry) == [], entry.name
        source = (folder / "__init__.py").read_text(encoding="utf-8")
        texts = [n.value for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Constant)]
        assert not [t for t in texts if isinstance(t, str) and MODULE_PATH.search(t)], entry.name
        if not entry.reference:  # its half of the Responses map, its words and kinds are its own
            assert entry.reply_items and entry.message_items and entry.words and entry.tables, entry.name
    assert [e.name for e in apis() if e.reference] == ["responses"]


def test_a_module_path_in_an_entry_is_found() -> None:
    planted = dataclasses.replace(api_entry("chat"), sdk="lessons_lib.apis.chat.adapter:ChatAdapter")
    assert module_paths_in(planted) == ["lessons_lib.apis.chat.adapter:ChatAdapter"]
    assert module_paths_in(dataclasses.replace(api_entry("chat"), fixtures="chat.adapter:ChatAdapter"))


def test_no_kernel_module_compares_or_maps_api_names() -> None:
    found = [
        f"{path.relative_to(PACKAGE).as_posix()}:{line}"
        for layer in KERNEL
        for path in sorted((PACKAGE / layer).rglob("*.py"))
        for line in name_uses(path.read_text(encoding="utf-8"), names())
    ]
    assert found == []


@pytest.mark.parametrize(
    "planted",
    [
        'def f(api):\n    if api == "anthropic":\n        return 1\n',
        'NAMES = {"responses": "FunctionTool", "chat": "ChatCompletionTool"}\n',
        'def f(api: str = "responses"):\n    """Say "chat" in a docstring: fine."""\n',
    ],
)
def test_a_name_written_in_the_kernel_is_found(planted: str) -> None:
    assert name_uses(planted, names())
    assert name_uses('def f(api):\n    """Only "chat" in a docstring."""\n', names()) == []


TOY_INIT = '''
"""A toy model API: the Chat Completions wire format under its own name, from outside the package."""

from lessons_lib.apis.chat import checks, kinds, view
from lessons_lib.apis.chat.shapes import SHAPE, is_body
from lessons_lib.apis.chat.words import WORDS
from lessons_lib.apis.replay import openai_client
from lessons_lib.core.plugins.apiregistry import ApiEntry
from lessons_lib.engine.models import enable_live_hint

from toyapi.adapter import ToyAdapter, ToyStandIn, live_setting, offline_setting

ENTRY = ApiEntry(
    name="toychat",
    title="Toy Chat",
    key="TOYCHAT_API_KEY",
    sdk="openai",
    create="chat.completions.create",
    order=3,
    adapter=ToyAdapter,
    offline=offline_setting,
    live=live_setting,
    replay_standin=ToyStandIn,
    enable_live=enable_live_hint,
    replay_client=openai_client,
    shapes=SHAPE,
    is_body=is_body,
    wrapper="function",
    checks=checks.CHECKS,
    trials=checks.TRIALS,
    reply_items=view.reply_items,
    message_items=view.message_items,
    words=WORDS,
    tables=kinds.TABLES,
    detectors=kinds.DETECTORS,
)
'''

TOY_ADAPTER = '''
"""The toy API's adapter, settings and stand-in: Chat Completions' own, relabelled."""

import os

from lessons_lib.apis.chat.adapter import ChatAdapter
from lessons_lib.apis.chat.standin import OfflineChat
from lessons_lib.engine.models import ModelSetting


class ToyStandIn(OfflineChat):
    """The offline stand-in the toy API's requests go to (the openai SDK posts to it)."""


class ToyAdapter(ChatAdapter):
    api = "toychat"

    def offline_transport(self, script):
        return ToyStandIn(script=script)


def offline_setting(model=None):
    return ModelSetting("offline", model or "toy-1", "toy stand-in (offline)")


def live_setting(model=None):
    key = os.environ.get("TOYCHAT_API_KEY", "").strip()
    return ModelSetting("live", model or "toy-1", "toy (live)", None, key) if key else None
'''


@pytest.fixture
def toyapi(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "plugins" / "toyapi"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text(textwrap.dedent(TOY_INIT), encoding="utf-8")
    (folder / "adapter.py").write_text(textwrap.dedent(TOY_ADAPTER), encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder.parent))
    monkeypatch.setenv("LESSONS_LIB_APIS", "toyapi")
    yield folder.parent
    for name in ("toyapi", "toyapi.adapter"):
        sys.modules.pop(name, None)


def test_a_toy_fourth_api_is_one_folder_and_runs_everywhere(toyapi: Path, tmp_path: Path) -> None:
    before = package_digest()
    assert names() == ("responses", "chat", "anthropic", "toychat")
    trace = lessons_lib.run_chain(api="toychat")
    assert trace.outcome["status"] == "answered", trace.outcome
    assert trace.to_dict()["model"] == {
        "mode": "offline",
        "name": "toy-1",
        "label": "toy stand-in (offline)",
    } | {"api": "toychat"}
    assert lessons_lib.diagnose(trace).ok
    assert lessons_lib.verify_roundtrip(trace).ok
    assert lessons_lib.verify_calls(trace).ok
    assert "tool_calls[]" in lessons_lib.narrate(trace)  # told in the words its entry holds

    env = clean_env(LESSONS_LIB_APIS="toyapi", PYTHONPATH=f"{toyapi}{os.pathsep}{REPO}")
    done = cli("run", "--api", "toychat", "--json", env=env, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    saved = tmp_path / "toy.json"
    saved.write_text(done.stdout, encoding="utf-8")
    assert json.loads(done.stdout)["model"]["api"] == "toychat"
    for command in (["verify-calls", str(saved)], ["diagnose", str(saved)], ["verify-roundtrip", str(saved)]):
        checked = cli(*command, env=env, cwd=tmp_path, timeout=300)
        assert checked.returncode == 0, (command, checked.stdout, checked.stderr)
    shown = cli("run", "--help", env=env, cwd=tmp_path, timeout=300)
    assert "toychat (Toy Chat)" in shown.stdout and "TOYCHAT_API_KEY" in shown.stdout
    no_key = cli("run", "--api", "toychat", "--live", env=env, cwd=tmp_path, timeout=300)
    assert no_key.returncode == 2 and "needs TOYCHAT_API_KEY" in no_key.stderr
    assert package_digest() == before


def test_unknown_api_names_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"^unknown model API 'gemini'; known: responses, chat, anthropic$"):
        lessons_lib.run_chain(api="gemini")
    env = clean_env(LESSONS_LIB_APIS="no_such_api_plugin", PYTHONPATH=str(REPO))
    done = cli("run", env=env, cwd=tmp_path, timeout=300)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().count("\n") == 0 and "Traceback" not in done.stderr
    assert "LESSONS_LIB_APIS names 'no_such_api_plugin', which cannot be imported" in done.stderr
