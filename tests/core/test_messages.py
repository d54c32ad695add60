"""The message catalogue (issue 28): every entry in both languages, the language chosen once per
notebook (override, LESSONS_LANG, a notebooks/en/ folder, else Chinese), and the converted views,
quiz and CLI speaking it."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

from lessons_lib.core import messages
from lessons_lib.core.messages import LANGUAGES, catalogue, language, set_language, t


@pytest.fixture(autouse=True)
def _detected(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test starts from detection (no override, no LESSONS_LANG) and leaves it so."""
    monkeypatch.delenv("LESSONS_LANG", raising=False)
    set_language(None)
    yield
    messages._chosen = None  # not set_language(None): a test may leave a wrong LESSONS_LANG until undone


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("key", sorted(catalogue()))
def test_every_message_exists_in_both_languages_with_the_same_fields(key: str) -> None:
    entry = catalogue()[key]
    assert set(entry) == set(LANGUAGES), f"{key}: languages {sorted(entry)}, expected {list(LANGUAGES)}"
    assert all(isinstance(v, str) and v for v in entry.values()), f"{key}: an empty text"
    assert _fields(entry["zh"]) == _fields(entry["en"]), f"{key}: the two languages take different fields"
    dummy = {name: 1 for name in _fields(entry["zh"])}
    for lang in LANGUAGES:
        messages.text_in(lang, key, **dummy)  # formats (no stray brace)


def test_the_english_uses_the_glossary_terms() -> None:
    en = {k: v["en"] for k, v in catalogue().items()}
    for kind in ("rule", "value", "result", "identifier", "envelope"):
        assert en[f"kind.{kind}.short"] == kind
    assert en["kind.setting.name"] == "request setting" and en["kind.setting.short"] == "setting"
    for step in ("declaration", "call", "execution", "feedback"):
        assert en[f"step.{step}"] == step
    assert (
        en["term.protocol error"] == "protocol error"
        and en["term.tool execution error"] == "tool execution error"
    )
    assert en["actor.service"] == "tool service" and en["term.alias"] == "alias"


def test_the_glossarys_chinese_names_stay_chinese_whatever_the_language() -> None:
    """``STEP_ZH`` and ``TERMS_ZH`` (lesson 00's English | Chinese table, both editions) are the
    Chinese names in either language; the current language's are ``step_name`` and ``term``."""
    import lessons_lib
    from lessons_lib.core.glossary import STEPS, step_name, term

    chinese = {"declaration": "声明", "call": "调用", "execution": "执行", "feedback": "反馈"}
    for lang in ("en", "zh", "en"):
        set_language(lang)
        assert lessons_lib.STEP_ZH == chinese
        assert lessons_lib.TERMS_ZH["tool service"] == "工具服务"
    assert [step_name(s) for s in STEPS] == list(chinese) and term("alias") == "alias"


def test_the_language_is_chosen_override_then_env_then_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert language() == "zh"
    english = tmp_path / "notebooks" / "en"
    english.mkdir(parents=True)
    monkeypatch.chdir(english)
    assert language() == "en" and t("step.call") == "call"  # where JupyterLab, nbval, nbclient start it
    monkeypatch.setenv("LESSONS_LANG", "zh")
    assert language() == "zh"
    assert set_language("EN ") == "en" and t("step.call") == "call"
    monkeypatch.chdir(tmp_path / "notebooks")
    assert set_language(None) == "zh"
    monkeypatch.delenv("LESSONS_LANG")
    assert language() == "zh"  # a Chinese lesson's folder


def test_a_wrong_language_is_one_line_that_names_the_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="use 'en' or 'zh'"):
        set_language("fr")
    monkeypatch.setenv("LESSONS_LANG", "de")
    with pytest.raises(ValueError, match="LESSONS_LANG='de'"):
        language()


def test_the_facade_exports_the_call() -> None:
    import lessons_lib

    assert lessons_lib.set_language("en") == "en" and lessons_lib.language() == "en"


