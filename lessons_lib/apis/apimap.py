"""Where each part of the one call lives in each API, read from the recorded fixtures. Lesson 20.

``api_map()`` is the map table of lesson 20: for each part of the chain (declaration, rule,
call, arguments, pairing id, feedback, failure mark, answer) the path in the Responses,
Chat Completions and Anthropic Messages fixtures, with the kind the field tables give it
and the value found there, so every cell is looked up, not typed. ``api_side_by_side(name)``
lines up the leaf fields of the same message (``request_1`` ...) in the three APIs, kind by
kind. Both render as text and HTML.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Final

from lessons_lib.core.glossary import KINDS, Kind
from lessons_lib.core.htmltable import Cell, html_table, markup, soft_breaks
from lessons_lib.core.jsonvalue import JSON
from lessons_lib.core.messages import t
from lessons_lib.core.plugins.apiregistry import api_entry
from lessons_lib.views.changetable import abbreviate
from lessons_lib.views.textwidth import text_table

APIS: Final = ("responses", "chat", "anthropic")
TITLES: Final = {"responses": "Responses", "chat": "Chat Completions", "anthropic": "Anthropic Messages"}
# (part, fixture, path in Responses, in Chat, in Anthropic); None: the API has no such field.
# Each part is named by the catalogue entry ``apimap.part.<part>``.
PARTS: Final[tuple[tuple[str, str, str | None, str | None, str | None], ...]] = (
    ("tool_item", "request_1", "tools[0]", "tools[0].function", "tools[0]"),
    (
        "rule",
        "request_1",
        "tools[0].parameters",
        "tools[0].function.parameters",
        "tools[0].input_schema",
    ),
    (
        "alias",
        "response_1",
        "output[0].name",
        "choices[0].message.tool_calls[0].function.name",
        "content[0].name",
    ),
    (
        "arguments",
        "response_1",
        "output[0].arguments",
        "choices[0].message.tool_calls[0].function.arguments",
        "content[0].input",
    ),
    (
        "call_id",
        "response_1",
        "output[0].call_id",
        "choices[0].message.tool_calls[0].id",
        "content[0].id",
    ),
    ("result", "request_2", "input[2].output", "messages[2].content", "messages[2].content[0].content"),
    (
        "feedback_id",
        "request_2",
        "input[2].call_id",
        "messages[2].tool_call_id",
        "messages[2].content[0].tool_use_id",
    ),
    ("role", "request_2", None, "messages[2].role", "messages[2].role"),
    ("is_error", "request_2", None, None, "messages[2].content[0].is_error"),
    (
        "answer",
        "response_2",
        "output[0].content[0].text",
        "choices[0].message.content",
        "content[0].text",
    ),
)


def _sep() -> str:
    """The mark between a cell's parts (path, kind, value; or fields), shown in the text form."""
    return t("apimap.sep")


def _fixture(api: str, name: str) -> JSON:
    from lessons_lib.core.paths import DATA_DIR

    path = DATA_DIR / api_entry(api).fixtures / f"{name}.json"
    loaded: JSON = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def _cell(message: JSON, path: str | None) -> tuple[str, Kind | None]:
    if path is None:
        return t("apimap.no_field"), None
    from lessons_lib.core.fieldkinds.kinds import kind_of, nodes_along
    from lessons_lib.core.fieldpath import parse_path

    value = nodes_along(message, parse_path(path))[-1]
    kind = kind_of(message, path)
    if isinstance(value, dict):
        shown = "{" + ", ".join(value) + "}"  # every key whole: a cut key ("str") misleads
    else:
        shown = abbreviate(value, 34)
    return t("apimap.cell", path=path, kind=KINDS[kind].name, shown=shown), kind


@dataclass(frozen=True)
class ApiTable:
    """A table whose cells may carry a kind (coloured in HTML)."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[tuple[str, Kind | None], ...], ...]
    stacked: bool = False
    """One field per line in the text form (the side-by-side is too wide for columns)."""

    def text(self) -> str:
        if any(_sep() in c for row in self.rows for c, _ in row[1:]) and self.stacked:
            lines = [self.title]  # one field per line: the side-by-side is too wide for columns
            for row in self.rows:
                lines.append(t("apimap.field_head", name=row[0][0]))
                for head, (cell, _) in zip(self.header[1:], row[1:], strict=True):
                    lines += [t("apimap.column_head", head=head)] + [
                        f"    {item}" for item in cell.split(_sep())
                    ]
            return "\n".join(lines)
        return self.title + "\n" + text_table(self.header, [[c for c, _ in row] for row in self.rows])

    def __repr__(self) -> str:
        return f"ApiTable({self.title!r}, {len(self.rows)} rows)"

    def _repr_mimebundle_(
        self, include: object = None, exclude: object = None, **kw: object
    ) -> dict[str, str]:
        import html

        def td(cell: tuple[str, Kind | None]) -> Cell:
            # paths, aliases and JSON wrap after . , : / = _ so three APIs side by side fit the
            # 568 px output column of a 1,000 px JupyterLab window
            text, kind = cell
            style = f"border-left:4px solid {KINDS[kind].colour}" if kind else ""
            return markup("<br>".join(soft_breaks(part) for part in text.split(_sep())), style=style)

        table = html_table(
            self.header,
            [[td(c) for c in row] for row in self.rows],
            style="border-collapse:collapse;font-size:12px",
        )
        return {"text/plain": self.text(), "text/html": f"<p><b>{html.escape(self.title)}</b></p>{table}"}


def api_map() -> ApiTable:
    """Each part of the call, where it lives in each API's fixture: path｜kind｜value. Lesson 20."""
    rows = []
    for part, name, *paths in PARTS:
        cells = [_cell(_fixture(api, name), path) for api, path in zip(APIS, paths, strict=True)]
        rows.append(((t("apimap.part_row", part=t(f"apimap.part.{part}"), name=name), None), *cells))
    return ApiTable(t("apimap.map_title"), (t("apimap.head.part"), *(TITLES[a] for a in APIS)), tuple(rows))


def api_side_by_side(name: str = "request_1") -> ApiTable:
    """The leaf fields of the same message in the three APIs, grouped by kind. Lesson 20."""
    from lessons_lib.core.fieldkinds.kinds import walk
    from lessons_lib.core.fieldpath import format_path

    by_kind: dict[Kind, dict[str, list[str]]] = {k: {a: [] for a in APIS} for k in KINDS}
    for api in APIS:
        for f in walk(_fixture(api, name)):
            if f.path and (not isinstance(f.value, dict | list) or not f.value):
                # an empty list or object is shown as JSON ([] / {}), not as the string "[]"
                value = (
                    abbreviate(f.value, 24) if not isinstance(f.value, dict | list) else json.dumps(f.value)
                )
                by_kind[f.kind][api].append(f"{format_path(f.path)} = {value}")
    rows = []
    for kind, cols in by_kind.items():
        if any(cols.values()):
            none = t("apimap.none")
            rows.append(((KINDS[kind].name, kind), *((_sep().join(cols[a]) or none, kind) for a in APIS)))
    header = (t("apimap.head.kind"), *(TITLES[a] for a in APIS))
    return ApiTable(t("apimap.side_title", name=name), header, tuple(rows), stacked=True)
