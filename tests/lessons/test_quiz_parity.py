"""The English quiz bank matches the Chinese one (issue 28).

``quiz_bank/en/lesson_NN.json`` has the same questions as ``quiz_bank/lesson_NN.json``: the same ids
in the same order, the same answer letters, the same choice letters and the same keys, every text
filled in. A lesson may have no English bank while it is being translated (the quiz then shows the
Chinese one, and ``edition en status`` lists it); once its English notebook exists in
``notebooks/en/``, its English bank must exist too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import NOTEBOOKS_DIR

from lessons_lib.course.quiz import bank_file

CHINESE = sorted(p for p in Path(str(bank_file(0, "zh"))).parent.glob("lesson_*.json"))
LESSONS = [int(p.stem.removeprefix("lesson_")) for p in CHINESE]


def _read(lesson: int, lang: str) -> list[dict[str, Any]]:
    return json.loads(bank_file(lesson, lang).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def parity_problems(zh: list[dict[str, Any]], en: list[dict[str, Any]]) -> list[str]:
    """What differs between a Chinese bank and its English one, one line each."""
    if [q["id"] for q in zh] != [q["id"] for q in en]:
        return [f"ids {[q['id'] for q in en]} differ from the Chinese {[q['id'] for q in zh]}"]
    problems = []
    for a, b in zip(zh, en, strict=True):
        if set(a) != set(b):
            problems.append(f"{a['id']}: keys {sorted(b)} differ from {sorted(a)}")
        if a["answer"] != b.get("answer"):
            problems.append(f"{a['id']}: answer {b.get('answer')!r}, the Chinese is {a['answer']!r}")
        for key in ("choices", "wrong"):
            if set(a.get(key, {})) != set(b.get(key, {})):
                problems.append(f"{a['id']}: {key} letters {sorted(b.get(key, {}))} differ")
        texts = [b.get("prompt"), b.get("why"), *b.get("choices", {}).values(), *b.get("wrong", {}).values()]
        if not all(isinstance(x, str) and x.strip() for x in texts):
            problems.append(f"{a['id']}: an empty English text")
    return problems


@pytest.mark.parametrize("lesson", LESSONS, ids=[f"{n:02d}" for n in LESSONS])
def test_the_english_bank_matches_the_chinese(lesson: int) -> None:
    english_notebook = list((NOTEBOOKS_DIR / "en").glob(f"{lesson:02d}_*.ipynb"))
    if not bank_file(lesson, "en").is_file():
        assert not english_notebook, (
            f"{english_notebook[0].name} is in English but quiz_bank/en/lesson_{lesson:02d}.json is missing"
        )
        pytest.skip(f"no English bank for lesson {lesson:02d} yet")
    problems = parity_problems(_read(lesson, "zh"), _read(lesson, "en"))
    assert not problems, "\n".join(problems)


def test_the_parity_check_fails_on_a_changed_answer_or_a_missing_question() -> None:
    zh = _read(1, "zh")
    en = json.loads(json.dumps(zh))
    assert parity_problems(zh, en) == []
    en[0]["answer"] = next(k for k in en[0]["choices"] if k != zh[0]["answer"])
    assert parity_problems(zh, en) == [
        f"{zh[0]['id']}: answer {en[0]['answer']!r}, the Chinese is {zh[0]['answer']!r}"
    ]
    assert parity_problems(zh, en[1:])[0].startswith("ids ")
    del en[0]["why"]
    assert any("keys" in p for p in parity_problems(zh, en))


def test_an_english_lesson_shows_the_english_bank(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from lessons_lib.core.messages import set_language
    from lessons_lib.course import quiz

    en = json.loads(json.dumps(_read(1, "zh")))
    en[0]["prompt"] = "Which field is a value?"
    (tmp_path / "lesson_01.json").write_text(json.dumps(en), encoding="utf-8")
    real = quiz.bank_file
    monkeypatch.setattr(
        quiz,
        "bank_file",
        lambda n, lang: tmp_path / f"lesson_{n:02d}.json" if lang == "en" else real(n, lang),
    )
    quiz._bank_in.cache_clear()
    try:
        set_language("en")
        assert quiz.questions(1).text().startswith(f"[{en[0]['id']}] Which field is a value?")
        assert quiz.check(en[0]["id"], en[0]["answer"]).correct
        set_language("zh")
        assert not quiz.questions(1).text().startswith(f"[{en[0]['id']}] Which field is a value?")
    finally:
        set_language(None)
        quiz._bank_in.cache_clear()
