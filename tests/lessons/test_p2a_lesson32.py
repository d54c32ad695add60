"""Lesson 32 shows what the course really does (issue 38, point 1).

- ``client_retries()`` reads ``max_retries`` from the SDK clients the course's adapters open, so
  the lesson's "0" is the real clients', not a client built in the cell;
- the call flow's text version (what a reader without SVG gets) names the failed model request
  and the round it cost, as the drawing does;
- the lesson's text tells one story of where a failure becomes ``isError``.
"""

from __future__ import annotations

import json

import pytest
from _engine_support import REPO_ROOT

from lessons_lib.core.plugins.apiregistry import names
from lessons_lib.engine import adapters
from lessons_lib.engine.apis import client_retries
from lessons_lib.examples.orders.callflow import call_flow
from lessons_lib.examples.orders.lab import run_scenario


def test_the_course_clients_do_not_retry() -> None:
    assert client_retries() == dict.fromkeys(names(), 0)


def test_the_numbers_come_from_the_clients_the_adapters_build(monkeypatch: pytest.MonkeyPatch) -> None:
    real = adapters.openai_client

    def retrying(*args: object, **kwargs: object) -> object:
        return real(*args, **kwargs).with_options(max_retries=3)  # type: ignore[arg-type]

    for module in ("lessons_lib.apis.chat.adapter", "lessons_lib.apis.responses.adapter"):
        monkeypatch.setattr(f"{module}.openai_client", retrying)
    seen = client_retries()
    assert seen["responses"] == 3 and seen["chat"] == 3 and seen["anthropic"] == 0


def test_the_text_version_names_the_failed_request_and_the_skipped_round() -> None:
    text = call_flow(run_scenario("retry").trace).text()
    lines = text.splitlines()
    failed = next(i for i, line in enumerate(lines) if line.startswith("request_3 失败"))
    assert "第 3 轮没有调用" in lines[failed] and lines[failed + 1].startswith("第 4 轮")
    assert "失败" not in call_flow(run_scenario("parallel").trace).text()


def _markdown(name: str) -> str:
    (path,) = (REPO_ROOT / "notebooks").glob(f"{name}_*.ipynb")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def test_bad_json_is_never_said_to_come_back_with_is_error() -> None:
    text = _markdown("32")
    assert "都变成带 `isError` 的工具结果" not in text and "都变成一个工具错误结果" not in text
    assert "不合法的 JSON 从不发出" in text and "没有失败字段" in text
    assert "台账没有第 3 轮" in text
