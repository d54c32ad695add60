"""One colour, one meaning (issue 13, point 1): steps, kinds and the highlight never share a colour,
and no legend a learner sees prints a hex code instead of a swatch."""

from __future__ import annotations

import html
import re

from lessons_lib.core.glossary import HIGHLIGHT_COLOUR, KINDS, STATUSES, STEP_COLOURS, STEPS
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


def _rgb(colour: str) -> tuple[int, ...]:
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))


def test_status_palette_is_disjoint_from_kinds_steps_and_highlight() -> None:
    """PASS/FAIL no longer borrow the result green or the value orange (issue 13, point 1)."""
    others = [s.colour.upper() for s in KINDS.values()] + [c.upper() for c in STEP_COLOURS.values()]
    others += [HIGHLIGHT_COLOUR.upper(), "#FFF3B0"]  # the highlight's outline and its pale yellow fill
    status = [c.upper() for s in STATUSES.values() for c in (s.background, s.ink)]
    assert len(set(status)) == len(status) and not set(status) & set(others)
    for colour in status:  # not merely another hex code: visibly apart from every kind and step colour
        nearest = min(
            sum((a - b) ** 2 for a, b in zip(_rgb(colour), _rgb(o), strict=True)) ** 0.5 for o in others
        )
        assert nearest >= 40, colour
    assert len({s.mark for s in STATUSES.values()}) == len(STATUSES)  # a mark beside every colour


def test_verdict_boxes_use_the_status_palette() -> None:
    from lessons_lib.checks.checker import step_verdict
    from lessons_lib.course.quiz import Feedback

    kind_colours = [s.colour for s in KINDS.values()]
    boxes = {
        "pass": step_verdict("t", True, "ok").html(),
        "fail": step_verdict("t", False, "no").html(),
        "unchecked": step_verdict("t", False, "…", unfinished=True).html(),  # left open: no verdict yet
    }
    boxes_quiz = {
        "pass": Feedback("q", "a", True, "对").html(),
        "fail": Feedback("q", "b", False, "错").html(),
        "unchecked": Feedback("q", None, False, "还没有作答").html(),  # not answered is not wrong
    }
    for state, page in [*boxes.items(), *boxes_quiz.items()]:
        look = STATUSES[state]  # type: ignore[index]
        assert look.background in page and look.ink in page and f'data-status="{state}"' in page, state
        assert not any(c in page for c in kind_colours), page


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


def test_call_flow_boxes_use_the_verdict_colours() -> None:
    """A failed call's box is the FAIL colour, a done one the PASS colour; the label names the status."""
    from lessons_lib.examples.orders.callflow import call_flow
    from lessons_lib.examples.orders.lab import run_scenario

    fault = call_flow(run_scenario("fault").trace).source
    retry = call_flow(run_scenario("retry").trace).source
    assert STATUSES["fail"].background in fault and STATUSES["pass"].background not in fault
    assert STATUSES["pass"].background in retry and "→ replayed" in retry
    assert not any(s.colour in fault + retry for s in KINDS.values())
