"""The quick reference of lesson 10: the five key fields with real values, and the commands.

``quick_reference()`` reads the recorded messages in ``data/`` (never typed values) and lists,
for each point of the seed's section 10, the field, the file and path where it sits, its kind
(from ``lessons_lib.core.kinds``, the same tables the field trees use) and its value in this run.
``command_list()`` lists every ``python -m lessons_lib`` command with one example and the
lesson that introduces it. Both are plain data with text and HTML views. Introduced in lesson 10.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from lessons_lib.core.display import Displayable
from lessons_lib.core.glossary import KINDS
from lessons_lib.core.htmltable import Cell, CellValue, code, html_table, markup
from lessons_lib.core.jsonvalue import JSON
from lessons_lib.views.textwidth import shorten, text_table, width

_PREVIEW: Final = 56  # display columns of an example value
_TABLE_STYLE: Final = "font-size:13px;border-collapse:collapse"

# command -> (example arguments, what it shows, lesson that introduces it)
EXAMPLES: Final[dict[str, tuple[str, str, str]]] = {
    "serve": ("serve", "以 stdio 方式启动 read_text_file 服务，供任何 MCP 客户端连接", "04"),
    "run": ("run --head 5", "离线跑一遍完整链路，逐条讲出每一条消息", "03"),
    "record": ("record", "重新录制 data/ 里的报文、附件和 trace", "06"),
    "verify-fields": ("verify-fields", "核对字段片段的七条关系", "07"),
    "verify-roundtrip": ("verify-roundtrip", "核对两轮往返，并要求三种破坏都被拒绝", "07"),
    "verify-calls": (
        "verify-calls data/trace.json",
        "逐轮核对（多调用的）trace，要求每个 call_id 恰好回答一次",
        "31",
    ),
    "diagnose": ("diagnose data/trace.json", "按排查顺序指出第一个断开的环节", "08"),
    "tree": ("tree response_1 --highlight output[0].arguments", "把一份报文画成字段树", "03"),
    "diagram": ("diagram loop", "输出闭环图的 DOT 文本（加 -o 名称 写成 SVG）", "01"),
    "whatif": ("whatif --head 20 --vs 5 --changed", "对照两次运行，只列出改变的字段", "09"),
    "grade": (
        "grade notebooks/11_write_the_loop.ipynb --cells solution",
        "给应用循环评分（这里评第 11 课的参考答案；换成你的 .py 或笔记本）",
        "11",
    ),
    "grade-server": (
        "grade-server lessons_lib/engine/notes_server.py",
        "给一个 search_notes MCP 服务评分（这里评课程的参考服务；换成你的 .py）",
        "12",
    ),
    "mcp-revisions": (
        "mcp-revisions --head 5",
        "同一次 tools/call 走三个 MCP 修订版，逐帧按官方 schema 校验",
        "43",
    ),
    "mcp-structure": ("mcp-structure --lines 5", "一个服务上的工具、资源和提示，进入模型前标明来源", "42"),
    "openapi": ("openapi tools --report", "从 OpenAPI 文档生成工具声明，并列出严格模式表达不了的部分", "41"),
    "tool-replay": (
        "tool-replay --version orders@1",
        "把第 30-33 课录下的任务对另一个工具版本回放（换成 orders@2 看变化）",
        "50",
    ),
    "tool-catalogue": ("tool-catalogue --size 50", "50 个工具的声明有多大，以及几种少送办法的选择结果", "51"),
    "injection": ("injection --defence all", "工具输出里的指令：打开防御后注入的写操作不会发生", "52"),
    "trust": ("trust", "信任课程笔记本保存的输出，打开时图不必先运行就能显示", "00"),
    "refresh": ("refresh", "（维护者）重新运行全部笔记本并保存输出", "00"),
    "edition": ("edition en status", "（维护者）列出英文版缺少或过期的译文；build 生成 notebooks/en/", "00"),
}
"""One example per command of ``lessons_lib.core.commands.COMMANDS`` (a test keeps the two in step)."""


def preview(value: JSON) -> str:
    """A value as one short line of JSON; long text keeps its start and says how many lines it has."""
    text = json.dumps(value, ensure_ascii=False)
    if width(text) <= _PREVIEW:
        return text
    lines = value.count("\n") + 1 if isinstance(value, str) else 0
    tail = f"（共 {lines} 行）" if lines > 1 else ""
    return shorten(text, _PREVIEW) + tail


def _table_text(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    return text_table(headers, [[str(c) for c in row] for row in rows])[:-1]


def _kind_cell(kind: str) -> str:
    style = KINDS[kind]  # type: ignore[index]
    return (
        f'<span style="border-left:4px solid {style.colour};padding-left:.35em;white-space:nowrap">'
        f"{html.escape(style.zh.split('（')[0])}</span>"
    )


# ------------------------------------------------------------------ the five points
@dataclass(frozen=True)
class RefRow:
    """One field of the quick reference: which point, where it sits, its kind and its value."""

    point: str
    field: str
    where: str
    path: str
    kind: str
    value: JSON


@dataclass(frozen=True, repr=False)
class QuickReference(Displayable):
    """The five points of section 10 as rows of real fields (see :func:`quick_reference`)."""

    rows: tuple[RefRow, ...]

    HEADERS: ClassVar[tuple[str, ...]] = ("要点", "字段", "所在报文", "路径", "种类", "本例的值")

    def _cells(self, r: RefRow) -> list[str]:
        return [r.point, r.field, r.where, r.path, KINDS[r.kind].zh.split("（")[0], preview(r.value)]  # type: ignore[index]

    def text(self) -> str:
        return "技术速查：五个要点（值取自录制的报文）\n" + _table_text(
            self.HEADERS, [self._cells(r) for r in self.rows]
        )

    def html(self) -> str:
        body: list[list[CellValue]] = []
        for r in self.rows:
            point, field, where, path, _, value = self._cells(r)
            kind = markup(_kind_cell(r.kind), nowrap=True)
            body.append([point, code(field), where, code(path), kind, code(value, nowrap=False)])
        table = html_table(self.HEADERS, body, style=_TABLE_STYLE)
        title = "<p><b>技术速查：五个要点</b>（值取自录制的报文）</p>"
        return f'<div class="lessons-cheatsheet">{title}{table}</div>'

    def repr_args(self) -> str:
        return f"rows={len(self.rows)}"


def _get(message: Any, path: str) -> JSON:
    from lessons_lib.core.fieldpath import parse_path

    node = message
    for step in parse_path(path):
        node = node[step]
    return node


def _index(items: list[JSON], item_type: str) -> int:
    return next(i for i, item in enumerate(items) if isinstance(item, dict) and item.get("type") == item_type)


def quick_reference() -> QuickReference:
    """The five points of section 10 with the values of the recorded run (``data/``). Lesson 10."""
    from lessons_lib.core.kinds import kind_of
    from lessons_lib.core.trace import Trace
    from lessons_lib.course.record import load_fixture

    try:
        trace = Trace.from_dict(load_fixture("trace.json"))
        msgs = {
            name: load_fixture(f"{name}.json")
            for name in ("request_1", "response_1", "request_2", "mcp_request", "mcp_response")
        }
    except (OSError, ValueError) as exc:
        raise ValueError(
            f"cannot read the recorded messages ({exc}); run: python -m lessons_lib record"
        ) from None
    msgs["tools/list"] = trace.mcp_pair("tools/list")[1] or {}
    call = _index(msgs["response_1"]["output"], "function_call")
    back = _index(msgs["request_2"]["input"], "function_call_output")
    rule, value, result, ids = (
        "怎么填写的规则",
        "本次值（JSON 文本）",
        "执行后的反馈（保留成败）",
        "各自配对，由应用关联",
    )
    spec = (
        (
            rule,
            "inputSchema",
            "tools/list 响应（trace.json）",
            "result.tools[0].inputSchema.properties.head.type",
        ),
        (rule, "parameters", "request_1.json", "tools[0].parameters.properties.head.type"),
        (value, "arguments", "response_1.json", f"output[{call}].arguments"),
        ("解析后的参数对象", "params.arguments", "mcp_request.json", "params.arguments"),
        (result, "content", "mcp_response.json", "result.content[0].text"),
        (result, "isError", "mcp_response.json", "result.isError"),
        (result, "output", "request_2.json", f"input[{back}].output"),
        (ids, "id（MCP）", "mcp_request.json", "id"),
        (ids, "id（MCP）", "mcp_response.json", "id"),
        (ids, "call_id", "response_1.json", f"output[{call}].call_id"),
        (ids, "call_id", "request_2.json", f"input[{back}].call_id"),
    )
    rows = []
    for point, field, where, path in spec:
        name = "tools/list" if where.startswith("tools/list") else where.removesuffix(".json")
        message = msgs[name]
        rows.append(RefRow(point, field, where, path, kind_of(message, path), _get(message, path)))
    return QuickReference(tuple(rows))


# ------------------------------------------------------------------ the commands
@dataclass(frozen=True, repr=False)
class CommandList(Displayable):
    """Every ``python -m lessons_lib`` command with an example (see :func:`command_list`)."""

    rows: tuple[tuple[str, str, str, str], ...]  # (command, example, what it shows, lesson)

    HEADERS: ClassVar[tuple[str, ...]] = ("命令", "示例", "作用", "课")

    def text(self) -> str:
        rows = [
            (name, f"python -m lessons_lib {example}", what, lesson)
            for name, example, what, lesson in self.rows
        ]
        return "命令行速查\n" + _table_text(self.HEADERS, rows)

    def html(self) -> str:
        body = [
            (code(name), code(f"python -m lessons_lib {example}"), what, Cell(lesson, nowrap=True))
            for name, example, what, lesson in self.rows
        ]
        table = html_table(self.HEADERS, body, style=_TABLE_STYLE)
        return f'<div class="lessons-commands"><p><b>命令行速查</b></p>{table}</div>'

    def repr_args(self) -> str:
        return str([r[0] for r in self.rows])


def command_list() -> CommandList:
    """The CLI commands in the dispatcher's order, each with an example and its lesson. Lesson 10."""
    from lessons_lib.core.commands import COMMANDS

    return CommandList(tuple((name, *EXAMPLES[name]) for name in COMMANDS if name in EXAMPLES))
