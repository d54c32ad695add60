"""What ``tool_choice`` changes, each value run for real. Lesson 21.

``compare_tool_choices("chat")`` runs the whole chain once per OpenAI value (``auto``,
``none``, ``required``, a named function) and ``compare_tool_choices("anthropic")`` once per
Anthropic value (``auto``, ``any``, ``tool``, ``none``, and ``any`` with
``disable_parallel_tool_use``), each on two services that both offer ``read_text_file`` so
that parallel calls can show, for a task that needs the file and for one that does not. The
value is the first request's; after the feedback the loop sends ``auto``. Each row says what
the model did: which calls, how many ``tools/call`` reached a service, how the answer begins.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Final

from lessons_lib.apis.apimap import ApiTable
from lessons_lib.core.glossary import Kind
from lessons_lib.core.messages import t
from lessons_lib.core.plugins.apiregistry import api_entry

if TYPE_CHECKING:
    from lessons_lib.core.traces.trace import Trace

ALIAS: Final = "fs__read_text_file"
CHOICES: Final[dict[str, tuple[tuple[str, object], ...]]] = {
    "chat": (
        ("auto", "auto"),
        ("none", "none"),
        ("required", "required"),
        ("named", {"type": "function", "function": {"name": ALIAS}}),
    ),
    "anthropic": (
        ("auto", {"type": "auto"}),
        ("any", {"type": "any"}),
        ("tool", {"type": "tool", "name": ALIAS}),
        ("none", {"type": "none"}),
        ("any + disable_parallel_tool_use", {"type": "any", "disable_parallel_tool_use": True}),
    ),
}
TASK: Final = "请用 fs 和 backup 两个服务分别读取 /workspace/notes.txt 的前 3 行。"
"""The file task of lesson 21: it names two services, so a model may call both in one reply."""
CHAT_TASK: Final = "你好，你能帮我做什么？"
"""A task that needs no file: under ``auto`` the model may answer without a tool."""


def run_choice(api: str, tool_choice: object, task: str = TASK) -> Trace:
    """One offline run of ``api`` with this first-request ``tool_choice`` on two services."""
    from lessons_lib.core.paths import WORKSPACE_DIR
    from lessons_lib.engine.host import run_chain

    services = {"fs": WORKSPACE_DIR, "backup": WORKSPACE_DIR}
    return run_chain(task, api=api, tool_choice=tool_choice, services=services)


def _did(trace: Trace) -> tuple[tuple[str, Kind | None], tuple[str, Kind | None]]:
    from lessons_lib.core.traces import queries as q

    calls = [str(c.name) for c in q.calls(trace, 1)]
    sent = len([x for x in q.mcp_exchanges(trace) if x.request is not None])
    answer = (trace.answer or trace.outcome.get("text") or trace.outcome.get("reason", "")).split("\n")[0]
    did = t("choices.did", calls=", ".join(calls), sent=sent) if calls else t("choices.no_call")
    return (did, "identifier" if calls else None), (answer[:30] + ("…" if len(answer) > 30 else ""), "value")


def compare_tool_choices(api: str = "chat") -> ApiTable:
    """One real run per ``tool_choice`` value of ``api`` ("chat" or "anthropic") and task. Lesson 21."""
    if api not in CHOICES:
        raise ValueError(f'compare_tool_choices takes "chat" or "anthropic", not {api!r}')
    rows: list[tuple[tuple[str, Kind | None], ...]] = []
    for name, choice in CHOICES[api]:
        file_did, file_answer = _did(run_choice(api, choice))
        chat_did, chat_answer = _did(run_choice(api, choice, CHAT_TASK))
        rows.append(
            (
                # the name and the JSON share a column, so five columns fit 1,000 px
                (
                    t("choices.choice_cell", name=name, choice=json.dumps(choice, ensure_ascii=False)),
                    "setting",
                ),
                file_did,
                file_answer,
                chat_did,
                chat_answer,
            )
        )
    header = tuple(
        t(f"choices.head.{h}") for h in ("value", "file_calls", "file_answer", "chat_calls", "chat_answer")
    )
    title = t("choices.title", api=api_entry(api).title)
    return ApiTable(title, header, tuple(rows))
