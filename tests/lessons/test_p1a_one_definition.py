"""One definition of "result", and rule vs request setting, in tables and colours (issue 37, point 2).

A result is only what execution produces (the tool's output). The model's answer text is a
value the model wrote, in every API's table, in the trace, in lesson 09's derived answer and
in lesson 21's answer column. Rule and request setting are two kinds with two colours, and
every kind is drawn in exactly one colour by every view that colours kinds. Before this change
the answer text was classified and coloured as a result (lesson 06 [23]), so these tests failed.
"""

from __future__ import annotations

import re

import pytest
from _apis_support import api_fixture as _api_fixture

from lessons_lib.core.fieldkinds.kinds import kind_of, walk
from lessons_lib.core.glossary import KINDS
from lessons_lib.core.messages import t


def api_fixture(api: str, name: str) -> object:
    """A recorded message of one API (the Responses ones sit at the top of ``data/``)."""
    from lessons_lib import load_fixture

    return load_fixture(name) if api == "responses" else _api_fixture(api, name)


ANSWER_PATHS = {
    "responses": "output[0].content[0].text",
    "chat": "choices[0].message.content",
    "anthropic": "content[0].text",
}
FEEDBACK_PATHS = {
    "responses": "input[2].output",
    "chat": "messages[2].content",
    "anthropic": "messages[2].content[0].content",
}


@pytest.mark.parametrize("api", sorted(ANSWER_PATHS))
def test_the_answer_text_is_a_value_and_the_tool_output_a_result(api: str) -> None:
    assert kind_of(api_fixture(api, "response_2.json"), ANSWER_PATHS[api]) == "value"
    assert kind_of(api_fixture(api, "request_2.json"), FEEDBACK_PATHS[api]) == "result"


@pytest.mark.parametrize("api", sorted(ANSWER_PATHS))
def test_no_field_of_a_model_response_is_a_result(api: str) -> None:
    """Nothing ran inside the model: neither the first response (a call) nor the second (the answer)."""
    for name in ("response_1.json", "response_2.json"):
        kinds = {f.path_text: f.kind for f in walk(api_fixture(api, name))}
        assert "result" not in kinds.values(), (api, name, [p for p, k in kinds.items() if k == "result"])


def test_the_trace_answer_and_lesson_09s_derived_answer_are_values() -> None:
    from lessons_lib import run_chain
    from lessons_lib.examples.files.whatif import chain_messages

    trace = run_chain()
    assert kind_of(trace.to_dict(), "answer") == "value"
    answer = chain_messages(trace)[-1]
    assert answer.step == "feedback" and answer.kind == "value"
    lines = [m for m in chain_messages(trace) if m.kind == "result"]
    assert lines and all(m.step == "execution" for m in lines)  # only execution yields a result


def _chips(html: str) -> set[tuple[str, str]]:
    """(label, background colour) of every kind chip in a field tree's HTML."""
    found = re.findall(
        r'<span style="background:(#[0-9A-Fa-f]{6});color:#[0-9a-f]{3};border-radius:3px[^>]*>([^<]+)</span>',
        html,
    )
    return {(label, colour) for colour, label in found}


def test_every_kind_has_one_colour_and_rule_and_setting_differ() -> None:
    from lessons_lib import field_tree

    colours = {k: s.colour for k, s in KINDS.items()}
    assert len(set(colours.values())) == len(colours)
    assert colours["rule"] != colours["setting"]
    seen: dict[str, set[str]] = {}
    for api in sorted(ANSWER_PATHS):
        for name in ("request_1.json", "response_1.json", "request_2.json", "response_2.json"):
            for label, colour in _chips(field_tree(api_fixture(api, name)).html()):
                seen.setdefault(label, set()).add(colour)
    names = {t(f"kind.{k}.short"): k for k in KINDS}
    assert {"rule", "setting", "value", "result"} <= {names[label] for label in seen if label in names}
    for label, found in seen.items():
        if label in names:
            assert found == {colours[names[label]]}, (label, found)


def test_the_answer_row_of_lesson_06s_last_tree_is_drawn_in_the_value_colour() -> None:
    from lessons_lib import field_tree, load_fixture

    html = field_tree(load_fixture("response_2.json"), open_depth=1, highlight="output[0].content[0]").html()
    row = re.search(
        r'data-path="output\[0\]\.content\[0\]\.text"[^>]*style="border-left:4px solid (#\w+)', html
    )
    assert row is not None and row.group(1) == KINDS["value"].colour != KINDS["result"].colour


def test_the_legend_says_what_a_result_is_and_is_not() -> None:
    assert "工具的输出" in KINDS["result"].meaning_zh and "答复不算" in KINDS["result"].meaning_zh
    assert "模型的答复" in KINDS["value"].meaning_zh


def test_the_run_narration_does_not_call_its_outcome_a_result() -> None:
    """结果 names only what execution produced: the narration's last line is the run's 结局 (outcome)."""
    from lessons_lib import narrate, run_chain
    from lessons_lib.core.messages import catalogue

    assert "结果" not in catalogue()["narrate.outcome"]["zh"]
    lines = narrate(run_chain()).splitlines()
    assert not any(line.startswith("结果") for line in lines)
    assert any(line.startswith("结局：已答复") for line in lines)
