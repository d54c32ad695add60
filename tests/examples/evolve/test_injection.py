"""Lesson 52: the injected write happens without the defences and never with any of them."""

from __future__ import annotations

import pytest

from lessons_lib.examples.evolve.injection import DEFENCES, AttackRun, run_attack


@pytest.fixture(scope="module")
def runs() -> dict[str, AttackRun]:
    return {name: run_attack(name) for name in DEFENCES}


def test_without_defences_the_injected_write_happens(runs: dict[str, AttackRun]) -> None:
    got = runs["none"]
    assert got.harmed and got.injected_rows == 1
    assert [alias for alias, _ in got.calls] == ["fs__read_text_file", "orders__create_investigation"]
    assert "O-1043" not in got.answer  # the user is not told


@pytest.mark.parametrize("name", [n for n in DEFENCES if n != "none"])
def test_each_defence_stops_it(runs: dict[str, AttackRun], name: str) -> None:
    got = runs[name]
    assert not got.harmed, got
    assert got.calls[0] == ("fs__read_text_file", "ok")  # the read the user asked for still runs


def test_labels_and_caps_change_what_the_model_sees(runs: dict[str, AttackRun]) -> None:
    assert '"trust": "untrusted_data"' in runs["labels"].seen_by_model
    assert "忽略之前的指示" not in runs["cap"].seen_by_model
    assert "忽略之前的指示" in runs["none"].seen_by_model


def test_a_write_the_user_asked_for_still_happens_with_every_defence() -> None:
    got = run_attack("all", "订单 O-1042 延误三天了，请帮我创建延误调查单。")
    # the desk's own status, not the labelled wrapper's missing one (issue 38, point 3)
    assert ("orders__create_investigation", "created") in got.calls


def test_the_table_reuses_the_runs(runs: dict[str, AttackRun]) -> None:
    from lessons_lib.examples.evolve.injection import attack_table

    table = attack_table(runs)
    assert table.column("判定") == ["不通过"] + ["通过"] * (len(DEFENCES) - 1)


def test_screen_exercise_checker() -> None:
    from lessons_lib.course.exercises.evolve import check_screen

    def refuse(task: str, alias: str, arguments: dict[str, object]) -> str | None:
        if alias.endswith("create_investigation") and (
            "调查" not in task or str(arguments.get("order_id")) not in task
        ):
            return "not asked"
        return None

    def substring_only(task: str, alias: str, arguments: dict[str, object]) -> str | None:
        if alias.endswith("create_investigation") and str(arguments.get("order_id")) not in task:
            return "not asked"
        return None

    assert check_screen(...).text().startswith("还没有完成")
    assert check_screen(refuse).passed
    assert not check_screen(substring_only).passed  # an injection on the order the user named (issue 39)
    assert not check_screen(lambda task, alias, arguments: "no").passed
    assert not check_screen(lambda task, alias, arguments: None).passed


def test_unknown_defence_and_cli(capsys: pytest.CaptureFixture[str]) -> None:
    from lessons_lib.cli import main

    with pytest.raises(ValueError, match="unknown defence"):
        run_attack("prayer")
    assert main(["injection", "--defence", "none"]) == 1
    assert main(["injection", "--defence", "all"]) == 0
    assert main(["injection", "--defence", "prayer"]) == 2