def test_the_chain_and_loop_diagrams_speak_english() -> None:
    from lessons_lib.views.diagrams import actors_diagram, chain_diagram, loop_diagram, resolve_step

    set_language("en")
    chain = chain_diagram("call")
    assert (
        chain.description
        == "Figure: the chain declaration → [call] → execution → feedback (this lesson: call)"
    )
    loop = loop_diagram().description
    assert loop.startswith(
        "Figure: the closed loop of one call\n 1. register the tool (tool service) [declaration]"
    )
    assert "conversation two: JSON-RPC" in actors_diagram().source
    assert resolve_step("执行") == resolve_step("execution") == "execution"
    set_language("zh")
    assert chain_diagram("call").description == "图：链路 声明 → [调用] → 执行 → 反馈（本课：调用）"


def test_a_field_tree_speaks_english() -> None:
    from lessons_lib.views.fieldtree import field_tree

    set_language("en")
    text = field_tree("request_1").text()
    head, legend = text.splitlines()[:2]
    assert head == "field tree: request_1 (Responses request (POST /v1/responses))"
    assert legend == "kinds: rule · setting · value · result · identifier · envelope · unclassified"
    assert "(root)" in text and "◀" not in text
    assert 'lang="en"' in field_tree("request_1").page()


def test_the_quiz_checker_speaks_english() -> None:
    from lessons_lib.course.quiz import check, questions

    set_language("en")
    assert check("01.1", None).message.startswith("[01.1] Not answered yet: replace None with one of ")
    assert (
        questions(1).text().endswith('To answer, run check("id", "letter"), for example check("01.1", "A").')
    )
    set_language("zh")
    assert check("01.1", None).message.startswith("[01.1] 还没有作答")


def test_the_cli_takes_lang(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from lessons_lib.cli import main

    assert main(["--lang", "en", "diagram", "chain"]) == 0
    assert 'label="declaration' in capsys.readouterr().out
    monkeypatch.setenv("LESSONS_LANG", "en")
    assert main(["diagram", "chain", "--lang=zh"]) == 0
    assert 'label="声明' in capsys.readouterr().out
    assert main(["diagram", "chain"]) == 0 and 'label="declaration' in capsys.readouterr().out
    assert main(["--lang", "fr", "diagram", "chain"]) == 2
    assert "--lang 'fr' is not a language of the course" in capsys.readouterr().err


def test_a_lessons_own_label_follows_the_notebooks_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lessons_lib import say

    assert say("调用数：", "calls:") == "调用数："
    english = tmp_path / "notebooks" / "en"
    english.mkdir(parents=True)
    monkeypatch.chdir(english)  # an English lesson's kernel: the same code cell prints English
    assert say("调用数：", "calls:") == "calls:"
    assert set_language("zh") == "zh" and say("调用数：", "calls:") == "调用数："


def test_the_cli_in_a_cell_speaks_the_notebooks_language_and_leaves_it_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from lessons_lib.cli import main

    english = tmp_path / "notebooks" / "en"
    english.mkdir(parents=True)
    monkeypatch.chdir(english)  # an English lesson's kernel calling main([...]) in a cell (lesson 07)
    assert main(["diagram", "chain"]) == 0 and 'label="declaration' in capsys.readouterr().out
    assert main(["--lang", "zh", "diagram", "chain"]) == 0 and 'label="声明' in capsys.readouterr().out
    assert language() == "en"  # the command's --lang did not pin the notebook to Chinese


QUOTES_CHINESE_DATA = frozenset({"server_judges.non_ascii.1", "server_judges.non_ascii.2"})
"""English entries that quote Chinese data on purpose (lesson 12's hidden case searches “银杏”)."""


def test_an_english_entry_holds_no_chinese_and_no_full_width_punctuation() -> None:
    chinese = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
    found = [
        key
        for key, entry in catalogue().items()
        if chinese.search(entry["en"]) and key not in QUOTES_CHINESE_DATA
    ]
    assert found == [], (
        f"English entries with Chinese or full-width punctuation (a '｜' or '：' too): {found[:10]}"
    )
