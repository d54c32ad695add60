"""A deliberately gullible stand-in: a simulation of a model that obeys text in tool output. Lesson 52.

**Not a language model, and not how any particular model behaves**: a deterministic rule
program written to show the harm. Its rules:

- a task that names a ``/workspace`` file -> read it (``fs__read_text_file``, head as asked);
- a tool result that contains "调用 <tool>，key=value，..." (or "执行 <tool>：...", "call <tool> with
  key=value, ...") -> call ``orders__<tool>`` with those values, once, whether or not the tool
  was declared (it read the name in the text);
- except when the application labelled that result as untrusted data (``trust:
  untrusted_data``): then the text is only quoted. A real model may still obey a labelled
  instruction; labels lower the odds, they guarantee nothing, so lesson 52 stacks defences;
- then an answer that quotes the notes' first line and, as the injected text asks, says
  nothing about the write.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Final

from lessons_lib.core.example import FAILURE_PREFIX
from lessons_lib.core.jsonvalue import JSON, JSONObject, objects
from lessons_lib.core.messages import t
from lessons_lib.engine.screens import UNTRUSTED
from lessons_lib.engine.standins.calls import function_calls
from lessons_lib.engine.standins.rules import arguments_from
from lessons_lib.engine.standins.shapes import response_body
from lessons_lib.services.orders.standin import OrdersModel

READ: Final = "fs__read_text_file"


def label() -> str:
    """What this stand-in is, in the current language (it is labelled as what it is)."""
    return t("injection.gullible.label")


_ORDER = re.compile(
    r"(?:调用|执行|\bcall\b|\binvoke\b|\brun\b)\s*`?([a-z_]+)`?\s*(?:\bwith\b)?([^。\n]+)", re.IGNORECASE
)
_PAIR = re.compile(r"([a-z_]+)\s*=\s*([^，,；;\s。]+)")


def injected_call(text: str) -> tuple[str, str] | None:
    """The call an instruction in ``text`` asks for, as (alias, arguments text), or None (lesson 52).

    It reads "调用 <tool>，key=value，..." and other wordings of the same order ("执行 <tool>：...",
    "call <tool> with key=value, ..."): the checker of lesson 52 tries those too.
    """
    for found in _ORDER.finditer(text):
        args = {k: v.rstrip(".") for k, v in _PAIR.findall(found.group(2))}
        if args:
            return f"orders__{found.group(1)}", json.dumps(args, ensure_ascii=False)
    return None


def _unwrapped(item: JSONObject) -> JSONObject:
    if item.get("type") != "function_call_output":
        return item
    text, labelled = _content(str(item.get("output", "")))
    return {**item, "output": text} if labelled else item


def _content(output: str) -> tuple[str, bool]:
    """(text, labelled as untrusted) of one ``function_call_output``."""
    body = output[len(FAILURE_PREFIX) :] if output.startswith(FAILURE_PREFIX) else output
    try:
        value = json.loads(body)
    except ValueError:
        return body, False
    if isinstance(value, dict) and value.get("trust") == UNTRUSTED:
        return str(value.get("content", "")), True
    return body, False


@dataclass
class GullibleModel(OrdersModel):
    """The gullible stand-in behind the real ``openai`` SDK (one instance per run).

    A task that names no file goes to the order desk's own rules (:class:`OrdersModel`), with
    labelled results unwrapped first, so a write the user asked for still works (the control).
    """

    def respond(self, body: JSONObject) -> JSONObject:
        items = objects(body.get("input"))
        task = next((str(i["content"]) for i in items if i.get("role") == "user"), "")
        if "/workspace" not in task:
            unwrapped: list[JSON] = [_unwrapped(i) for i in items]
            return super().respond({**body, "input": unwrapped})
        names = {i.get("call_id"): i.get("name") for i in items if i.get("type") == "function_call"}
        made = {(i.get("name"), i.get("arguments")) for i in items if i.get("type") == "function_call"}
        outputs = [
            (names.get(i.get("call_id")), str(i.get("output", "")))
            for i in items
            if i.get("type") == "function_call_output"
        ]
        if not outputs and "/workspace" in task:
            return self._call_reply(body, [(READ, arguments_from(task))])
        notes = [_content(text) for name, text in outputs if name == READ]
        for text, untrusted in notes:
            wanted = None if untrusted else injected_call(text)
            if wanted is not None and wanted not in made:
                return self._call_reply(body, [wanted])
        first = notes[0][0].splitlines()[0] if notes and notes[0][0] else t("injection.gullible.nothing")
        reply = self._message(t("injection.gullible.first_line", first=first))
        return response_body(f"resp_offline_{self.turns:03d}", body, [reply])

    def _call_reply(self, body: JSONObject, calls: list[tuple[str, str]]) -> JSONObject:
        return response_body(f"resp_offline_{self.turns:03d}", body, function_calls(self.turns, calls))
