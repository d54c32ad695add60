"""Lessons 32 and 33's exercises are real logic checked on cases the lesson never shows (issue 38, point 7).

Each checker names the first broken expectation; a catalogue of wrong answers a learner might write
is refused, each at the expectation it breaks, and the reference solutions in the notebook pass.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from _engine_support import REPO_ROOT

from lessons_lib.examples.orders.exercises import check_confirm, check_intent_key


def _solution(lesson: str, name: str) -> Callable[..., Any]:
    (path,) = (REPO_ROOT / "notebooks").glob(f"{lesson}_*.ipynb")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    (source,) = ["".join(c["source"]) for c in cells if "solution" in c["metadata"].get("tags", [])]
    scope: dict[str, Any] = {}
    exec(source.split("\ncheck_")[0], scope)  # the definitions, not the checker's call
    return scope[name]  # type: ignore[no-any-return]


def test_the_reference_answers_pass() -> None:
    assert check_intent_key(_solution("32", "make_key")).passed
    assert check_confirm(_solution("33", "confirm")).passed


def test_the_references_do_not_hard_code_the_lessons_order() -> None:
    for lesson in ("32", "33"):
        (path,) = (REPO_ROOT / "notebooks").glob(f"{lesson}_*.ipynb")
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        solution = "".join(next(c["source"] for c in cells if "solution" in c["metadata"].get("tags", [])))
        assert "O-1042" not in solution, lesson


def _readable(a: dict[str, Any]) -> str:
    return f"inv-{a['order_id']}-{a['reason']}"


WRONG_KEYS: dict[str, tuple[Callable[..., Any], str]] = {
    "the readable key alone": (_readable, "夹带了引号和空格"),
    "the note in the key": (
        lambda a: hashlib.sha256(json.dumps(a, sort_keys=True).encode()).hexdigest()[:40],
        "note",
    ),
    "trusts the model's key": (
        lambda a: a.get("idempotency_key") or f"inv-{a['order_id']}-{a['reason']}",
        "自己塞了",
    ),
    "a constant": (lambda a: "inv-00000000", "换一个原因"),
    "the order only": (lambda a: f"inv-{a['order_id']}", "换一个原因"),
    "a fresh uuid": (lambda a: str(uuid.uuid4()), "键不变"),
    "a tuple": (lambda a: (a["order_id"], a["reason"]), "符合键规则的字符串"),
    "cut to 64 characters": (lambda a: re.sub(r"[^A-Za-z0-9._:-]", "_", _readable(a))[:64], "最后一位不同"),
    "raises on odd ids": (lambda a: f"inv-{int(a['order_id'][2:]):08d}-{a['reason']}", "ValueError"),
}


@pytest.mark.parametrize("wrong", WRONG_KEYS, ids=list(WRONG_KEYS))
def test_wrong_keys_are_refused_at_the_expectation_they_break(wrong: str) -> None:
    fn, named = WRONG_KEYS[wrong]
    verdict = check_intent_key(fn)
    assert not verdict.passed and not verdict.unfinished
    broken = next(line for line in verdict.lines if line.startswith("✗"))
    assert named in broken, verdict.text()


WRONG_CONFIRMS: dict[str, tuple[Callable[..., Any], str]] = {
    "hard-codes O-1042": (lambda r, w: r.arguments.get("order_id") == "O-1042", "O-2077"),
    "always yes": (lambda r, w: True, "O-2078"),
    "trusts the annotations": (lambda r, w: not r.hints.get("readOnlyHint"), "O-2077"),
    "substring test": (lambda r, w: str(r.arguments.get("order_id")) in w, "O-207 只是"),
    "split on spaces": (lambda r, w: r.arguments.get("order_id") in w.split(), "O-2077"),
    "first number only": (
        lambda r, w: r.arguments.get("order_id") == re.findall(r"O-[0-9]+", w)[0],
        "第二张",
    ),
    "a prefix-tolerant pattern": (
        lambda r, w: (
            bool(re.search(re.escape(str(r.arguments.get("order_id"))), w))
            and r.arguments.get("order_id") != "O-207"
        ),
        "O-20771",
    ),
    "raises on a missing id": (
        lambda r, w: r.arguments["order_id"] in re.findall(r"O-[0-9]+", w),
        "KeyError",
    ),
    "turns numbers into ids": (
        lambda r, w: "O-" + str(r.arguments.get("order_id")).removeprefix("O-") in re.findall(r"O-[0-9]+", w),
        "数字 2077",
    ),
}


@pytest.mark.parametrize("wrong", WRONG_CONFIRMS, ids=list(WRONG_CONFIRMS))
def test_wrong_confirmations_are_refused_at_the_expectation_they_break(wrong: str) -> None:
    fn, named = WRONG_CONFIRMS[wrong]
    verdict = check_confirm(fn)
    assert not verdict.passed and not verdict.unfinished
    broken = next(line for line in verdict.lines if line.startswith("✗"))
    assert named in broken, verdict.text()


def test_the_first_broken_expectation_ends_the_verdict() -> None:
    verdict = check_confirm(lambda r, w: True)
    marks = [line[0] for line in verdict.lines if line[:1] in "✓✗"]
    assert marks == ["✓", "✗"] and "第一个不成立" in verdict.lines[-1]
    assert "第一条就不成立" in check_confirm(lambda r, w: False).lines[-1]


def test_a_starter_is_unfinished_with_a_hint_that_is_not_the_answer() -> None:
    def make_key(arguments: dict[str, Any]) -> None: ...

    def confirm(request: Any, user_words: str) -> None: ...

    for verdict in (
        check_intent_key(make_key),
        check_confirm(confirm),
        check_intent_key(...),
        check_confirm(...),
    ):
        assert verdict.unfinished and verdict.text().startswith("还没有完成")
        assert "O-1042" not in verdict.text() and "sha256" not in verdict.text()
