"""The sabotage catalogue: one deliberate mistake per common error of the source lesson. Lesson 08.

The source lesson's troubleshooting section lists seven mistakes. Each entry of ``SABOTAGES``
makes one of them in a copy of a good trace (``apply`` never touches its input; the edits live in
``lessons_lib.checks._mistakes``) and names the link of the troubleshooting order it is expected
to break. ``run_sabotage(name)`` applies it to the recorded trace and shows how ``verify_fields``,
``verify_roundtrip`` and ``diagnose`` answer: every one is rejected, and the doctor names the
broken link. Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, TypeAlias

from lessons_lib.checks._chainsteps import link_name
from lessons_lib.checks._mistakes import (
    Trace,
    declaration_as_execution,
    format_as_permission,
    logged_not_fed_back,
    mixed_ids,
    parse_as_read,
    raw_as_answer,
    rule_as_value,
)
from lessons_lib.checks.attachments import roundtrip_from_trace
from lessons_lib.checks.doctor import Diagnosis, diagnose
from lessons_lib.checks.jsoncheck import Fail, load_json
from lessons_lib.checks.verify import verify_fields, verify_roundtrip
from lessons_lib.checks.verify_report import Report, esc
from lessons_lib.core.display import Displayable
from lessons_lib.core.glossary import Status
from lessons_lib.core.htmltable import html_table, status
from lessons_lib.core.jsonvalue import JSON
from lessons_lib.core.messages import t


@dataclass(frozen=True)
class Said:
    """A catalogue entry looked up each time it is shown (``str(Said(key))``), not at import.

    So it speaks the language chosen when it is shown."""

    key: str
    fields: tuple[tuple[str, object], ...] = ()

    def __str__(self) -> str:
        return t(self.key, **{name: str(value) for name, value in self.fields})


Text: TypeAlias = str | Said
"""A text as given (``str``) or a catalogue entry looked up when shown (``Said``)."""


@dataclass(frozen=True)
class Sabotage:
    """One deliberate mistake: what it is, what it changes, which link it should break."""

    name: str
    title_text: Text
    mistake_text: Text
    change_text: Text
    link: str
    apply: Callable[[object], Trace] = field(repr=False, compare=False)

    @property
    def title(self) -> str:
        return str(self.title_text)

    @property
    def mistake(self) -> str:
        return str(self.mistake_text)

    @property
    def change(self) -> str:
        return str(self.change_text)

    @property
    def link_name(self) -> str:
        """The name of the link it should break, in the current language."""
        return link_name(self.link)

    def row(self) -> dict[str, str]:
        return {
            "name": self.name,
            "title": self.title,
            "mistake": self.mistake,
            "change": self.change,
            "link": self.link,
            "link_name": self.link_name,
        }


class Catalogue(Displayable, tuple[Sabotage, ...]):
    """The ordered sabotages; index by position or look one up with ``get(name)``."""

    def names(self) -> list[str]:
        return [s.name for s in self]

    def get(self, name: str) -> Sabotage:
        found = next((s for s in self if s.name == name), None)
        if found is None:
            raise ValueError(t("sabotage.unknown", name=repr(name), names=", ".join(self.names())))
        return found

    def rows(self) -> list[dict[str, str]]:
        return [s.row() for s in self]

    def text(self) -> str:
        lines = [t("sabotage.heading")]
        lines += [
            t("sabotage.line", n=n, name=s.name, title=s.title, link=s.link_name, change=s.change)
            for n, s in enumerate(self, 1)
        ]
        return "\n".join(lines)

    def repr_args(self) -> str:
        return str(self.names())

    def html(self) -> str:
        rows = [(n, s.name, s.title, s.change, s.link_name) for n, s in enumerate(self, 1)]
        return html_table(
            tuple(t(f"sabotage.head.{key}") for key in ("n", "name", "mistake", "change", "link")),
            rows,
            nowrap=(1,),
            code_columns=(1,),
        )


def _entry(apply: Callable[[object], Trace], link: str, worded_longer: bool = False) -> Sabotage:
    """An entry named after its function, its texts ``sabotage.<name>.title/change`` in the catalogue;
    the mistake is the title unless the source lesson words it longer (``sabotage.<name>.mistake``)."""
    name = apply.__name__
    title = Said(f"sabotage.{name}.title")
    mistake = Said(f"sabotage.{name}.mistake") if worded_longer else title
    return Sabotage(name, title, mistake, Said(f"sabotage.{name}.change"), link, apply)


SABOTAGES: Final = Catalogue(
    (
        _entry(declaration_as_execution, "route"),
        _entry(rule_as_value, "parse"),
        _entry(parse_as_read, "feedback"),
        _entry(format_as_permission, "service"),
        _entry(mixed_ids, "ids"),
        _entry(logged_not_fed_back, "next_input", worded_longer=True),
        _entry(raw_as_answer, "next_input"),
    )
)

# ----------------------------------------------------------------------------- running one


@dataclass(repr=False)
class SabotageOutcome(Displayable):
    """What the two verifiers and the doctor say about one sabotaged trace."""

    sabotage: Sabotage
    fields: Report
    roundtrip: Report
    diagnosis: Diagnosis

    @property
    def rejected(self) -> bool:
        return not (self.fields.ok and self.roundtrip.ok and self.diagnosis.ok)

    @property
    def found_link(self) -> str | None:
        return self.diagnosis.broken_link

    @property
    def as_expected(self) -> bool:
        return self.rejected and self.found_link == self.sabotage.link

    def lines(self) -> list[tuple[str, str]]:
        def verdict(report: Report) -> str:
            bad = report.failed
            if not bad:
                return t("sabotage.passed")
            return t("sabotage.rejected", name=bad[0].name, reason=bad[0].reason)

        expected = t("sabotage.expected", link=self.sabotage.link_name)
        match = t("sabotage.as_expected") if self.as_expected else expected
        return [
            ("verify-fields", verdict(self.fields)),
            ("verify-roundtrip", verdict(self.roundtrip)),
            ("diagnose", t("sabotage.diagnosis", verdict=self.diagnosis.verdict(), match=match)),
        ]

    def text(self) -> str:
        s = self.sabotage
        head = t("sabotage.head", title=s.title, name=s.name, change=s.change)
        return "\n".join(
            [head] + [t("sabotage.answer_line", who=who, what=what) for who, what in self.lines()]
        )

    def repr_args(self) -> str:
        return f"name={self.sabotage.name!r}, rejected={self.rejected}, found_link={self.found_link!r}"

    def html(self) -> str:
        said = t("sabotage.html_head", title=esc(self.sabotage.title), change=esc(self.sabotage.change))
        head = f"<p>{said}</p>"
        # green: this check caught the sabotage; grey: it cannot see this mistake; red: wrong link
        found = [not r.ok for r in (self.fields, self.roundtrip)] + [self.as_expected]
        states: list[Status] = ["pass" if f else "unchecked" for f in found[:2]]
        states.append("pass" if found[2] else "fail")
        rows = [
            (who, status(state, what, nowrap=False))
            for (who, what), state in zip(self.lines(), states, strict=True)
        ]
        return head + html_table((t("sabotage.head.who"), t("sabotage.head.answer")), rows, nowrap=(0,))


def run_sabotage(name: str, trace: object = None) -> SabotageOutcome:
    """Apply one catalogue entry (to the recorded data/trace.json by default) and check it. Lesson 08."""
    entry = SABOTAGES.get(name)
    broken = entry.apply(_default_trace() if trace is None else trace)
    return SabotageOutcome(
        entry,
        verify_fields(broken),
        verify_roundtrip(roundtrip_from_trace(broken), sabotage=False),
        diagnose(broken),
    )


def _default_trace() -> JSON:
    from lessons_lib.core.paths import DATA_DIR

    try:
        return load_json(DATA_DIR / "trace.json")
    except Fail as exc:
        raise ValueError(str(exc)) from None
