"""One tools/call under three MCP revisions: real SDK frames, each valid under its own schema."""

from __future__ import annotations

import copy
import json

import pytest
from _engine_support import REPO_ROOT, notes_lines

from lessons_lib.engine.specs import SPECS_DIR, frame_errors, mcp_errors
from lessons_lib.examples.mcp.revisions import BAD_HEAD, REVISIONS, RevisionRun, record_revisions
from lessons_lib.examples.mcp.revisiontable import PARTIAL, SAME, revision_table

SHARED = REPO_ROOT.parent / "shared" / "specs"  # CI lays shared/ beside the clone


@pytest.fixture(scope="module")
def good() -> dict[str, RevisionRun]:
    return record_revisions(head=5)


@pytest.fixture(scope="module")
def bad() -> dict[str, RevisionRun]:
    return record_revisions(head=BAD_HEAD)


def test_each_revision_is_what_the_sdk_negotiated(good: dict[str, RevisionRun]) -> None:
    assert list(good) == list(REVISIONS)
    assert [run.negotiated for run in good.values()] == list(REVISIONS)
    handshake = ["initialize request", "initialize result", "notifications/initialized notification"]
    calls = ["tools/list request", "tools/list result", "tools/call request", "tools/call result"]
    assert good["2025-06-18"].labels() == handshake + calls
    assert good["2025-11-25"].labels() == handshake + calls
    assert good["2026-07-28"].labels() == ["server/discover request", "server/discover result", *calls]
    assert good["2025-06-18"].frame("initialize request")["params"]["protocolVersion"] == "2025-06-18"
    assert good["2025-11-25"].frame("initialize request")["params"]["protocolVersion"] == "2025-11-25"


def test_2026_carries_meta_on_every_request_and_result_type_in_every_result(
    good: dict[str, RevisionRun],
) -> None:
    modern = good["2026-07-28"]
    for f in modern.frames:
        if "method" in f.body:
            assert f.body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"
        else:
            assert f.body["result"]["resultType"] == "complete"
    for rev in ("2025-06-18", "2025-11-25"):
        assert all("_meta" not in f.body.get("params", {}) for f in good[rev].frames)
        assert all("resultType" not in f.body.get("result", {}) for f in good[rev].frames)


def test_every_frame_is_valid_under_its_own_revision(
    good: dict[str, RevisionRun], bad: dict[str, RevisionRun]
) -> None:
    for runs in (good, bad):
        for rev, run in runs.items():
            assert {k: v for k, v in run.schema_errors().items() if v} == {}, rev


def test_a_2026_frame_fails_the_2025_06_18_schema_where_the_revisions_differ(
    good: dict[str, RevisionRun],
) -> None:
    modern = good["2026-07-28"]
    discover = modern.frame("server/discover request")
    assert mcp_errors("2026-07-28", "DiscoverRequest", discover) == []
    body = {k: discover[k] for k in ("method", "params")}
    assert mcp_errors("2025-06-18", "ClientRequest", body), "server/discover is not a 2025-06-18 request"
    # and the other way round: a 2025-06-18 call lacks what 2026-07-28 requires
    old = good["2025-06-18"]
    assert any("'_meta' is a required property" in e for e in frame_errors("2026-07-28", old.call))
    answer = frame_errors("2026-07-28", old.answer, "tools/call")
    assert any("'resultType' is a required property" in e for e in answer)


def test_the_validator_can_fail_on_a_broken_frame(good: dict[str, RevisionRun]) -> None:
    for rev, run in good.items():
        broken = copy.deepcopy(run.call)
        broken["params"]["arguments"] = json.dumps(broken["params"]["arguments"])  # text, not an object
        assert frame_errors(rev, broken), rev
        answer = copy.deepcopy(run.answer)
        answer["result"]["content"][0]["type"] = "markdown"
        assert frame_errors(rev, answer, "tools/call"), rev


