"""The lanes rule of the sequence diagram (lessons 04, 05; issue 13 point 3), on coordinates.

``trace_diagram`` tags its SVG: lane heads ``g.seq-lane.seq-model|seq-application|seq-service``,
arrows ``g.seq-arrow.seq-model|seq-mcp|seq-user`` with ids ``seq-r<row>-a`` / ``-b`` (the two
halves of one arrow, on either side of its label). ``read_svg`` reads those coordinates from the
SVG text with ``xml.etree``; the browser test reads them from the live DOM instead. Both feed
``violations``, the one rule: an MCP arrow never spans the model's lane, a model arrow spans
only the application's and the model's lanes, a user arrow stays on the application's lane.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

SVG_NS = "{http://www.w3.org/2000/svg}"
TOLERANCE = 4.0  # points: an arrow stops at the lifeline's point (radius 1.44) plus a gap of about 2
_PAIR = re.compile(r"(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)")


@dataclass(frozen=True)
class Lane:
    kind: str  # model, application, service
    x: float


@dataclass(frozen=True)
class Arrow:
    row: int
    channel: str  # model, mcp, user
    x1: float
    x2: float


def _classes(g: ET.Element, prefix: str) -> list[str]:
    return [c.removeprefix(prefix) for c in (g.get("class") or "").split() if c.startswith(prefix)]


def _xs(g: ET.Element) -> list[float]:
    xs: list[float] = []
    for shape in g.iter():
        if shape.tag in {f"{SVG_NS}path", f"{SVG_NS}polygon"}:
            xs += [float(x) for x, _ in _PAIR.findall(shape.get("d") or shape.get("points") or "")]
    return xs


def read_svg(svg: str) -> tuple[list[Lane], list[Arrow]]:
    """The lanes (kind, x of the head's centre) and arrows (row, channel, x-span) of a drawn trace."""
    lanes: list[Lane] = []
    spans: dict[int, tuple[str, list[float]]] = {}
    for g in ET.fromstring(svg.encode("utf-8")).iter(f"{SVG_NS}g"):
        tags = _classes(g, "seq-")
        if "lane" in tags:
            xs = _xs(g)
            lanes.append(Lane(next(t for t in tags if t != "lane"), (min(xs) + max(xs)) / 2))
        elif "arrow" in tags:
            found = re.fullmatch(r"seq-r(\d+)-[ab]", g.get("id") or "")
            assert found, f"an arrow without a row id: {g.get('id')!r}"
            channel = next(t for t in tags if t != "arrow")
            spans.setdefault(int(found.group(1)), (channel, []))[1].extend(_xs(g))
    arrows = [Arrow(row, ch, min(xs), max(xs)) for row, (ch, xs) in sorted(spans.items())]
    return lanes, arrows


def violations(lanes: list[Lane], arrows: list[Arrow], tol: float = TOLERANCE) -> list[str]:
    """Every arrow that breaks the lanes rule, as one line each (empty: the diagram is right)."""
    kinds = sorted(lane.kind for lane in lanes)
    if kinds.count("model") != 1 or kinds.count("application") != 1 or "service" not in kinds:
        return [f"expected one model lane, one application lane and services, found {kinds}"]
    out = []
    for a in arrows:
        lo, hi = sorted((a.x1, a.x2))
        spanned = sorted({lane.kind for lane in lanes if lo - tol <= lane.x <= hi + tol})
        expected = {"mcp": ["application", "service"], "model": ["application", "model"]}
        if spanned != expected.get(a.channel, ["application"]):
            out.append(f"row {a.row} ({a.channel}) spans x {lo:.1f}..{hi:.1f}: the lanes {spanned}")
    return out
