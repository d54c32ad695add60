"""One display protocol: every displayable honours include/exclude and has a one-line repr."""

from __future__ import annotations

import pytest

from lessons_lib.core.display import HTML, PLAIN, SVG, Displayable


def displayables() -> list[Displayable]:
    """One object of every displayable class the lessons show (all offline, shared caches)."""
    import lessons_lib as L
    from lessons_lib.checks.sabotage import SABOTAGES
    from lessons_lib.course.envcheck import environment_check

    trace = L.run_chain()
    return [
        L.field_tree("response_1"),
        L.side_by_side("response_1", "mcp_request"),
        L.compare_head(20, 5),
        L.head_view(5),
        L.chain_diagram("call"),
        L.verify_roundtrip(trace.to_dict()),
        L.diagnose(trace.to_dict()),
        SABOTAGES,
        L.run_sabotage("mixed_ids"),
        L.run_scenario("missing_file"),
        L.run_bad_value("head_zero"),
        L.bad_values_table(),
        L.questions(1),
        L.check("01.1", "Z"),
        environment_check(),
        L.try_live(),
        L.quick_reference(),
        L.command_list(),
    ]


@pytest.fixture(scope="module")
def objects() -> list[Displayable]:
    return displayables()


def test_every_displayable_uses_the_one_protocol(objects: list[Displayable]) -> None:
    for obj in objects:
        assert isinstance(obj, Displayable), type(obj)
        full = obj._repr_mimebundle_()
        assert PLAIN in full and (HTML in full or SVG in full), type(obj)
        assert obj._repr_mimebundle_(include=[PLAIN]) == {PLAIN: full[PLAIN]}
        rich = obj._repr_mimebundle_(exclude=[PLAIN])
        assert PLAIN not in rich and rich == {k: v for k, v in full.items() if k != PLAIN}
        assert str(obj) == full[PLAIN] == obj.text()
        line = repr(obj)
        assert "\n" not in line and " at 0x" not in line and line.startswith(type(obj).__name__ + "(")


def test_a_form_that_is_not_asked_for_is_not_computed() -> None:
    class Probe(Displayable):
        calls: list[str] = []

        def text(self) -> str:
            self.calls.append("text")
            return "t"

        def html(self) -> str:
            self.calls.append("html")
            return "<p>t</p>"

    probe = Probe()
    assert probe._repr_mimebundle_(include={PLAIN}) == {PLAIN: "t"} and probe.calls == ["text"]
    assert probe._repr_mimebundle_(exclude={PLAIN, SVG}) == {HTML: "<p>t</p>"}
    assert repr(probe) == "Probe()"
