"""The course's fixed vocabulary: the six kinds of field, the four chain steps, the actors.

One table for every lesson, library label and diagram. Colours are the
Okabe-Ito palette, which stays distinguishable for colour-blind readers; the four steps take
their own colours from Paul Tol's muted palette, so that no colour means both a step and a
kind, and the highlight is a colour neither uses. Verdicts (PASS/FAIL, 通过/断开...) take a
third palette, Tol's pale and dark schemes: a pale background with dark ink, never a kind's or
a step's colour, and always beside a mark and a word. Introduced in lesson 01.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from lessons_lib.core.messages import t, zh

Kind = Literal["rule", "setting", "value", "result", "identifier", "envelope"]
Step = Literal["declaration", "call", "execution", "feedback"]
Status = Literal["pass", "fail", "unchecked"]


@dataclass(frozen=True)
class KindStyle:
    """How one kind of field is named and coloured everywhere in the course."""

    kind: Kind
    zh: str
    colour: str
    meaning_zh: str

    @property
    def name(self) -> str:
        """The kind's name in the current language (``值（本次参数值）`` / ``value``)."""
        return t(f"kind.{self.kind}.name")

    @property
    def short(self) -> str:
        """The name without its gloss, for table cells (``值`` / ``value``)."""
        return t(f"kind.{self.kind}.short")

    @property
    def meaning(self) -> str:
        """What the kind is, in one line, in the current language."""
        return t(f"kind.{self.kind}.meaning")


def _kind(kind: Kind, colour: str) -> KindStyle:
    return KindStyle(kind, zh(f"kind.{kind}.name"), colour, zh(f"kind.{kind}.meaning"))


KINDS: Final[dict[Kind, KindStyle]] = {
    "rule": _kind("rule", "#0072B2"),
    "setting": _kind("setting", "#56B4E9"),
    "value": _kind("value", "#E69F00"),
    "result": _kind("result", "#009E73"),
    "identifier": _kind("identifier", "#CC79A7"),
    "envelope": _kind("envelope", "#7F7F7F"),
}
"""The Chinese names stay in ``zh`` and ``meaning_zh``; ``name``, ``short`` and ``meaning`` follow
the current language (``lessons_lib.core.messages``)."""

SHORT_ZH: Final[dict[Kind, str]] = {k: zh(f"kind.{k}.short") for k in KINDS}
"""Each kind's Chinese name without its gloss (``值`` for ``值（本次参数值）``), for table cells."""


def kind_short(kind: Kind) -> str:
    """A kind's short name in the current language (``值`` / ``value``), for table cells."""
    return t(f"kind.{kind}.short")


STEPS: Final[tuple[Step, ...]] = ("declaration", "call", "execution", "feedback")
STEP_COLOURS: Final[dict[Step, str]] = {
    "declaration": "#332288",  # indigo
    "call": "#44AA99",  # teal
    "execution": "#999933",  # olive
    "feedback": "#882255",  # wine
}
"""Each chain step's colour (diagrams); disjoint from every kind's colour."""

HIGHLIGHT_COLOUR: Final = "#000000"
"""The outline of a highlighted field: black, which is no kind's and no step's colour."""


@dataclass(frozen=True)
class StatusStyle:
    """How one verdict is marked everywhere: a mark and a word on a pale background, dark ink."""

    status: Status
    mark: str
    zh: str
    background: str
    ink: str


STATUSES: Final[dict[Status, StatusStyle]] = {
    "pass": StatusStyle("pass", "✓", zh("status.pass"), "#CCDDAA", "#225522"),  # pale / dark green
    "fail": StatusStyle("fail", "✗", zh("status.fail"), "#FFCCCC", "#663333"),  # pale / dark red
    "unchecked": StatusStyle("unchecked", "○", zh("status.unchecked"), "#DDDDDD", "#555555"),  # grey
}
"""Each verdict's look (tables, checker boxes): PASS / 通过; FAIL / 不通过 / 断开 (a broken link);
no verdict yet (未检查, an exercise or question left open). Disjoint from every kind's and step's
colour, and from the highlight's pale yellow background."""

STEP_ZH: Final[dict[Step, str]] = {s: zh(f"step.{s}") for s in STEPS}
ACTOR_ZH: Final[dict[str, str]] = {
    a: zh(f"actor.{a}") for a in ("user", "application", "model", "service", "mcp_client")
}
TERMS_ZH: Final[dict[str, str]] = {
    term: zh(f"term.{term}")
    for term in ("alias", "protocol error", "tool execution error", "application", "tool service")
}
"""The Chinese names (``*_ZH``), the same in either language (``zh``): lesson 00's English | Chinese
table reads ``STEP_ZH`` and ``TERMS_ZH``; a name in the current language is a function below."""


def step_name(step: Step) -> str:
    """A chain step's name in the current language (``声明`` / ``declaration``)."""
    return t(f"step.{step}")


def actor_name(actor: str) -> str:
    """An actor's name in the current language (``工具服务`` / ``tool service``)."""
    return t(f"actor.{actor}")


def status_word(status: Status) -> str:
    """A verdict's word in the current language (``通过`` / ``pass``)."""
    return t(f"status.{status}")


def term(name: str) -> str:
    """A glossary term (``"alias"``, ``"protocol error"``...) in the current language."""
    return t(f"term.{name}")
