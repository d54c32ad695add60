"""Seed 001's acceptance matrix for the order desk, the rejecting side drawn from the schemas. Lesson 30.

The rows are seed 001's cases that one desk can run (valid input, missing field, extra field,
over-long result, paging, permission revoked) plus values outside the rules and SQL in an id;
the seed's 服务升级 needs two versions of the desk and is lesson 50's replay. The values that
must be refused are not written by hand: :func:`rejecting_values` asks ``hypothesis-jsonschema``
for a value that violates each property's own schema (``{"not": <property schema>}``), and the smallest such
value is taken (``hypothesis.find``, derandomised), so the matrix is the same on every run.
``hypothesis-jsonschema`` 0.23 cannot build whole objects with this Hypothesis (its object
strategy fails), so objects are assembled here from one generated value per property.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Final

import lessons_lib.services.orders.data as od
from lessons_lib.core.display import Displayable
from lessons_lib.core.htmltable import Cell, CellValue, breakable_code, html_table, markup, soft_breaks
from lessons_lib.core.jsonvalue import JSON, JSONObject, get_in, objects
from lessons_lib.core.messages import t
from lessons_lib.services.orders.wiretext import VALID_NOTE

if TYPE_CHECKING:
    from hypothesis import settings

VALID: Final[dict[str, JSONObject]] = {
    "get_order": {"order_id": "O-1042"},
    "track_shipment": {"waybill_no": "WB-77042"},
    "search_delivery_policy": {"topic": "delay", "region": "north"},
    "create_investigation": {
        "order_id": "O-1042",
        "reason": "delayed",
        "note": VALID_NOTE,
        "idempotency_key": "inv-O-1042-delayed",
    },
}
"""One accepted call per tool: the valid row of the matrix, and the base the others change."""


def _settings() -> settings:
    from hypothesis import HealthCheck, Phase, settings

    # No explain phase: it only words a failure report after shrinking, so ``find`` returns the
    # same value without it, in about half the CPU time (lesson 30's matrix: 10.6 s -> 4.8 s).
    return settings(
        database=None,
        derandomize=True,
        max_examples=300,
        suppress_health_check=list(HealthCheck),
        phases=[phase for phase in Phase if phase is not Phase.explain],
    )


def violating(schema: JSON, condition: Callable[[JSON], bool] = lambda v: True) -> JSON:
    """The smallest value that breaks ``schema`` (and meets ``condition``), by hypothesis-jsonschema."""
    return _find({"not": schema}, condition)


def _find(schema: JSONObject, condition: Callable[[JSON], bool] = lambda v: True) -> JSON:
    from hypothesis import find
    from hypothesis_jsonschema import from_schema

    return find(from_schema(schema), condition, settings=_settings())


def near_miss(prop: JSON) -> JSON:
    """A value of the property's own type that breaks its other keywords (cached per schema)."""
    return _near_miss(json.dumps(prop, sort_keys=True))


@functools.lru_cache(maxsize=64)
def _near_miss(prop_text: str) -> JSON:
    """A value of the property's own JSON type that breaks its other keywords, else any violation.

    ``{"type": T, "not": {pattern/enum/minimum...}}`` is built from the property's schema, so a
    string stays a string (``order_id`` gets a string outside the pattern, ``page_size`` a
    number past its bounds); with no other keyword, only a wrong type can break it.
    """
    from hypothesis.errors import NoSuchExample

    prop = json.loads(prop_text)
    rules = {k: v for k, v in prop.items() if k not in ("type", "description", "title")}
    if "type" in prop and rules:
        conditions: list[Callable[[JSON], bool]] = [
            lambda v: not isinstance(v, str) or 1 <= len(v) <= 12,
            lambda v: True,
        ]
        for condition in conditions:
            try:
                return _find({"type": prop["type"], "not": rules}, condition)
            except NoSuchExample:
                continue
    return violating(prop)


def rejecting_values(input_schema: JSONObject) -> JSONObject:
    """For each property, one value its own schema refuses (lesson 30)."""
    return {name: near_miss(prop) for name, prop in _properties(input_schema).items()}


def _properties(schema: JSONObject) -> JSONObject:
    found = schema.get("properties", {})
    return found if isinstance(found, dict) else {}


@dataclass(frozen=True)
class Case:
    """One row: which case of seed 001, which call, what must happen, what happened."""

    case: str
    tool: str
    arguments: JSONObject
    expect: str
    got: str
    message: str

    @property
    def holds(self) -> bool:
        return self.got == self.expect or (self.expect == "refused" and self.got not in ("ok", "created"))


