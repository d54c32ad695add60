"""Lessons 42, 43, 50, 51 in English (issue 28): the evolve and MCP-structure views speak the language.

Each test runs a converted view or command under ``set_language("en")`` and asserts that what it
shows holds no Chinese except the data it passes on unchanged, listed per test: the file's own
lines (notes.txt), the MCP prompt's text (wire), the release record's implementation names
(fingerprinted, recorded in ``data/evolve/``). The language is restored after each test.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import pytest
from _engine_support import notes_lines

from lessons_lib.core import messages
from lessons_lib.core.messages import set_language
from lessons_lib.examples.evolve.toolreplay import load_baseline, replay_version
from lessons_lib.examples.evolve.toolversions import DESK_V1, DESK_V1_1, DESK_V2
from lessons_lib.views.rowtable import RowTable

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
"""Chinese characters and full-width punctuation (，：；（）｜ ...)."""
TASK = "帮我查一下退款申请 R-2001 的详情"  # the user's words: data, never echoed by the command


def chinese(text: str, data: Iterable[str] = ()) -> list[str]:
    """The Chinese characters left in ``text`` once every listed data string is taken out."""
    for piece in sorted(data, key=len, reverse=True):
        text = text.replace(piece, "")
    return CJK.findall(text)


def _only(name: str) -> dict[str, object]:
    baseline = load_baseline()
    return {**baseline, "runs": {name: baseline["runs"][name]}}


@pytest.fixture(scope="module")
def replayed() -> RowTable:
    """One recorded task replayed against orders@1.1, in English (the choice moves)."""
    before = messages._chosen
    set_language("en")
    try:
        return replay_version(DESK_V1_1, _only("parallel"))
    finally:
        messages._chosen = before


def test_replay_table_in_english(replayed: RowTable) -> None:
    assert replayed.headers == ("task", "tools and order", "arguments", "ending", "verdict", "changes")
    assert replayed.column("tools and order") == ["changed"] and replayed.column("verdict") == ["fail"]
    assert "track_shipment became" in replayed.column("changes")[0]
    assert chinese(replayed.text()) == []


def test_release_and_acceptance_tables_in_english(english: None, replayed: RowTable) -> None:
    from lessons_lib.examples.evolve.upgrade import acceptance_rows, release_table

    release = release_table(DESK_V1, DESK_V2)
    assert release.column("part") == ["description", "schema", "implementation", "permission policy"]
    records = (DESK_V1.implementation, DESK_V2.implementation)  # release-record data, fingerprinted
    assert chinese(release.text(), records) == [] and chinese(release.text()) != []
    accepted = acceptance_rows(DESK_V1, DESK_V2, replayed)
    assert accepted.column("verdict") == ["fail", "fail", "pass", "pass"]
    assert accepted.column("actual")[0] == "tasks whose choice changed: parallel"
    assert accepted.column("actual")[3] == "as expected"
    assert chinese(accepted.text()) == []


def test_watch_table_in_english(english: None) -> None:
    from lessons_lib.examples.evolve.toolwatch import WatchResult
    from lessons_lib.examples.evolve.upgrade import watch_table

    states = [("get_order", "approved"), ("track_shipment", "changed"), ("a", "new"), ("b", "removed")]
    table = watch_table(WatchResult(approved={"get_order": "0123456789ab"}, states=states))
    assert table.column("after listing again") == ["as approved", "changed since approval", "new", "removed"]
    assert table.column("what the application does")[0] == "declared to the model"
    assert chinese(table.text()) == []


def test_field_change_tables_in_english(english: None) -> None:
    from lessons_lib.examples.evolve.fieldcompat import field_changes, versioned_names

    changes = {r[0]: r for r in field_changes().rows}
    added = changes["the result gains the optional field promised_by"]
    assert added[2].startswith("refused: ") and added[3] == "accepted"
    names = versioned_names()
    assert names.column("caller") == ["old caller", "old caller", "new caller"]
    for table in (field_changes(), versioned_names()):
        assert chinese(table.text()) == [], table.text()


def test_selection_table_and_labels_in_english(english: None) -> None:
    from lessons_lib.examples.evolve.catalogue import tokenizer_label
    from lessons_lib.examples.evolve.offline_reader import label
    from lessons_lib.examples.evolve.selection import WAYS, selection_table, way_label

    table = selection_table((50,))
    assert table.column("way") == [way_label(w) for w in WAYS] and "every tool, flat" in table.column("way")
    for text in (table.text(), tokenizer_label(), label()):
        assert chinese(text) == [], text


def test_evolve_commands_in_english(english: None, capsys: pytest.CaptureFixture[str]) -> None:
    from lessons_lib.cli import main

    assert main(["--lang", "en", "tool-catalogue", "--size", "50", "--task", TASK]) == 0
    out = capsys.readouterr().out
    assert (
        "declarations of 50 tools: about" in out
        and "picks from the search results: refunds_get_refund" in out
    )
    assert chinese(out) == [], out
    assert main(["--lang", "en", "tool-replay", "--version", "orders@1.1", "--task", "parallel"]) == 1
    out = capsys.readouterr().out
    assert "changed: track_shipment" in out and "| fail |" in out
    assert chinese(out) == [], out


def test_injection_command_prints_its_own_words_in_english(
    english: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only the command's own words: the defences' names and the answer belong to other modules."""
    from lessons_lib.cli import main

    assert main(["--lang", "en", "injection", "--defence", "none"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("defence: ") and lines[-1].startswith("answer: ")
    assert all(line.startswith("  call ") for line in lines[1:-2]) and "new investigation rows: " in lines[-2]


def test_mcp_commands_in_english(english: None, capsys: pytest.CaptureFixture[str]) -> None:
    from lessons_lib.cli import main
    from lessons_lib.examples.mcp.structure import tour_structure

    file_lines = notes_lines()  # the file's own lines, passed on unchanged
    assert main(["--lang", "en", "mcp-revisions", "--head", "5"]) == 0
    out = capsys.readouterr().out
    assert out.count("every frame matches this revision's official schema") == 3 and "   frames: " in out
    assert chinese(out, file_lines) == [], out
    assert main(["--lang", "en", "mcp-structure", "--lines", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("[origin: MCP ") == 3 and "| passed on by the application, not the user's words]" in out
    content = [piece.text for piece in tour_structure(2).pieces]  # tool result, resource, prompt: wire
    assert chinese(out, content) == [] and chinese(out) != [], out
