"""Bad values, and which layer stops each one (lesson 09).

Every entry of ``BAD_VALUES`` is run for real: the offline stand-in emits exactly the bad
``arguments`` text (or calls the bad tool name), the application parses and routes it, the MCP
server checks it. The layer is read from the trace, never declared: no MCP request means the
application stopped it; a JSON-RPC ``error`` means the protocol did; ``isError`` means the
service did (its input check, or its file access check). With ``strict: false`` the Responses
API does not enforce ``parameters``; the schema column shows what a ``jsonschema`` check of the
same value against the declared ``parameters`` would say.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Final

from lessons_lib.core.display import Displayable
from lessons_lib.core.example import ALIAS, EXAMPLE_HEAD, EXAMPLE_PATH, FAILURE_PREFIX, OUTSIDE_PATH
from lessons_lib.core.glossary import Status
from lessons_lib.core.htmltable import Cell, CellValue, code, html_table, status
from lessons_lib.core.messages import language, t, zh
from lessons_lib.core.traces import queries as q
from lessons_lib.core.traces.trace import Trace
from lessons_lib.engine.standins.rules import Script
from lessons_lib.examples.files.verifiers import (
    NamedReport,
    report_line,
    schema_check_result,
    schema_result,
    verifiers,
)
from lessons_lib.services.files.service import INPUT_SCHEMA
from lessons_lib.views.textwidth import PROSE_COLUMNS, wrapped

if TYPE_CHECKING:
    import pandas as pd

LAYERS: Final[dict[str, str]] = {
    layer: zh(f"badvalues.layer.{layer}")
    for layer in ("schema", "parse", "route", "protocol", "input", "access", "none")
}
"""Each layer's Chinese name; :func:`layer_name` gives it in the current language."""
COLUMNS: Final = tuple(zh(f"badvalues.col.{c}") for c in ("value", "schema", "layer", "feedback", "verifier"))


def layer_name(layer: str) -> str:
    """A layer's name in the current language (``服务：输入检查`` / ``service: input check``)."""
    return t(f"badvalues.layer.{layer}")


def columns() -> tuple[str, ...]:
    """The table's headings in the current language."""
    return tuple(t(f"badvalues.col.{c}") for c in ("value", "schema", "layer", "feedback", "verifier"))


_INPUT_REFUSALS: Final = ("Invalid arguments", "Cannot specify both")


def _args(**values: int | str) -> str:
    return json.dumps({"path": EXAMPLE_PATH, **values}, ensure_ascii=False)


@dataclass(frozen=True)
class BadValue:
    """One bad move: the model's exact ``arguments`` text, or a bad tool name on either side."""

    name: str
    arguments: str | None = None
    tool: str | None = None  # the alias the model calls
    service_tool: str | None = None  # the original name the application sends over MCP (a stale mapping)

    @property
    def label(self) -> str:
        """The bad value in words, in the current language."""
        return t(f"badvalues.bad.{self.name}", outside=OUTSIDE_PATH)


BAD_VALUES: Final[dict[str, BadValue]] = {
    b.name: b
    for b in (
        BadValue("head_text", _args(head="five")),
        BadValue("head_negative", _args(head=-1)),
        BadValue("head_zero", _args(head=0)),
        BadValue("head_and_tail", _args(head=5, tail=5)),
        BadValue("unknown_alias", tool="fs__nope"),
        BadValue("unknown_mcp_tool", service_tool="nope"),
        BadValue("invalid_json", _args(head=EXAMPLE_HEAD)[:-1]),
        BadValue("outside_path", json.dumps({"path": OUTSIDE_PATH, "head": 20})),
    )
}


@dataclass(repr=False)
class BadValueResult(Displayable):
    """One bad value's run: which layer stopped it and what the model received as feedback."""

    bad: BadValue
    trace: Trace
    arguments: str
    schema: str
    layer: str
    feedback: str
    reports: list[NamedReport]
    schema_status: Status = "unchecked"
    """The schema check's verdict (``pass``/``fail``, ``unchecked`` when nothing could be checked)."""

    @property
    def file_read(self) -> bool:
        return any(q.reply_is_error(x.reply) is False for x in q.mcp_exchanges(self.trace))

    def cells(self) -> list[str]:
        judged = t("badvalues.sep").join(
            t("badvalues.verdict", name=n, verdict=report_line(r)) for n, r in self.reports[:1]
        ) or t("badvalues.no_verifier")
        return [self.bad.label, self.schema, layer_name(self.layer), self.feedback, judged]

    def text(self) -> str:
        rows = zip(columns(), self.cells(), strict=True)
        return "\n".join(t("badvalues.verdict", name=h, verdict=c) for h, c in rows) + "\n"

    def html_cells(self) -> list[CellValue]:
        """The row's cells with the two verdicts (schema check, verifier) in the status colours."""
        judged: Status = "unchecked" if not self.reports else "pass" if self.reports[0][1].ok else "fail"
        label, _, layer, feedback, verdict = self.cells()
        return [
            label,
            status(self.schema_status, self.schema, nowrap=False),
            layer,
            code(feedback, nowrap=False),
            status(judged, verdict, nowrap=False),
        ]

    def html(self) -> str:
        cells = zip(columns(), self.html_cells(), strict=True)
        rows = [[Cell(h, nowrap=True, style="font-weight:bold"), c] for h, c in cells]
        return html_table((t("badvalues.item"), t("badvalues.result")), rows, css_class="lessons-badvalue")

    def repr_args(self) -> str:
        return f"{self.bad.name!r}, layer={self.layer!r}"


