"""One colour, one meaning (issue 13, point 1): steps, kinds and the highlight never share a colour,
and no legend a learner sees prints a hex code instead of a swatch."""

from __future__ import annotations

import html
import re

from lessons_lib.core.glossary import HIGHLIGHT_COLOUR, KINDS, STEP_COLOURS, STEPS
from lessons_lib.course.record import load_fixture
from lessons_lib.views.diagrams import chain_diagram, loop_diagram
from lessons_lib.views.fieldtree import field_tree
from lessons_lib.views.legend import colour_legend

_HEX = re.compile(r"#[0-9A-Fa-f]{6}\b")


def _visible(page: str) -> str:
    """The text a reader sees in an HTML or SVG page: tags (and their style attributes) removed."""
    return html.unescape(re.sub(r"<[^>]*>", " ", page))


def test_step_palette_and_kind_palette_are_disjoint() -> None:
    kinds = {s.colour.upper() for s in KINDS.values()}
    steps = [STEP_COLOURS[s].upper() for s in STEPS]
    assert len(set(steps)) == len(STEPS)
    assert len(kinds) == len(KINDS)
    assert not kinds & set(steps)
    assert HIGHLIGHT_COLOUR.upper() not in kinds | set(steps)


def test_diagrams_colour_steps_with_step_colours_only() -> None:
    for source in (chain_diagram("call").source, loop_diagram().source):
        for kind in KINDS.values():
            assert kind.colour not in source


def test_no_rendered_legend_shows_a_hex_colour() -> None:
    legend = colour_legend()
    page = legend.html()
    assert all(s.colour in page for s in KINDS.values())  # the swatches carry the colours...
    assert all(STEP_COLOURS[s] in page for s in STEPS)
    for shown in (_visible(page), legend.text(), str(legend)):  # ...the words never do
        assert not _HEX.search(shown), shown
    tree = field_tree(load_fixture("mcp_request.json"))
    for shown in (_visible(tree.html() or ""), tree.text()):
        assert not _HEX.search(shown)
    for diagram in (chain_diagram("call"), loop_diagram()):
        assert not _HEX.search(_visible(diagram.svg() or "")) and not _HEX.search(diagram.description)
