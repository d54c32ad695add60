"""Finding the plug-ins (``core/plugins/discover``): a plug-in outside the package is one folder on
``sys.path`` named in an environment variable; a missing one, one without an entry, and a second
plug-in with a name already taken are each a one-line ``ValueError`` (lessons 20 and 30)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lessons_lib.core.plugins.apiregistry import apis, names


def _package(root: Path, name: str, body: str) -> None:
    (root / name).mkdir()
    (root / name / "__init__.py").write_text(body, encoding="utf-8")


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_a_second_plug_in_with_a_taken_name_is_refused(
    plugins: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _package(
        plugins,
        "second_chat",
        "import dataclasses\nfrom lessons_lib.apis.chat import ENTRY as CHAT\n"
        "ENTRY = dataclasses.replace(CHAT, order=99)\n",
    )
    monkeypatch.setenv("LESSONS_LIB_APIS", "second_chat")
    with pytest.raises(
        ValueError, match=r"^two plug-ins are called 'chat': lessons_lib\.apis\.chat and second_chat$"
    ):
        apis()


def test_a_package_without_an_entry_is_refused(plugins: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _package(plugins, "no_entry", "X = 1\n")
    monkeypatch.setenv("LESSONS_LIB_APIS", "no_entry")
    with pytest.raises(
        ValueError, match="LESSONS_LIB_APIS names 'no_entry', which defines no ENTRY of type ApiEntry"
    ):
        apis()


def test_the_package_s_own_apis_need_no_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LESSONS_LIB_APIS", raising=False)
    assert names() == ("responses", "chat", "anthropic")
