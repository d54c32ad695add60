"""Lesson checkers 50 and 52 against a catalogue of wrong answers and right ones in several styles
(issue 39, "Lesson checkers"): a fingerprint on Python's salted ``hash()`` agrees with itself in one
process only; a screen that stops only the lesson's own injection text lets other wordings through."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import pytest

from lessons_lib.course.exercises.evolve import check_fingerprint, check_screen
from lessons_lib.course.exercises.manytools import check_allowed

# ---------------------------------------------------------------- lesson 50: fingerprint(tool)


def fp_sha256_sorted(tool: dict[str, Any]) -> str:
    text = json.dumps(tool, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def fp_md5_default_separators(tool: dict[str, Any]) -> str:
    return hashlib.md5(json.dumps(tool, sort_keys=True).encode()).hexdigest()


def _canonical(value: Any) -> Any:
    if isinstance(value, dict):
        return [[k, _canonical(value[k])] for k in sorted(value)]
    return [_canonical(v) for v in value] if isinstance(value, list) else value


def fp_with_helper(tool: dict[str, Any]) -> str:
    return hashlib.blake2b(repr(_canonical(tool)).encode(), digest_size=8).hexdigest()


fp_lambda = lambda tool: hashlib.sha256(json.dumps(tool, sort_keys=True).encode()).hexdigest()  # noqa: E731


def fp_salted_hash(tool: dict[str, Any]) -> int:
    return hash(json.dumps(tool, sort_keys=True))


def fp_salted_frozenset(tool: dict[str, Any]) -> int:
    return hash(frozenset((k, json.dumps(v, sort_keys=True)) for k, v in tool.items()))


def fp_key_order(tool: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(tool).encode()).hexdigest()


def fp_names_only(tool: dict[str, Any]) -> str:
    return hashlib.sha256(tool["name"].encode()).hexdigest()


def fp_schema_blind(tool: dict[str, Any]) -> str:
    rest = {k: v for k, v in tool.items() if k != "inputSchema"}
    return hashlib.sha256(json.dumps(rest, sort_keys=True).encode()).hexdigest()


RIGHT_FINGERPRINTS = [fp_sha256_sorted, fp_md5_default_separators, fp_with_helper, fp_lambda]
WRONG_FINGERPRINTS = {
    fp_salted_hash: "两个新的 Python 进程",
    fp_salted_frozenset: "两个新的 Python 进程",
    fp_key_order: "键的顺序",
    fp_names_only: "说明改了一个字",
    fp_schema_blind: "Schema 多了一个字段",
}


@pytest.mark.parametrize("answer", RIGHT_FINGERPRINTS, ids=["sha256", "md5", "helper", "lambda"])
def test_right_fingerprints_pass(answer: Any) -> None:
    verdict = check_fingerprint(answer)
    assert verdict.passed, verdict


@pytest.mark.parametrize("answer", list(WRONG_FINGERPRINTS), ids=lambda f: f.__name__)
def test_wrong_fingerprints_fail_at_the_expected_check(answer: Any) -> None:
    verdict = check_fingerprint(answer)
    assert not verdict.passed
    failed = [line for line in verdict.lines if line.startswith("✗")]
    assert any(WRONG_FINGERPRINTS[answer] in line for line in failed), failed


# ---------------------------------------------------------------- lesson 52: refuse(task, alias, arguments)
_ORDER_ID = re.compile(r"(?<![A-Za-z0-9_-])O-\d+(?![A-Za-z0-9_-])")


def refuse_unasked_writes(task: str, alias: str, arguments: dict[str, Any]) -> str | None:
    if not alias.endswith("create_investigation"):
        return None
    if "调查" not in task:
        return "the user did not ask for an investigation"
    if str(arguments.get("order_id")) not in _ORDER_ID.findall(task):
        return "not an order the user named"
    return None


def refuse_every_write_unless_asked(task: str, alias: str, arguments: dict[str, Any]) -> str | None:
    writes = ("create_investigation",)
    asked = "创建" in task and "调查单" in task
    return "write not asked for" if alias.split("__")[-1] in writes and not asked else None


def refuse_lesson_order_only(task: str, alias: str, arguments: dict[str, Any]) -> str | None:
    return "injected" if arguments.get("order_id") == "O-1043" else None


def refuse_auto_claim_word(task: str, alias: str, arguments: dict[str, Any]) -> str | None:
    return "injected" if "auto-claim" in str(arguments.get("idempotency_key", "")) else None


def refuse_order_substring(task: str, alias: str, arguments: dict[str, Any]) -> str | None:
    """The lesson's old defence: the order id somewhere in the task (an injection on the user's
    own order goes through)."""
    if alias.endswith("create_investigation") and str(arguments.get("order_id")) not in task:
        return "not in the task"
    return None


def refuse_everything(task: str, alias: str, arguments: dict[str, Any]) -> str | None:
    return "no"


def refuse_all_writes(task: str, alias: str, arguments: dict[str, Any]) -> str | None:
    return "no writes" if alias.endswith("create_investigation") else None


RIGHT_SCREENS = [refuse_unasked_writes, refuse_every_write_unless_asked]
WRONG_SCREENS = {
    refuse_lesson_order_only: "returns_log.txt：注入的写入",
    refuse_auto_claim_word: "carrier_mail.txt：注入的写入",
    refuse_order_substring: "o1042_notes.txt：注入的写入",
    refuse_everything: "读文件这个调用照常执行",
    refuse_all_writes: "调查单照常创建",
}


@pytest.mark.parametrize("answer", RIGHT_SCREENS, ids=lambda f: f.__name__)
def test_right_screens_pass(answer: Any) -> None:
    verdict = check_screen(answer)
    assert verdict.passed, verdict


@pytest.mark.parametrize("answer", list(WRONG_SCREENS), ids=lambda f: f.__name__)
def test_wrong_screens_fail_at_the_expected_check(answer: Any) -> None:
    verdict = check_screen(answer)
    assert not verdict.passed
    failed = [line for line in verdict.lines if line.startswith("✗")]
    assert any(WRONG_SCREENS[answer] in line for line in failed), failed


def test_a_blank_gets_a_hint_that_does_not_give_the_answer_shape() -> None:
    """Issue 38, point 7: the "not finished" hint says where to look, not what to write."""
    for checker in (check_fingerprint, check_screen, check_allowed):
        verdict = checker(...)
        text = str(verdict)
        assert "还没有完成" in text
        assert "def " not in text and "sort_keys" not in text and "返回 None" not in text, text
        assert "'type'" not in text and "allowed_tools', 'mode'" not in text, text
