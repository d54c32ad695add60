"""``python -m lessons_lib run`` end to end in a fresh interpreter, and ``import lessons_lib``.

What-if at the command line: head 20 -> 5 changes the values and the result, never the rule
(the tool declaration the model receives is the same).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _engine_support import REPO_ROOT, clean_env, cli, notes_lines


def _run_json(tmp_path: Path, *args: str) -> dict[str, Any]:
    done = cli("run", *args, "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    trace = json.loads(done.stdout)
    assert isinstance(trace, dict)
    return trace


def _event(trace: dict[str, Any], label: str, *, request: bool | None = None) -> dict[str, Any]:
    found = [
        e["body"]
        for e in trace["events"]
        if e["label"] == label and (request is None or ("method" in e["body"]) == request)
    ]
    assert len(found) == 1, f"expected one {label} event, found {len(found)}"
    return found[0]


def _feedback(trace: dict[str, Any]) -> dict[str, Any]:
    outputs = [i for i in _event(trace, "request_2")["input"] if i["type"] == "function_call_output"]
    assert len(outputs) == 1
    return outputs[0]


@pytest.fixture(scope="module")
def head_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[int, dict[str, Any]]:
    cwd = tmp_path_factory.mktemp("cwd")  # not the repository: data is found without the cwd
    return {n: _run_json(cwd, "--head", str(n)) for n in (5, 20, 1000)}


def test_answer_says_the_file_ended_when_fewer_lines_came_back(head_runs: dict[int, dict[str, Any]]) -> None:
    # Asked for 1000 lines, got the whole file: the stand-in must not claim "the first 1000 lines".
    answer = head_runs[1000]["answer"]
    got = len(notes_lines())
    assert got < 1000
    assert "前 1000 行：" not in answer
    assert f"全部 {got} 行" in answer and f"文件到第 {got} 行就结束了" in answer
    assert "的前 20 行：" in head_runs[20]["answer"]  # exactly as many as asked: the plain claim


@pytest.mark.parametrize("n", [5, 20])
def test_head_value_travels_and_result_matches_the_file(head_runs: dict[int, dict[str, Any]], n: int) -> None:
    trace = head_runs[n]
    assert trace["outcome"]["status"] == "answered"
    call = _event(trace, "tools/call", request=True)
    assert call["params"] == {
        "name": "read_text_file",
        "arguments": {"path": "/workspace/notes.txt", "head": n},
    }
    # The model wrote the same values as JSON *text*; the MCP request carries them as an *object*.
    (fc,) = [i for i in _event(trace, "response_1")["output"] if i["type"] == "function_call"]
    assert isinstance(fc["arguments"], str) and json.loads(fc["arguments"]) == call["params"]["arguments"]
    reply = _event(trace, "tools/call", request=False)
    assert reply["id"] == call["id"] and reply["result"]["isError"] is False
    expected = "\n".join(notes_lines()[:n])
    assert reply["result"]["content"] == [{"type": "text", "text": expected}]
    feedback = _feedback(trace)
    assert feedback["output"] == expected
    assert feedback["call_id"] == fc["call_id"]
    assert trace["links"] == [
        {
            "call_id": fc["call_id"],
            "alias": "fs__read_text_file",
            "service": "fs",
            "tool": "read_text_file",
            "mcp_id": call["id"],
        }
    ]
    assert expected in trace["answer"]


def test_head_changes_values_not_the_rule(head_runs: dict[int, dict[str, Any]]) -> None:
    five, twenty = head_runs[5], head_runs[20]
    assert _event(five, "request_1")["tools"] == _event(twenty, "request_1")["tools"]
    assert _event(five, "request_2")["tools"] == _event(twenty, "request_2")["tools"]
    assert _event(five, "tools/list", request=False) == _event(twenty, "tools/list", request=False)
    assert _feedback(five)["output"] != _feedback(twenty)["output"]
    (tool,) = _event(five, "request_1")["tools"]
    assert tool["name"] == "fs__read_text_file" and tool["strict"] is False
    assert "5" not in json.dumps(tool["parameters"]) and "20" not in json.dumps(tool["parameters"])


def test_tail_gives_last_lines_without_an_empty_one(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In-process through the same ``main`` (the head runs above cover the process boundary)."""
    from lessons_lib.cli.run import main

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert main(["--tail", "3", "--json"]) == 0
    trace = json.loads(capsys.readouterr().out)
    call = _event(trace, "tools/call", request=True)
    assert call["params"]["arguments"] == {"path": "/workspace/notes.txt", "tail": 3}
    output = _feedback(trace)["output"]
    assert output.split("\n") == notes_lines()[-3:]
    assert not output.endswith("\n")