def stopping_layer(trace: Trace, call_id: str, feedback: str) -> str:
    """Which layer stopped the call, read from the trace (see the module docstring)."""
    if not feedback.startswith(FAILURE_PREFIX):
        return "none"
    record = q.call_record(trace, call_id)
    if record is None or record.get("mcp_id") is None:
        return "route" if record is None or record.get("service") is None else "parse"
    exchange = q.exchange_for(trace, call_id)
    reply = exchange.reply if exchange else None
    if reply is None or "error" in reply:
        return "protocol"
    return "input" if q.reply_text(reply).startswith(_INPUT_REFUSALS) else "access"


def run_bad_value(name: str) -> BadValueResult:
    """Run one bad value through the real chain and report the layer that stops it (lesson 09)."""
    if name not in BAD_VALUES:
        raise ValueError(f"unknown bad value {name!r}; choose one of: {', '.join(BAD_VALUES)}")
    return _run_bad_value(name, language())


@cache
def _run_bad_value(name: str, lang: str) -> BadValueResult:
    """One run per bad value and language (``lang`` keys the cache: the answer is in that language)."""
    bad = BAD_VALUES[name]
    from lessons_lib.engine.host import run_chain

    stale = {ALIAS: bad.service_tool} if bad.service_tool is not None else None
    trace = run_chain(script=Script(arguments=bad.arguments, tool=bad.tool), stale_routes=stale)
    call = q.calls(trace, 1)[0]
    call_id, arguments = str(call.call_id), str(call.arguments)
    found = q.feedback_for_call(trace, call_id)
    feedback = (found.text() if found else None) or ""
    reports = verifiers(trace)
    schema_status, schema = (
        schema_check_result(trace, bad.tool or ALIAS, arguments)
        if bad.service_tool is None
        else schema_result(INPUT_SCHEMA, arguments)
    )
    layer = stopping_layer(trace, call_id, feedback)
    return BadValueResult(bad, trace, arguments, schema, layer, feedback, reports, schema_status)


class BadValueTable(Displayable):
    """One row per bad value: value, schema check, the layer that stops it, the feedback (lesson 09)."""

    def __init__(self, results: list[BadValueResult]) -> None:
        self.results = results

    @property
    def HEADERS(self) -> tuple[str, ...]:  # noqa: N802 (was a class constant; now in the current language)
        return columns()

    @property
    def NOTE(self) -> str:  # noqa: N802
        return t("badvalues.note")

    @property
    def df(self) -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(
            [r.cells() for r in self.results],
            columns=list(self.HEADERS),
            index=[r.bad.name for r in self.results],
        )

    def layer_of(self, name: str) -> str:
        return next(r.layer for r in self.results if r.bad.name == name)

    def text(self) -> str:
        """One block per bad value, every cell whole and wrapped at 100 columns (never cut mid-word)."""
        lines = [t("badvalues.title"), wrapped(self.NOTE)]
        for r in self.results:
            label, *rest = r.cells()
            lines += ["", f"■ {label}"]
            for head, cell in zip(self.HEADERS[1:], rest, strict=True):
                lines += [
                    "  " + line
                    for line in wrapped(
                        t("badvalues.verdict", name=head, verdict=cell), PROSE_COLUMNS - 2
                    ).split("\n")
                ]
        return "\n".join(lines)

    def html(self) -> str:
        rows = [r.html_cells() for r in self.results]
        table = html_table(self.HEADERS, rows, style="font-size:13px;border-collapse:collapse")
        return (
            f'<div class="lessons-badvalues"><p><b>{t("badvalues.title")}</b></p>'
            f"<p>{html.escape(self.NOTE)}</p>{table}</div>"
        )

    def repr_args(self) -> str:
        return f"rows={len(self.results)}"


def bad_values_table() -> BadValueTable:
    """Run every entry of ``BAD_VALUES`` and tabulate which layer stops it (lesson 09)."""
    return BadValueTable([run_bad_value(name) for name in BAD_VALUES])
