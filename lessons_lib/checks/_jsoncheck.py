"""Small JSON helpers shared by the verifiers and the doctor (lessons 07-08). Standard library only.

A check raises ``Fail`` with the sentence printed after FAIL; the helpers here turn a wrong
shape into such a sentence (``obj``, ``text_of``, ``list_of``), compare JSON values strictly
(``same``, ``diff_path``) and read a JSON file without ever raising anything but ``Fail``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


class Fail(Exception):
    """A check's failure: the message is the reason printed after FAIL."""


def need(condition: object, reason: str) -> None:
    if not condition:
        raise Fail(reason)


def json_kind(value: Any) -> str:
    """The JSON name of a value's type, in Chinese, for reasons."""
    if value is None:
        return "null（或缺失）"
    if isinstance(value, bool):
        return "布尔值"
    names = ((str, "文本"), ((int, float), "数字"), (list, "数组"), (dict, "对象"))
    return next((name for types, name in names if isinstance(value, types)), type(value).__name__)


def show(value: Any, limit: int = 60) -> str:
    """A short JSON spelling of a value for a reason line."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def obj(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Fail(f"{where} 应当是 JSON 对象，实际是{json_kind(value)}")
    return value


def text_of(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise Fail(f"{where} 应当是文本，实际是{json_kind(value)}")
    return value


def list_of(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise Fail(f"{where} 应当是数组，实际是{json_kind(value)}")
    return value


def same(a: Any, b: Any) -> bool:
    """Strict JSON equality: 20, 20.0, "20" and true are four different values."""
    return diff_path(a, b) is None


def diff_path(a: Any, b: Any, path: str = "") -> str | None:
    """The first path where two JSON values differ, or None if they are the same."""
    if type(a) is not type(b):
        return path or "（整体）"
    if isinstance(a, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{path}.{key}"
            found = diff_path(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list):
        for n, (x, y) in enumerate(zip(a, b, strict=False)):
            found = diff_path(x, y, f"{path}[{n}]")
            if found:
                return found
        return None if len(a) == len(b) else f"{path}[{min(len(a), len(b))}]"
    return None if a == b else (path or "（整体）")


def first_text_diff(expected: str, actual: str) -> str:
    """Where two texts start to differ, with a short quote of each from there."""
    n = next(
        (i for i, (a, b) in enumerate(zip(expected, actual, strict=False)) if a != b),
        min(len(expected), len(actual)),
    )
    want, got = show(expected[n : n + 16]), show(actual[n : n + 16])
    return f"从第 {n + 1} 个字符起不同，服务返回 {want}，反馈里是 {got}"


def short(path: Any) -> str:
    """A file's name only: reports never print a machine's absolute path."""
    return Path(str(path)).name


def load_json(path: Any) -> Any:
    """Read a JSON file; any problem becomes one Fail sentence saying what to do."""
    p = Path(str(path))
    try:
        raw = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise Fail(f"找不到文件 {p}：请检查路径，或先运行 python -m lessons_lib record 生成附件") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise Fail(f"无法读取 {p}（{type(exc).__name__}）：请给出一个 UTF-8 编码的 JSON 文件") from None
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, RecursionError) as exc:
        where = (
            f"第 {exc.lineno} 行第 {exc.colno} 列：{exc.msg}"
            if isinstance(exc, json.JSONDecodeError)
            else "嵌套过深"
        )
        raise Fail(f"{p} 不是合法的 JSON（{where}）：请修正后再运行") from None
