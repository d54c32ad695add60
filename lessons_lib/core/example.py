"""The fixed example values every lesson uses: the task, the file, the tool, its alias. Lesson 01."""

from __future__ import annotations

import json
import re
from typing import Final

MODEL_NAME: Final = "gpt-4.1"
"""The model name written into requests; the offline stand-in answers to any name."""

EXAMPLE_PATH: Final = "/workspace/notes.txt"
EXAMPLE_HEAD: Final = 20
SERVICE_NAME: Final = "fs"
TOOL_NAME: Final = "read_text_file"
ALIAS_SEPARATOR: Final = "__"
"""Between the service and the tool name in a model-side alias (lesson 06)."""
ALIAS: Final = f"{SERVICE_NAME}{ALIAS_SEPARATOR}{TOOL_NAME}"
"""The example tool's alias on the model side: ``fs__read_text_file``."""
FAILURE_PREFIX: Final = "ERROR: "
"""How the application marks a failed call in ``function_call_output.output`` (lesson 05)."""


def check_lines(head: object, tail: object) -> None:
    """The one check of ``head``/``tail`` before a run: each None or a whole number (lesson 03).

    The *values* are the service's business (``head=-3`` is sent and refused there, lesson
    09); this only refuses what cannot be written into the task text, with a one-line
    ``ValueError``.
    """
    for name, value in (("head", head), ("tail", tail)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError(f"{name} must be a whole number of lines or None, got {value!r}")


_PLAIN_PATH = re.compile(r"/workspace[^\s，。、；：！？,;!?\"'“”]*")
"""A path that reads unambiguously inside a sentence; any other is written as a JSON string."""


def task_text(path: str = EXAMPLE_PATH, head: int | None = EXAMPLE_HEAD, tail: int | None = None) -> str:
    """The user's request in Chinese, e.g. '请读取 /workspace/notes.txt 的前 20 行。'.

    A path with spaces, quotes or punctuation, or outside ``/workspace``, is quoted as a JSON
    string (``请读取 "/workspace/a b.txt" 的前 20 行。``) so that it travels unchanged.
    """
    if not _PLAIN_PATH.fullmatch(path):
        path = json.dumps(path, ensure_ascii=False)
    if head is not None and tail is not None:
        return f"请读取 {path} 的前 {head} 行和最后 {tail} 行。"
    if head is not None:
        return f"请读取 {path} 的前 {head} 行。"
    if tail is not None:
        return f"请读取 {path} 的最后 {tail} 行。"
    return f"请读取 {path} 的全部内容。"


TASK: Final = task_text()

OUTSIDE_PATH: Final = "/workspace/../etc/passwd"
"""A path that leaves the root: the service refuses it (lessons 05, 09)."""
MISSING_PATH: Final = "/workspace/missing.txt"
"""A path inside the root that does not exist (lesson 09)."""
