"""The order desk in two versions, each released as one record. Introduced in lesson 50.

Seed 001 (接口演进与兼容性): a tool's description is part of its behaviour, so a release records
the description, the schema, the implementation and the permission policy together, and is
verified by replaying tasks that already ran. :class:`ToolVersion` is that record as data;
:class:`VersionedDesk` is the real order desk (lesson 30) with one version's changes applied,
served over MCP by the same ``build_server``.

``DESK_V2`` changes one thing in each part:

- description: ``track_shipment`` now says it returns the *whole history* (seed 001's
  "查询当前物流" -> "查询全部历史物流"); no field changes;
- schema: ``get_order``'s result gains an optional ``promised_by`` (null by default);
- implementation: ``get_order`` fills ``promised_by``;
- permission policy: an investigation is allowed for delivered orders only.
"""

from __future__ import annotations

import copy
import hashlib
import json
import sqlite3
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, TypedDict, Unpack

from lessons_lib.examples.orders import ENTRY as ORDERS
from lessons_lib.services.orders.rules import DeskError
from lessons_lib.services.orders.service import OrderDesk
from lessons_lib.services.orders.tools import JSONDict

if TYPE_CHECKING:
    from lessons_lib.examples.orders.run import OrdersRun, RunOptions


class ReleaseRecord(TypedDict):
    """One release as data: each part's content, and a fingerprint of each part."""

    version: str
    fingerprints: dict[str, str]
    description: dict[str, str]
    schema: dict[str, JSONDict]
    implementation: str
    policy: dict[str, list[str]]


RELEASE_PARTS: Final = ("description", "schema", "implementation", "policy")
"""The parts of a release record, in the record's (and the release table's) order."""


@dataclass(frozen=True)
class ToolVersion:
    """One release of the desk: description, schema, implementation and policy together (lesson 50)."""

    name: str
    descriptions: dict[str, str] = field(default_factory=dict)
    """Tool -> its description in this version (tools not listed keep lesson 30's)."""
    result_fields: dict[str, dict[str, JSONDict]] = field(default_factory=dict)
    """Tool -> result fields this version adds (each optional, null by default)."""
    implementation: str = "orderdesk 1.0（第 30 课）"
    investigate_statuses: tuple[str, ...] = ("shipped", "delivered")
    """Permission policy: the order states an investigation may be opened for."""

    def tools(self) -> list[JSONDict]:
        """The four declarations as this version lists them (fresh copies)."""
        from lessons_lib.services.orders.tools import declarations

        tools = declarations()
        for tool in tools:
            tool["description"] = self.descriptions.get(tool["name"], tool["description"])
            for name, schema in self.result_fields.get(tool["name"], {}).items():
                output = tool["output"]
                output["properties"][name] = copy.deepcopy(schema)
        return tools

    def record(self) -> ReleaseRecord:
        """The release record: each part's content and a fingerprint of it (sha256, 12 hex)."""
        tools = self.tools()
        description = {t["name"]: t["description"] for t in tools}
        schema = {t["name"]: {"input": t["input"], "output": t["output"]} for t in tools}
        policy = {"write_tools": ["create_investigation"], "investigate": list(self.investigate_statuses)}
        parts = (description, schema, self.implementation, policy)
        fingerprints = {part: digest(value) for part, value in zip(RELEASE_PARTS, parts, strict=True)}
        return ReleaseRecord(
            version=self.name,
            fingerprints=fingerprints,
            description=description,
            schema=schema,
            implementation=self.implementation,
            policy=policy,
        )


def digest(value: object) -> str:
    """sha256 of the canonical JSON (sorted keys, no spaces), first 12 hex digits (lessons 50-51)."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


DESK_V1: Final = ToolVersion("orders@1")
"""Lesson 30's desk, unchanged."""

