"""Model messages of Chat Completions and Anthropic runs, told in their own words (lessons 20-22).

Introduced in lesson 20. ``model_summary`` is the one-line account of a request or response
for ``narrate`` (the terminal and the lessons); ``model_lines`` the label lines of its arrow in
the sequence diagram; ``native_rows`` puts those labels on the rows that
``lessons_lib.views.sequence.build_rows`` computed from the Responses view of the same trace
(so the missing-message rules are written once), and renames the Responses item names in
the missing rows. The readers are the trace queries' own (``lessons_lib.core.plugins.apishapes``); each
API's words are in its folder (``apis/<name>/words.py``), held by its registry entry.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, ClassVar, Protocol, TypeVar

from lessons_lib.core.jsonvalue import JSONObject, objects
from lessons_lib.core.messages import t
from lessons_lib.core.plugins.apiregistry import api_entry
from lessons_lib.core.plugins.apishapes import answer_text, declared_tools, feedback_items, tool_calls
from lessons_lib.core.plugins.apitypes import ApiWords
from lessons_lib.core.traces.trace import event_number
from lessons_lib.core.traces.tracetypes import TraceData


class _Row(Protocol):
    """What ``native_rows`` needs of a sequence row (``lessons_lib.views.sequence.SeqRow``)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def label(self) -> str: ...

    @property
    def missing(self) -> bool: ...


RowT = TypeVar("RowT", bound=_Row)


def _words(api: str) -> ApiWords:
    """The API's words (``apis/<name>/words.py``), held by its registry entry."""
    words = api_entry(api).words
    if words is None:
        raise ValueError(
            f"the model API '{api}' names its parts in the Responses words; it has no words of its own"
        )
    return words


def phrase(api: str, name: str) -> str:
    """One of the API's phrases in the current language: ``feedback_line``, ``answer_line`` or
    ``function_call_output`` (the catalogue's ``apis_words.<api>.<name>``). Lesson 20."""
    return t(f"{_words(api).messages}.{name}")


def renames(api: str) -> dict[str, str]:
    """Responses item name -> the same part in this API, for the missing rows of the sequence diagram."""
    w = _words(api)
    return {
        "function_call_output": phrase(api, "function_call_output"),
        "function_call": w.call,
        "call_id": w.call_id,
    }


def _short(value: object, limit: int = 60) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = text.replace("\n", "⏎")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _api(api: str) -> str:
    return api_entry(api).name


def model_summary(label: str, body: JSONObject, api: str) -> str:
    """E.g. ``messages=[user, assistant, tool] tools=['fs__read_text_file'] tool_choice=auto``."""
    a = _api(api)
    if label.startswith("request_"):
        roles = []
        for m in objects(body.get("messages")):
            content = m.get("content")
            blocks = (
                [b.get("type") for b in content if isinstance(b, dict)] if isinstance(content, list) else []
            )
            roles.append(f"{m.get('role')}({'+'.join(map(str, blocks))})" if blocks else str(m.get("role")))
        tools = [tool.name for tool in declared_tools(body, a)]
        choice = json.dumps(body.get("tool_choice"), ensure_ascii=False)
        return f"messages=[{', '.join(roles)}] tools={tools} tool_choice={choice}"
    if label.startswith("response_"):
        w = _words(a)
        parts = [
            f"{w.call} {c.name} id={c.call_id} {w.arguments}={_short(c.arguments)}"
            for c in tool_calls(body, a)
        ]
        said = answer_text(body, a)
        if said:
            parts.append(f"{w.answer} {_short(said)}")
        return "; ".join(parts) or t("apiviews.nothing")
    error = body.get("error")
    message = error.get("message", body) if isinstance(error, dict) else body
    return t("apiviews.http_error", message=_short(message, 100))


def model_lines(label: str, body: JSONObject, api: str) -> list[str]:
    """The label lines under the message number of one model arrow in the sequence diagram."""
    a = _api(api)
    w = _words(a)
    if label.startswith("request_"):
        lines = []
        for f in feedback_items(body, a):
            lines += [phrase(a, "feedback_line"), f"{w.call_id}={f.call_id}"]
        return lines or ([t("apiviews.task_and_tools")] if body.get("tools") else [t("apiviews.task")])
    if label.startswith("response_"):
        lines = []
        for c in tool_calls(body, a):
            lines += [f"{w.call} {c.name}", f"id={c.call_id}"]
        if answer_text(body, a):
            lines.append(phrase(a, "answer_line"))
        return lines
    return []


def native_rows(rows: list[RowT], data: TraceData, api: str) -> list[RowT]:
    """Rows built from the Responses view, relabelled: model arrows in this API's words."""
    events = data["events"]
    out, n = [rows[0]], 0
    for row in rows[1:]:
        if row.missing:
            text = row.label
            for old, new in renames(api).items():
                text = text.replace(old, new)
            out.append(replace(row, label=text))
            continue
        if n < len(events) and events[n]["channel"] == "model":
            e = events[n]
            head = f"{event_number(e)} {e['label']}"
            out.append(
                replace(
                    row,
                    label="\n".join([head, *model_lines(e["label"], e["body"], api)]),
                )
            )
        else:
            out.append(row)
        n += 1
    return out
