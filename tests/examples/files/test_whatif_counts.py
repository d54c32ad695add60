"""Lesson 09's numbers: one definition of the comparison, and every view counts it the same way."""

from __future__ import annotations

import re

import pytest

from lessons_lib.examples.files.whatif import ANSWER, LINES, PARSED, compare_head, compare_tail
from lessons_lib.examples.files.widgets import head_view

# Checked by hand for head 20 -> 5: `python -m lessons_lib run --head 20 --json` and `--head 5`,
# then for each of the trace's events 5-11 jq listed every leaf,
#   jq -c '.events[N].body | paths(type != "object" and type != "array" or length == 0) as $p
#          | [$p, getpath($p)]'
# (jq's own walk, not the library's), and `diff` of the two lists gave the changed leaves:
# 14+16+37+6+5+25+39 = 142 leaves, 8 of them changed (6: input[0].content; 7: output[0].arguments;
# 8: params.arguments.head; 9: result.content[0].text; 10: input[0].content, input[1].arguments,
# input[2].output; 11: output[0].content[0].text). The derived items add 6 leaves: the parsed
# arguments {path, head} (head changed), the lines read {line_count, first_line, last_line}
# (count and last line changed: both runs start at line 01) and the answer (changed).
HAND_CHECKED = {  # message: (number in the trace, changed, compared)
    "tools/list": (5, 0, 14),
    "request_1": (6, 1, 16),
    "response_1": (7, 1, 37),
    PARSED: (None, 1, 2),
    "mcp_request": (8, 1, 6),
    "mcp_response": (9, 1, 5),
    LINES: (None, 2, 3),
    "request_2": (10, 3, 25),
    "response_2": (11, 1, 39),
    ANSWER: (None, 1, 1),
}


@pytest.fixture(scope="module")
def table():  # type: ignore[no-untyped-def]
    return compare_head(20, 5)


def test_head_20_to_5_matches_the_hand_count(table) -> None:  # type: ignore[no-untyped-def]
    counts = table.counts()
    assert counts.count() == (12, 148)
    for ref in counts.messages:
        number, changed, compared = HAND_CHECKED[ref.name]
        assert (ref.number, counts.count(ref.name)) == (number, (changed, compared)), ref.name
    assert [m.name for m in counts.messages] == list(HAND_CHECKED)
    # the eight values: the task text and arguments text twice, the parsed and the MCP head,
    # the response text and the answer (the model wrote them; no execution did);
    # the four results: content, line count, last line, feedback output
    assert counts.count(kind="value") == (8, 12) and counts.count(kind="result")[0] == 4
    assert counts.count(kind="rule")[0] == 0


@pytest.mark.parametrize(
    "make", [lambda: compare_head(20, 5), lambda: compare_head(36, 40), lambda: compare_tail(20, 3)]
)
def test_the_parts_add_up_to_the_total(make) -> None:  # type: ignore[no-untyped-def]
    counts = make().counts()
    changed, total = counts.count()
    assert sum(counts.count(m.name)[1] for m in counts.messages) == total
    assert sum(counts.count(kind=k)[1] for k in counts.kinds) == total
    by_group = sum(n for _, kinds in counts.changed_groups() for _, n in kinds)
    assert (
        by_group == sum(counts.count(m.name, k)[0] for m in counts.messages for k in counts.kinds) == changed
    )
    last = counts.cells()[-1]
    assert last[0] == "合计" and last[-1] == f"{changed}/{total}"


def _totals(text: str) -> set[tuple[str, str]]:
    """Every (compared, changed) pair a caption states: ``共 148 个字段，12 个改变``."""
    return set(re.findall(r"共 (\d+) 个字段，(\d+) 个改变", text))


def test_every_view_states_the_same_numbers(table) -> None:  # type: ignore[no-untyped-def]
    view = head_view(5)
    texts = [table.text(), table.key().text(), table.changed().text(), table.counts().text(), view.text()]
    assert all(_totals(t) == {("148", "12")} for t in texts), [_totals(t) for t in texts]
    assert "比较的全部 148 个字段，12 个改变" in table.title()
    assert "比较的 148 个字段里改变的 12 个" in table.changed().title()
    key = table.key().title()
    assert "从比较的 148 个字段里挑出 20 个，其中 10 个改变" in key and "另有 2 个改变的字段" in key
    assert "request_2（第 10 条）" in key
    assert "比较的 148 个字段中改变了 12 个" in view.summary()
    html = view._repr_mimebundle_()["text/html"]
    assert "共 148 个字段，12 个改变" in html and "比较的 148 个字段里改变的 12 个" in html


def test_the_task_text_is_a_value_of_the_first_model_request(table) -> None:  # type: ignore[no-untyped-def]
    ref, kinds = table.counts().changed_groups()[0]
    assert (ref.name, ref.number, kinds) == ("request_1", 6, [("value", 1)])
    line = table.counts().changed_line()
    assert line.startswith(
        "比较的 148 个字段中改变了 12 个，按所在消息和种类："
        "第 6 条消息 request_1（第一次模型请求）里的 值 1 个；"
    )
    assert "声明" not in line and "声明" not in head_view(5).summary()


def test_rule_count_names_where_the_rules_are(table) -> None:  # type: ignore[no-untyped-def]
    line = table.counts().kind_line("rule")
    assert line == (
        "种类为规则的字段：比较的 148 个字段中有 49 个（tools/list（第 5 条） 11 个、"
        "request_1（第 6 条） 9 个、response_1（第 7 条） 10 个、request_2（第 10 条） 9 个、"
        "response_2（第 11 条） 10 个），改变了 0 个。"
    )
    assert "种类为规则的 49 个字段改变了 0 个" in table.counts().changed_line()


def test_the_scope_sentence_names_the_messages(table) -> None:  # type: ignore[no-untyped-def]
    scope = table.caption()
    assert scope.startswith("比较范围：两次运行各自的第 5–11 条消息（7 条，第一条是 tools/list 的答复，")
    assert "应用由它们推出的 3 项（arguments（解析后）、读出的行、答复）" in scope
    assert "第 1–4 条是建立连接和列出工具的请求" in scope


def test_cli_prints_the_counts(capsys: pytest.CaptureFixture[str]) -> None:
    from lessons_lib.examples.files.cli_whatif import main

    assert main(["--head", "20", "--vs", "5", "--counts"]) == 0
    out = capsys.readouterr().out
    assert out == compare_head(20, 5).counts().text()
    assert "合计" in out and "12/148" in out
