"""The quick reference of lesson 10: the five key fields with real values, and the commands.

``quick_reference()`` reads the recorded messages in ``data/`` (never typed values) and lists,
for each point of the source lesson's quick-reference list, the field, the file and path where
it sits, its kind (from ``lessons_lib.core.fieldkinds.kinds``, the same tables the field trees
use) and its value in this run.
``command_list()`` lists every ``python -m lessons_lib`` command with one example and the
lesson that introduces it, from the command table (the kernel's rows and each example's, from its
entry). Both are plain data with text and HTML views. Introduced in lesson 10.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from lessons_lib.core.display import Displayable
from lessons_lib.core.glossary import KINDS, kind_short
from lessons_lib.core.htmltable import Cell, CellValue, code, html_table, markup
from lessons_lib.core.jsonvalue import JSON
from lessons_lib.core.messages import catalogue, t
from lessons_lib.views.textwidth import shorten, text_table, width

if TYPE_CHECKING:
    from lessons_lib.core.plugins.exampleregistry import Command

_PREVIEW: Final = 56  # display columns of an example value
_TABLE_STYLE: Final = "font-size:13px;border-collapse:collapse"


def preview(value: JSON) -> str:
    """A value as one short line of JSON; long text keeps its start and says how many lines it has."""
    text = json.dumps(value, ensure_ascii=False)
    if width(text) <= _PREVIEW:
        return text
    lines = value.count("\n") + 1 if isinstance(value, str) else 0
    tail = t("cheatsheet.lines", n=lines) if lines > 1 else ""
    return shorten(text, _PREVIEW) + tail


def _table_text(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    return text_table(headers, [[str(c) for c in row] for row in rows])[:-1]


def _kind_cell(kind: str) -> str:
    style = KINDS[kind]  # type: ignore[index]
    return (
        f'<span style="border-left:4px solid {style.colour};padding-left:.35em;white-space:nowrap">'
        f"{html.escape(kind_short(style.kind))}</span>"
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

    @property
    def HEADERS(self) -> tuple[str, ...]:  # noqa: N802 (was a class constant; now in the current language)
        return tuple(t(f"cheatsheet.h.{h}") for h in ("point", "field", "where", "path", "kind", "value"))

    def _cells(self, r: RefRow) -> list[str]:
        return [r.point, r.field, r.where, r.path, kind_short(r.kind), preview(r.value)]  # type: ignore[arg-type]

    def text(self) -> str:
        return t("cheatsheet.title") + "\n" + _table_text(self.HEADERS, [self._cells(r) for r in self.rows])

    def html(self) -> str:
        body: list[list[CellValue]] = []
        for r in self.rows:
            point, field, where, path, _, value = self._cells(r)
            kind = markup(_kind_cell(r.kind), nowrap=True)
            body.append([point, code(field), where, code(path), kind, code(value, nowrap=False)])
        table = html_table(self.HEADERS, body, style=_TABLE_STYLE)
        title = f"<p>{t('cheatsheet.title_html')}</p>"
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
    from lessons_lib.core.fieldkinds.kinds import kind_of
    from lessons_lib.core.traces.trace import Trace
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
    rule, value, result, ids = (t(f"cheatsheet.{p}") for p in ("rule", "value", "result", "ids"))
    spec = (
        (
            rule,
            "inputSchema",
            t("cheatsheet.tools_list"),
            "result.tools[0].inputSchema.properties.head.type",
        ),
        (rule, "parameters", "request_1.json", "tools[0].parameters.properties.head.type"),
        (value, "arguments", "response_1.json", f"output[{call}].arguments"),
        (t("cheatsheet.parsed"), "params.arguments", "mcp_request.json", "params.arguments"),
        (result, "content", "mcp_response.json", "result.content[0].text"),
        (result, "isError", "mcp_response.json", "result.isError"),
        (result, "output", "request_2.json", f"input[{back}].output"),
        (ids, t("cheatsheet.mcp_id"), "mcp_request.json", "id"),
        (ids, t("cheatsheet.mcp_id"), "mcp_response.json", "id"),
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

    @property
    def HEADERS(self) -> tuple[str, ...]:  # noqa: N802 (was a class constant; now in the current language)
        return tuple(t(f"cheatsheet.h.{h}") for h in ("command", "example", "what", "lesson"))

    def text(self) -> str:
        rows = [
            (name, f"python -m lessons_lib {example}", what, lesson)
            for name, example, what, lesson in self.rows
        ]
        return t("cheatsheet.commands") + "\n" + _table_text(self.HEADERS, rows)

    def html(self) -> str:
        body = [
            (code(name), code(f"python -m lessons_lib {example}"), what, Cell(lesson, nowrap=True))
            for name, example, what, lesson in self.rows
        ]
        table = html_table(self.HEADERS, body, style=_TABLE_STYLE)
        return f'<div class="lessons-commands"><p><b>{t("cheatsheet.commands")}</b></p>{table}</div>'

    def repr_args(self) -> str:
        return str([r[0] for r in self.rows])


def command_list() -> CommandList:
    """The CLI commands in the dispatcher's order, each with an example and its lesson. Lesson 10."""
    from lessons_lib.core.plugins.commands import command_table

    return CommandList(tuple((c.name, c.example, _what(c), c.lesson) for c in command_table().values()))


def _what(command: Command) -> str:
    """What a command shows, in the current language (a command not on the catalogue: its own words)."""
    key = f"cheatsheet.cmd.{command.name}"
    return t(key) if key in catalogue() else command.what or command.help
