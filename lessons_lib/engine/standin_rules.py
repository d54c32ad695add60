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
from lessons_lib.engine.standin_search import is_search, search_arguments

if TYPE_CHECKING:
    import httpx2

NO_TOOL_TEXT = "这一轮没有调用工具（tool_choice 不允许调用），所以文件内容没有被读取，我不能编造它。"
NO_TOOLS_DECLARED = "没有可用的工具，无法读取文件。"
NO_FILE_TEXT = (
    "这个请求里没有要读取的 /workspace 路径，不需要调用工具："
    "我可以按工作区路径读取文本文件，例如前 N 行或最后 N 行。"
)


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
_FILE_WORDS = ("文件", "笔记", "读", "file", "read")


def needs_a_file(task: str) -> bool:
    """Under ``tool_choice: auto`` the stand-in calls a tool only when the task names a /workspace path."""
    return "/workspace" in task


def ask_for_file(task: str) -> str | None:
    """The question the stand-in asks when the task wants a file's lines but names no path (lesson 08).

    Seed 000, section 6: a value the task does not give must be asked for, not guessed. None
    when the task names a path, or asks for no file at all.
    """
    if needs_a_file(task):
        return None
    lines = [f"{side} {n} 行" for side, n in _line_counts(task).items()]
    if not lines and not any(word in task.lower() for word in _FILE_WORDS):
        return None
    what = f"{lines[0]}的" if lines else ""
    return f"任务里没有给出文件路径，我不猜。你要我读{what}是 /workspace 下的哪一个文件？"


def _line_counts(task: str) -> dict[str, int]:
    found = {}
    for side, pattern in (("前", _HEAD), ("最后", _TAIL)):
        match = pattern.search(task)
        if match:
            found[side] = int(match.group(1) or match.group(2))
    return found


def first_answer(task: str, choice: str) -> str | None:
    """The text the stand-in writes instead of a call under ``choice`` (``none``/``auto``), or None."""
    if choice == "none":
        return NO_TOOL_TEXT
    if choice == "auto" and not needs_a_file(task):
        return ask_for_file(task) or NO_FILE_TEXT
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
        args["path"] = path.group(1)
    counts = _line_counts(task)
    for side, key in (("前", "head"), ("最后", "tail")):
        if side in counts:
            args[key] = counts[side]
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
        what = _describe(arguments, None, tool) if has_path else f"{_source(tool)}的结果"
        if declared is not None and tool and tool not in declared:
            return (
                f"没有读到{what}：我调用的 {tool} 不在应用声明的工具里，应用找不到它的路由"
                f"（{reason}）。这是应用的路由失败，不是工具的失败：没有任何工具运行。"
                "文件内容没有被读取，我不能编造它。"
            )
        # the tool's own message is wire text: quoted as such, in the tool's language
        if not has_path:
            return f"没有读到{what}：工具报告失败，我不能编造它。（工具返回的原文：“{reason}”）"
        return (
            f"没有读到{what}：工具报告失败，文件内容没有被读取，我不能编造它。（工具返回的原文：“{reason}”）"
        )
    return f"这是{_describe(arguments, output, tool)}：\n\n{output}"


def _describe(arguments: JSON, output: str | None = None, tool: str = "") -> str:
    """What the feedback holds, never more: with ``output``, how many lines came back and,
    when fewer than asked, that the file ended there. A call without a path (a tool that reads
    no file, e.g. the order desk's) is named by its tool, never called "该文件"."""
    args = _arguments_object(arguments)
    if args is None or not isinstance(args.get("path"), str):
        return f"{_source(tool)}返回的内容"
    path = f" {args['path']} "
    got = None if output is None else len(output.splitlines())
    for key, side in (("head", "前"), ("tail", "最后")):
        asked = args.get(key)
        if asked is None:
            continue
        if got is None:
            return f"{path}的{side} {asked} 行"
        if got == 0:
            return f"{path}：文件是空的，0 行（请求了{side} {asked} 行）"
        if isinstance(asked, int) and not isinstance(asked, bool) and got < asked:
            return f"{path}的全部 {got} 行（请求了{side} {asked} 行，文件到第 {got} 行就结束了）"
        return f"{path}的{side} {got} 行"
    return f"{path}的内容" if got is None else f"{path}的内容（共 {got} 行）"


def _source(tool: str) -> str:
    return f"工具 {tool} " if tool else "所调用的工具"


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
