"""The sabotage catalogue of the two newer APIs: mistakes only Chat or Anthropic code can make. Lesson 22.

Each entry of ``API_SABOTAGES`` makes one mistake in a copy of a good trace of its API (the
edits are those of ``apis/<name>/checks.py``, applied to the trace's own bodies) and names
the link of the troubleshooting order it should break. ``run_api_sabotage(name)`` applies it to
``data/<api>/trace.json`` and shows how ``verify_fields``, ``verify_roundtrip`` and
``diagnose`` answer, like ``run_sabotage`` does for part one's catalogue. Standard library only.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Final

from lessons_lib.apis.anthropic.checks import stringify_input, tool_result_as_assistant
from lessons_lib.apis.chat.checks import drop_tool_call_id
from lessons_lib.checks.attachments import roundtrip_from_trace
from lessons_lib.checks.doctor import diagnose
from lessons_lib.checks.evidence import as_dict, model_body, require_trace
from lessons_lib.checks.jsoncheck import Fail, load_json
from lessons_lib.checks.sabotage import Catalogue, Sabotage, SabotageOutcome
from lessons_lib.checks.verify import verify_fields, verify_roundtrip
from lessons_lib.core.jsonvalue import JSONObject

Edit = Callable[[JSONObject], JSONObject]


def _on_trace(edit: Edit) -> Callable[[object], JSONObject]:
    """A round-trip edit applied to a copy of a trace: the round trip's parts are the trace's bodies."""

    def apply(trace: object) -> JSONObject:
        t = require_trace(copy.deepcopy(as_dict(trace)))
        edit({"response_1": model_body(t, "response_1"), "request_2": model_body(t, "request_2")})
        return t

    return apply


def _entry(api: str, name: str, edit: Edit, title: str, change: str, link: str) -> Sabotage:
    return Sabotage(name, title, f"{api}：{title}", change, link, _on_trace(edit))


class ApiCatalogue(Catalogue):
    """The API-specific entries; shown like part one's catalogue, under their own heading."""

    def text(self) -> str:
        lines = super().text().split("\n")
        return "\n".join(["破坏目录（Chat Completions 与 Anthropic Messages 特有的错误）", *lines[1:]])


API_SABOTAGES: Final = ApiCatalogue(
    (
        _entry(
            "Chat Completions",
            "chat_tool_call_id_missing",
            drop_tool_call_id,
            "tool 消息缺少 tool_call_id",
            '第二次请求的 role: "tool" 消息删掉 tool_call_id',
            "ids",
        ),
        _entry(
            "Anthropic Messages",
            "anthropic_input_stringified",
            stringify_input,
            "把 tool_use.input 写成 JSON 文本",
            "response_1 与第二次请求里的 tool_use.input 换成 json.dumps 后的字符串",
            "parse",
        ),
        _entry(
            "Anthropic Messages",
            "anthropic_tool_result_as_assistant",
            tool_result_as_assistant,
            "tool_result 用 role: assistant 发送",
            "装着 tool_result 的那条消息 role 改成 assistant",
            "next_input",
        ),
    )
)
API_OF: Final = {s.name: s.name.split("_")[0] for s in API_SABOTAGES}


def run_api_sabotage(name: str, trace: object = None) -> SabotageOutcome:
    """Apply one API catalogue entry (to ``data/<api>/trace.json`` by default) and check it. Lesson 22."""
    entry = API_SABOTAGES.get(name)
    if trace is None:
        from lessons_lib.core.paths import DATA_DIR

        try:
            trace = load_json(DATA_DIR / API_OF[name] / "trace.json")
        except Fail as exc:
            raise ValueError(str(exc)) from None
    broken = entry.apply(trace)
    return SabotageOutcome(
        entry,
        verify_fields(broken),
        verify_roundtrip(roundtrip_from_trace(broken) | {"api": API_OF[name]}, sabotage=False),
        diagnose(broken),
    )
