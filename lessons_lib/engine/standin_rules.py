"""Rules the three offline stand-ins share: which tools to call, with what, and how to answer.

Introduced in lesson 20. The Responses stand-in (``offline_model``), the Chat Completions one
(``offline_chat``) and the Anthropic Messages one (``offline_anthropic``) are the same
deterministic rule program wrapped three ways: the same task text gives the same tool choice,
the same arguments and the same answer sentence, so the lessons can show that only the
wrapping differs. None of them is a language model.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import httpx2

from lessons_lib.core.example import ALIAS_SEPARATOR
from lessons_lib.core.jsonvalue import JSON, JSONObject
from lessons_lib.engine.offline_model import Script, _arguments_from, feedback_paragraph

NO_TOOL_TEXT = "这一轮没有调用工具（tool_choice 不允许调用），所以文件内容没有被读取，我不能编造它。"
NO_TOOLS_DECLARED = "没有可用的工具，无法读取文件。"
NO_FILE_TEXT = (
    "这个请求里没有要读取的 /workspace 路径，不需要调用工具："
    "我可以按工作区路径读取文本文件，例如前 N 行或最后 N 行。"
)


def needs_a_file(task: str) -> bool:
    """Under ``tool_choice: auto`` the stand-in calls a tool only when the task names a /workspace path."""
    return "/workspace" in task


def chosen_tools(aliases: Sequence[str], task: str, script: Script, forced: str | None = None) -> list[str]:
    """The aliases the stand-in calls: the forced one, the script's, those named in the task, or the first."""
    if forced is not None:
        return [forced] if forced in aliases else []
    if script.tool is not None:
        return [script.tool]
    named = [a for a in aliases if a.split(ALIAS_SEPARATOR)[0] and a.split(ALIAS_SEPARATOR)[0] in task]
    return named or list(aliases[:1])


def arguments_text(task: str, script: Script) -> str:
    """The ``arguments`` JSON text: the script's, or what the task text asks for."""
    return script.arguments if script.arguments is not None else _arguments_from(task)


def arguments_object(task: str, script: Script) -> JSONObject:
    """The same arguments as an object (Anthropic's ``input``); text that is no object gives ``{}``."""
    try:
        value = json.loads(arguments_text(task, script))
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def answer_part(arguments: JSON, output: str, tool: str = "") -> str:
    """One paragraph of the answer for one call's feedback (its arguments as text or object)."""
    text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return feedback_paragraph(text, output, tool)


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