HISTORY_DESCRIPTION: Final = (
    "按运单号查询承运商和这张运单的全部历史物流事件（结果较大，按时间排列）。"
    "运单号只能来自 get_order 的结果（waybill_no 字段）：先查订单，再用它返回的运单号调用。"
    "不要用订单号调用，不要自己拼运单号；订单还没有运单号时不要调用。"
)
"""Seed 001's "查询全部历史物流": every field stays, only the words change."""

DESK_V1_1: Final = ToolVersion("orders@1.1", descriptions={"track_shipment": HISTORY_DESCRIPTION})
"""Only ``track_shipment``'s description changes (lesson 50's change that keeps every field)."""

DESK_V2: Final = ToolVersion(
    "orders@2",
    descriptions={"track_shipment": HISTORY_DESCRIPTION},
    result_fields={
        "get_order": {
            "promised_by": {
                "type": ["string", "null"],
                "default": None,
                "description": "承诺送达日期；没有承诺时为 null（2 版新增，可选）",
            }
        }
    },
    implementation="orderdesk 2.0（get_order 填写 promised_by）",
    investigate_statuses=("delivered",),
)
"""One change in each part of the record (see the module docstring)."""

SLOW_MACHINE: Final = 120.0
"""Seconds a replayed run may take in all: a loaded classroom machine must not change an outcome."""

VERSIONS: Final = {v.name: v for v in (DESK_V1, DESK_V1_1, DESK_V2)}


@dataclass
class VersionedDesk(OrderDesk):
    """The order desk with one :class:`ToolVersion` applied (lesson 50)."""

    version: ToolVersion = DESK_V1

    def __post_init__(self) -> None:
        from jsonschema import Draft202012Validator

        super().__post_init__()
        self.tools = self.version.tools()
        self._by_name = {t["name"]: t for t in self.tools}
        self._validators = {t["name"]: Draft202012Validator(t["input"]) for t in self.tools}

    def _get_order(self, conn: sqlite3.Connection, args: JSONDict) -> JSONDict:
        result = super()._get_order(conn, args)
        if "promised_by" in self.version.result_fields.get("get_order", {}):
            order = result["order"]
            result["promised_by"] = "2026-08-10" if order["status"] == "shipped" else None
        return result

    def _create_investigation(self, conn: sqlite3.Connection, args: JSONDict) -> JSONDict:
        order = self._order(conn, args["order_id"])
        if order["status"] not in self.version.investigate_statuses:
            allowed = " or ".join(self.version.investigate_statuses)
            raise DeskError(
                "not_allowed",
                f"order {order['order_id']} is {order['status']}: in {self.version.name} only {allowed}"
                " orders can be investigated",
            )
        return super()._create_investigation(conn, args)


def run_version(task: str, version: ToolVersion, **options: Unpack[RunOptions]) -> OrdersRun:
    """Run one order-desk task against ``version`` (offline by default); an ``OrdersRun`` (lesson 50).

    The options are ``run_orders``'s; ``desk=`` options go to the versioned desk, which the
    application reaches over MCP exactly as it reaches lesson 30's. Offline, the model is the
    stand-in that reads descriptions (:class:`~lessons_lib.examples.evolve.offline_reader.DescriptionReader`).
    """
    from pathlib import Path

    import lessons_lib.services.orders.data as od
    from lessons_lib.examples.evolve.offline_reader import DescriptionReader
    from lessons_lib.services.orders.service import build_server
    from lessons_lib.services.orders.standin import Quirks

    given = options.pop("db_path", None)
    path = Path(given) if given is not None else od.create_database()
    desk = VersionedDesk(path, version=version, **(options.pop("desk", None) or {}))
    services = {"orders": lambda name: build_server(desk, name)}
    standin = DescriptionReader(quirks=options.pop("quirks", None) or Quirks())
    options.setdefault("guards", ORDERS.get("Guards")(total_timeout=SLOW_MACHINE))
    run_orders = ORDERS.get("run_orders")
    return run_orders(task, **(options | {"db_path": path, "services": services, "standin": standin}))
