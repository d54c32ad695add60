"""Rules the three offline stand-ins share: which tools to call, with what, and how to answer.

Introduced in lesson 01 (the Responses stand-in) and lesson 20 (all three). The Responses
stand-in (``offline_model``), the Chat Completions one (``offline_chat``) and the Anthropic
Messages one (``offline_anthropic``) are the same deterministic rule program wrapped three
ways: the same task text gives the same tool choice, the same arguments and the same answer
sentence, so the lessons can show that only the wrapping differs. None of them is a language
model. The answer never claims more than the feedback holds: how many lines came back, that
the file ended, whose failure it was (the tool's, or the application's routing).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lessons_lib.core.example import ALIAS_SEPARATOR, FAILURE_PREFIX
from lessons_lib.core.jsonvalue import JSON, JSONObject
from lessons_lib.core.messages import t, zh
from lessons_lib.engine.standins.search import is_search, search_arguments

if TYPE_CHECKING:
    import httpx2

NO_TOOL_TEXT = zh("standin.no_tool")
NO_TOOLS_DECLARED = zh("standin.no_tools")
NO_FILE_TEXT = zh("standin.no_file")
"""The Chinese texts, for older imports; the stand-ins call the functions below (current language)."""


def no_tool_text() -> str:
    """The answer when ``tool_choice`` allows no call (lesson 08), in the current language."""
    return t("standin.no_tool")


def no_tools_text() -> str:
    """The answer when the request declares no tool, in the current language."""
    return t("standin.no_tools")


def no_file_text() -> str:
    """The answer when the task names no /workspace path and asks for no file, in the current language."""
    return t("standin.no_file")


@dataclass
class Script:
    """Optional fixed moves for what-if lessons: exact ``arguments`` text and/or tool name."""

    arguments: str | None = None
    tool: str | None = None
    also: tuple[str, ...] = ()
    """Lesson 11: more ``arguments`` texts, one more ``function_call`` each in the same turn."""
    preamble: str | None = None
    """Lesson 11: an assistant message placed before the calls (output[0] is then no call)."""
    endless: bool = False
    """Lesson 11: call the tool again on every turn and never answer, so a loop must stop itself."""


_PATH = re.compile(r"(/workspace[^\s，。、；：！？,;!?\"'“”]*)")
_QUOTED_PATH = re.compile(r'"(?:[^"\\]|\\.)*"')  # a path quoted as a JSON string by task_text
# A sign is kept: "前 -3 行" becomes head -3, and the service (not the stand-in) refuses it.
_HEAD = re.compile(r"前\s*(-?\d+)\s*行|first\s+(-?\d+)\s+lines?", re.I)
_TAIL = re.compile(r"(?:最后|末尾|后)\s*(-?\d+)\s*行|last\s+(-?\d+)\s+lines?", re.I)
_CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
_FILE_WORDS = ("文件", "笔记", "读", "file", "read", "notes")


def needs_a_file(task: str) -> bool:
    """Under ``tool_choice: auto`` the stand-in calls a tool only when the task names a /workspace path."""
    return "/workspace" in task


def ask_for_file(task: str) -> str | None:
    """The question the stand-in asks when the task wants a file's lines but names no path (lesson 08).

    The source lesson, section 6: a value the task does not give must be asked for, not guessed. None
    when the task names a path, or asks for no file at all.
    """
    if needs_a_file(task):
        return None
    lines = [t(f"standin.lines_{side}", n=n) for side, n in _line_counts(task).items()]
    if not lines and not any(word in task.lower() for word in _FILE_WORDS):
        return None
    return t("standin.ask_lines", lines=lines[0]) if lines else t("standin.ask")


def _line_counts(task: str) -> dict[str, int]:
    found = {}
    for side, pattern in (("head", _HEAD), ("tail", _TAIL)):
        match = pattern.search(task)
        if match:
            found[side] = int(match.group(1) or match.group(2))
    return found


def first_answer(task: str, choice: str) -> str | None:
    """The text the stand-in writes instead of a call under ``choice`` (``none``/``auto``), or None."""
    if choice == "none":
        return no_tool_text()
    if choice == "auto" and not needs_a_file(task):
        return ask_for_file(task) or no_file_text()
    return None


def chosen_tools(aliases: Sequence[str], task: str, script: Script, forced: str | None = None) -> list[str]:
    """The aliases the stand-in calls: the forced one, the script's, those named in the task, or the first."""
    if forced is not None:
        return [forced] if forced in aliases else []
    if script.tool is not None:
        return [script.tool]
    named = [a for a in aliases if a.split(ALIAS_SEPARATOR)[0] and a.split(ALIAS_SEPARATOR)[0] in task]
    return named or list(aliases[:1])


