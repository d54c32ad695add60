"""The order desk's answer to the user names no tool and no wire value (issue 38, point 10).

Every scenario of ``run --example orders`` (and the finder's runs of lesson 33), in both
languages: the answer is in the user's words. Tool names (``create_investigation``), aliases
(``orders__…``), enum values (``shipped``, ``in_transit``) and the desk's own English error
messages stay in the trace and the ledger, not in what the user reads.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from lessons_lib.core.messages import set_language
from lessons_lib.examples.orders.finder import run_finder
from lessons_lib.examples.orders.lab import run_scenario, scenario_names
from lessons_lib.services.orders.data import INVESTIGATION_REASONS, ORDER_STATUSES
from lessons_lib.services.orders.words import TOOLS, WORDS

WIRE_ONLY = sorted(
    {w for w in WORDS | set(ORDER_STATUSES) | set(INVESTIGATION_REASONS) if "_" in w} | TOOLS | {"orders__"}
)
"""What no English sentence says: snake_case values, tool names, aliases."""
ASCII_WORD = re.compile(r"[A-Za-z_]{3,}")
CHINESE_ANSWER_MAY_SAY = {"UTC", "SwiftShip"}
"""In a Chinese answer, the only Latin words: the time zone and the carrier's name (data)."""


@pytest.fixture(params=["zh", "en"])
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    set_language(request.param)
    yield str(request.param)
    set_language("zh")


def problems(answer: str, lang: str) -> list[str]:
    """What in an answer is not in the user's words: a tool name, an alias, a wire value."""
    found = [w for w in WIRE_ONLY if w in answer]
    if lang == "zh":
        found += [w for w in ASCII_WORD.findall(answer) if w not in CHINESE_ANSWER_MAY_SAY]
    else:
        found += [f"({w})" for w in WORDS if f"({w})" in answer]
    return found


def test_the_check_catches_the_old_answers() -> None:
    old = (
        "好的，没有执行创建调查单（create_investigation）：状态：已发货（shipped）。（原文：“no order O-1”）"
    )
    assert set(problems(old, "zh")) == {"create_investigation", "shipped", "order"}
    assert set(problems("Shipment: in transit (in_transit)", "en")) == {"in_transit", "(in_transit)"}
    assert problems("订单 O-1042 状态：已发货，更新于 2026-08-06 11:20 UTC。", "zh") == []


@pytest.mark.parametrize("name", scenario_names())
def test_every_scenario_answers_in_the_users_words(name: str, lang: str) -> None:
    answer = str(run_scenario(name).trace.answer)
    assert answer and not problems(answer, lang), f"{name} ({lang}): {problems(answer, lang)}\n{answer}"


@pytest.mark.parametrize("words", ["我买的键盘到哪了？", "我买的耳机键盘到哪了？"])
def test_the_finders_answers_too(words: str, lang: str) -> None:
    answer = str(run_finder(words).trace.answer)
    assert answer and not problems(answer, lang), answer