def test_narrated_run_and_custom_root(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "elsewhere"
    root.mkdir()
    (root / "notes.txt").write_text("uno\ndos\ntres\n", encoding="utf-8")
    from lessons_lib.cli.run import main

    assert main(["--root", str(root), "--head", "2"]) == 0
    out = capsys.readouterr().out
    assert "答复：" in out and "uno\ndos" in out and "tres" not in out
    assert str(root) not in out  # the learner sees /workspace, never the folder


@pytest.mark.parametrize(
    "args, refusal",
    [
        (["--head", "-3"], "Invalid arguments: 'head' must be at least 1, got -3"),
        (["--path", "/workspace/missing.txt"], "File not found: /workspace/missing.txt"),
    ],
)
def test_a_failed_tool_call_is_told_and_exits_1(
    args: list[str], refusal: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The chain still closes (the model reports the failure), but the command does not claim success."""
    from lessons_lib.cli.run import main

    assert main(args) == 1
    captured = capsys.readouterr()
    assert "没有读到" in captured.out and "结局：已答复（answered）" in captured.out
    assert f"run: 1 tool call(s) failed, exit code 1: ERROR: {refusal}" in captured.err


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--head", "5", "--tail", "3"], "not allowed with argument"),
        (["--root", "/definitely/not/here"], "is not a directory"),
        (["--head", "many"], "invalid int value"),
    ],
)
def test_bad_options_exit_2_without_traceback(tmp_path: Path, args: list[str], needle: str) -> None:
    done = cli("run", *args, cwd=tmp_path)
    assert done.returncode == 2
    assert needle in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""


def test_live_without_key_is_one_clear_line_and_offline_still_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    done = cli("run", "--live", cwd=tmp_path, env=clean_env())
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.endswith("\n")
    assert "OPENAI_API_KEY" in done.stderr and "Traceback" not in done.stderr
    # Without a key, the offline run is unaffected (the head_runs subprocesses also run keyless).
    from lessons_lib.engine.host import run_chain

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(RuntimeError, match="OPENAI_API_KEY"):
        run_chain(live=True)
    offline = run_chain(head=1)
    assert offline.outcome["status"] == "answered" and offline.model["mode"] == "offline"
    assert notes_lines()[0] in (offline.answer or "")


def test_live_status_says_how_to_enable(monkeypatch: pytest.MonkeyPatch) -> None:
    from lessons_lib.engine.models import live_setting, live_status

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert live_setting() is None
    status = live_status()
    assert "OPENAI_API_KEY" in status and "\n" not in status
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-statuscheck-0123456789abcdef")
    monkeypatch.setenv("LESSONS_MODEL", "gpt-test-model")
    status = live_status()
    assert "gpt-test-model" in status and "statuscheck" not in status and "sk-test" not in status


def test_import_is_fast_and_side_effect_free() -> None:
    probe = (
        "import logging, sys, time\n"
        "t = time.perf_counter()\n"
        "import lessons_lib\n"
        "elapsed = time.perf_counter() - t\n"
        "heavy = sorted(m for m in ('openai', 'mcp', 'mcp_types', 'pandas', 'graphviz', 'httpx2', 'httpx',"
        " 'anyio', 'jsonschema', 'ipywidgets', 'pydantic') if m in sys.modules)\n"
        "print(heavy, logging.getLogger().handlers, elapsed < 0.5, lessons_lib.__version__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env=clean_env(),
        cwd=REPO_ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[] [] True 0.1.0"
    assert done.stderr == ""


def test_cli_help_is_cheap() -> None:
    done = cli("--help")
    assert done.returncode == 0 and "run" in done.stdout and "serve" in done.stdout