def arguments_from(task: str) -> str:
    """The arguments text the stand-in derives from the task: path, then head or tail."""
    args: JSONObject = {}
    quoted = _QUOTED_PATH.search(task)
    path = _PATH.search(task)
    if quoted:
        args["path"] = json.loads(quoted.group(0))
    elif path:
        value = path.group(1)
        # an English sentence's full stop ends the path's match: dropped in a task without CJK text
        args["path"] = value[:-1] if value.endswith(".") and not _CJK.search(task) else value
    counts = _line_counts(task)
    for key in ("head", "tail"):
        if key in counts:
            args[key] = counts[key]
    return json.dumps(args, ensure_ascii=False)


def arguments_text(task: str, script: Script, tool: str = "") -> str:
    """The ``arguments`` JSON text: the script's, or what the task text asks for.

    ``tool`` (the alias called) selects a tool's own rule: ``search_notes`` (lesson 12).
    """
    if script.arguments is not None:
        return script.arguments
    return search_arguments(task) if tool and is_search(tool) else arguments_from(task)


def arguments_object(task: str, script: Script) -> JSONObject:
    """The same arguments as an object (Anthropic's ``input``); text that is no object gives ``{}``."""
    try:
        value = json.loads(arguments_text(task, script))
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def answer_part(arguments: JSON, output: str, tool: str = "", declared: Collection[str] | None = None) -> str:
    """One paragraph of the answer for one call's feedback (its arguments as text or object)."""
    text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return feedback_paragraph(text, output, tool, declared)


def feedback_paragraph(
    arguments: JSON, output: str, tool: str = "", declared: Collection[str] | None = None
) -> str:
    """One paragraph of the stand-in's answer for one call's feedback (lesson 01).

    ``declared`` is the tool names of the request: a failed call of a name outside it is told
    as the application's routing failure (no tool ran), never as the tool's failure (lesson 05).
    """
    if output.startswith(FAILURE_PREFIX):
        reason = output[len(FAILURE_PREFIX) :]
        args = _arguments_object(arguments)
        has_path = args is not None and isinstance(args.get("path"), str)
        what = _describe(arguments, None, tool) if has_path else t("standin.result_of", source=_source(tool))
        if declared is not None and tool and tool not in declared:
            return t("standin.unrouted", what=what, tool=tool, reason=reason)
        # the tool's own message is wire text: quoted as such, in the tool's language
        if not has_path:
            return t("standin.failed", what=what, reason=reason)
        return t("standin.failed_file", what=what, reason=reason)
    return t("standin.here_is", what=_describe(arguments, output, tool), output=output)


def _describe(arguments: JSON, output: str | None = None, tool: str = "") -> str:
    """What the feedback holds, never more: with ``output``, how many lines came back and,
    when fewer than asked, that the file ended there. A call without a path (a tool that reads
    no file, e.g. the order desk's) is named by its tool, never called "该文件"."""
    args = _arguments_object(arguments)
    if args is None or not isinstance(args.get("path"), str):
        return t("standin.returned", source=_source(tool))
    path = args["path"]
    got = None if output is None else len(output.splitlines())
    for key in ("head", "tail"):
        asked = args.get(key)
        if asked is None:
            continue
        side = t(f"standin.lines_{key}", n=asked)
        if got is None:
            return t("standin.path_lines", path=path, lines=side)
        if got == 0:
            return t("standin.path_empty", path=path, asked=side)
        if isinstance(asked, int) and not isinstance(asked, bool) and got < asked:
            return t("standin.path_all", path=path, got=got, asked=side)
        return t("standin.path_lines", path=path, lines=t(f"standin.lines_{key}", n=got))
    return (
        t("standin.path_content", path=path)
        if got is None
        else t("standin.path_content_n", path=path, got=got)
    )


def _source(tool: str) -> str:
    return t("standin.tool_named", tool=tool) if tool else t("standin.tool_called")


def _arguments_object(arguments: JSON) -> JSONObject | None:
    if not isinstance(arguments, str):
        return arguments if isinstance(arguments, dict) else None
    try:
        args = json.loads(arguments)
    except (TypeError, ValueError):
        return None
    return args if isinstance(args, dict) else None


def text_of(content: JSON) -> str:
    """A message's text: a plain string, or the ``text`` of its text parts joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and "text" in p)
    return ""


async def read_json(request: httpx2.Request) -> JSONObject | None:
    """The request body as a JSON object, or None."""
    try:
        body = json.loads(await request.aread())
    except ValueError:
        return None
    return body if isinstance(body, dict) else None