@dataclass(frozen=True, repr=False)
class AcceptanceMatrix(Displayable):
    """The matrix (lesson 30) and whether the database is byte-for-byte what it was."""

    cases: tuple[Case, ...]
    unchanged: bool

    HEADER_KEYS: ClassVar[tuple[str, ...]] = tuple(
        f"orders_acceptance.head.{k}" for k in ("case", "tool", "arguments", "expect", "got", "message")
    )

    @property
    def headers(self) -> tuple[str, ...]:
        """The column headings in the current language."""
        return tuple(t(k) for k in self.HEADER_KEYS)

    @property
    def ok(self) -> bool:
        return self.unchanged and all(c.holds for c in self.cases)

    def _rows(self) -> list[tuple[str, ...]]:
        want = {"refused": t("orders_acceptance.refused"), "ok": t("orders_acceptance.accepted")}
        return [
            (
                c.case,
                c.tool,
                json.dumps(c.arguments, ensure_ascii=False),
                want.get(c.expect, c.expect),
                c.got,
                c.message,
            )
            for c in self.cases
        ]

    def text(self) -> str:
        lines = [" | ".join(self.headers)] + [" | ".join(r) for r in self._rows()]
        lines.append(t("orders_acceptance.unchanged", unchanged=self.unchanged))
        return "\n".join(lines)

    def repr_args(self) -> str:
        return f"{len(self.cases)} cases, ok={self.ok}"

    def html(self) -> str:
        rows: list[list[CellValue]] = []
        for case, row in zip(self.cases, self._rows(), strict=True):
            name, tool, arguments, want, got, message = row
            held = Cell(markup=soft_breaks(got), status="pass" if case.holds else "fail")
            # long names, values and messages wrap after , : . / = _ (never inside a word), so the
            # matrix fits the output column of a 1,000 px window
            wrapped = breakable_code(arguments)
            said = markup(soft_breaks(message))
            rows.append(
                [
                    markup(soft_breaks(name)),
                    breakable_code(tool),
                    wrapped,
                    Cell(want, nowrap=True),
                    held,
                    said,
                ]
            )
        note = f"<p>{t('orders_acceptance.unchanged', unchanged=self.unchanged)}</p>"
        style = "border-collapse:collapse;font-size:12px"
        return html_table(self.headers, rows, css_class="lessons-acceptance", style=style) + note


def _plan(schemas: dict[str, JSONObject]) -> list[tuple[str, str, JSONObject, str]]:
    """(case, tool, arguments, expect) for every row; refusals generated from the schemas."""
    rows: list[tuple[str, str, JSONObject, str]] = [
        (t("orders_acceptance.case.valid"), tool, dict(args), "ok")
        for tool, args in VALID.items()
        if tool != "create_investigation"
    ]
    rows.append((t("orders_acceptance.case.missing"), "get_order", {}, "refused"))
    props: list[JSON] = list(_properties(schemas["get_order"]))
    # a field name the schema does not list: a short lowercase word outside its properties
    extra = _find({"type": "string", "pattern": "^[a-z]{4,8}$", "not": {"enum": props}})
    rows.append(
        (t("orders_acceptance.case.extra"), "get_order", {**VALID["get_order"], str(extra): True}, "refused")
    )
    for tool in ("get_order", "search_delivery_policy", "create_investigation"):
        for name, bad in rejecting_values(schemas[tool]).items():
            rows.append(
                (
                    t("orders_acceptance.case.bad_value", name=name),
                    tool,
                    {**VALID[tool], name: bad},
                    "refused",
                )
            )
    rows.append((t("orders_acceptance.case.sql"), "get_order", {"order_id": "O-1042' OR '1'='1"}, "refused"))
    # seed 001's 超长结果: a result is bounded by the declaration (at most 5 items a page, then a flag)
    rows.append(
        (
            t("orders_acceptance.case.too_many"),
            "search_delivery_policy",
            {"topic": "delay", "page_size": 1_000_000},
            "refused",
        )
    )
    rows.append(
        (
            t("orders_acceptance.case.full_page"),
            "search_delivery_policy",
            {"topic": "delay", "page_size": 5},
            "ok",
        )
    )
    rows.append(
        (
            t("orders_acceptance.case.page_1"),
            "search_delivery_policy",
            {"topic": "delay", "page_size": 2},
            "ok",
        )
    )
    rows.append(
        (
            t("orders_acceptance.case.page_2"),
            "search_delivery_policy",
            {"topic": "delay", "page_size": 2, "page": 2},
            "ok",
        )
    )
    rows.append((t("orders_acceptance.case.not_yours"), "get_order", {"order_id": "O-1050"}, "refused"))
    return rows


def acceptance_matrix(db_path: str | Path | None = None) -> AcceptanceMatrix:
    """Run every row against the order desk on a fresh database; then revoke access and try again."""
    from lessons_lib.services.orders.service import OrderDesk

    path = Path(db_path) if db_path is not None else od.create_database()
    desk = OrderDesk(path)
    schemas = {t["name"]: t["input"] for t in desk.tools}
    with closing(od.connect(path)) as conn:
        before = od.dump(conn)
    cases = []
    for case, tool, args, expect in _plan(schemas):
        result, _ = desk.call(tool, args)
        cases.append(_case(case, tool, args, expect, result))
    with closing(od.connect(path)) as conn:
        unchanged = od.dump(conn) == before
        od.set_access(conn, desk.customer_id, "revoked")
    result, _ = desk.call("get_order", VALID["get_order"])
    cases.append(
        _case(t("orders_acceptance.case.revoked"), "get_order", VALID["get_order"], "refused", result)
    )
    with closing(od.connect(path)) as conn:
        od.set_access(conn, desk.customer_id, "active")
    return AcceptanceMatrix(tuple(cases), unchanged)


def _case(case: str, tool: str, args: JSONObject, expect: str, result: JSONObject) -> Case:
    error = _error(result)
    got = str(error.get("code") or result.get("status"))
    if result.get("paging"):
        truncated, next_page = get_in(result, "paging", "truncated"), get_in(result, "paging", "next_page")
        message = f"truncated={truncated}, next_page={next_page}, " + t(
            "orders_acceptance.items", n=len(objects(result.get("items")))
        )
    else:
        message = str(error.get("message", "")) or t("orders_acceptance.accepted")
    return Case(case, tool, args, expect, got, message)


def _error(result: JSONObject) -> JSONObject:
    found = result.get("error")
    return found if isinstance(found, dict) else {}