def test_value_and_result_never_change_across_revisions(good: dict[str, RevisionRun]) -> None:
    expected = "\n".join(notes_lines()[:5])
    for run in good.values():
        assert run.call["params"]["arguments"] == {"path": "/workspace/notes.txt", "head": 5}
        assert run.answer["result"]["content"] == [{"type": "text", "text": expected}]
    table = revision_table(good)
    assert {r.kind for r in table.rows if r.kind in ("rule", "value", "result")} == {
        "rule",
        "value",
        "result",
    }
    assert all(r.verdict == SAME for r in table.rows if r.kind in ("rule", "value", "result"))
    assert table.kinds_with(PARTIAL) == {"envelope"}
    assert "at 0x" not in repr(table) and set(table._repr_mimebundle_()) == {"text/plain", "text/html"}


def test_bad_head_is_a_protocol_error_only_in_2025_06_18(bad: dict[str, RevisionRun]) -> None:
    old = bad["2025-06-18"].answer
    assert old["error"]["code"] == -32602 and "'5' is not of type 'number'" in old["error"]["message"]
    assert "result" not in old
    for rev in ("2025-11-25", "2026-07-28"):
        result = bad[rev].answer["result"]
        assert result["isError"] is True
        assert result["content"][0]["text"] == old["error"]["message"]
    assert {r.call["params"]["arguments"]["head"] for r in bad.values()} == {"5"}


def test_schema_copies_match_shared_specs() -> None:
    if not (SHARED / "openai" / "openapi.yaml").is_file():
        pytest.skip(f"no shared/specs at {SHARED}; the committed copies are used")
    for rev in REVISIONS:
        assert (SPECS_DIR / "mcp" / rev / "schema.json").read_bytes() == (
            SHARED / "mcp" / rev / "schema.json"
        ).read_bytes()
    for rev in ("2025-06-18", "2025-11-25"):
        tests_copy = REPO_ROOT / "tests" / "specs" / "mcp" / rev / "schema.json"
        assert (SPECS_DIR / "mcp" / rev / "schema.json").read_bytes() == tests_copy.read_bytes()


def test_openai_subset_agrees_with_the_checked_responses_copy() -> None:
    """Components shared with tests/specs (itself checked against openapi.yaml) are the same.

    Re-parsing the 3 MB YAML here would cost seconds; test_engine_fixtures already does it once.
    """
    ours = json.loads((SPECS_DIR / "openai" / "tool_components.json").read_text(encoding="utf-8"))
    theirs = json.loads(
        (REPO_ROOT / "tests" / "specs" / "openai" / "responses_components.json").read_text(encoding="utf-8")
    )
    shared = set(ours["components"]["schemas"]) & set(theirs["components"]["schemas"])
    assert {"FunctionTool", "FunctionCallOutputItemParam"} <= shared
    for name in shared:
        assert ours["components"]["schemas"][name] == theirs["components"]["schemas"][name], name
    assert ours["x-provenance"]["commit"] == theirs["x-provenance"]["commit"]


def test_cli_mcp_revisions(capsys: pytest.CaptureFixture[str]) -> None:
    from lessons_lib.cli import main

    assert main(["mcp-revisions", "--head", "5"]) == 0
    out = capsys.readouterr().out
    assert out.count("每一帧都符合本修订版的官方 schema") == 3 and "server/discover request" in out
    assert main(["mcp-revisions", "--head", '"5"', "--table"]) == 0
    assert "-32602" in capsys.readouterr().out
    assert main(["mcp-revisions", "--head", "[1]"]) == 2
    assert "--head must be a number" in capsys.readouterr().err


def test_lessons_40_to_44_are_listed_with_their_titles() -> None:
    """Each lesson's title (its first line) appears in the README table and lesson 00's map."""
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    start = json.loads((REPO_ROOT / "notebooks" / "00_start_here.ipynb").read_text(encoding="utf-8"))
    lesson_map = "".join("".join(c["source"]) for c in start["cells"] if c["cell_type"] == "markdown")
    found = sorted((REPO_ROOT / "notebooks").glob("4[0-9]_*.ipynb"))
    assert [p.name[:2] for p in found] == ["40", "41", "42", "43", "44"]
    for path in found:
        book = json.loads(path.read_text(encoding="utf-8"))
        title = "".join(book["cells"][0]["source"]).splitlines()[0].removeprefix("# ")
        assert f"[{title}](notebooks/{path.name})" in readme, title
        assert f"[{title}]({path.name})" in lesson_map, title
