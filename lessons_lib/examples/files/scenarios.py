"""Lesson 09's other what-ifs (the source lesson's changed conditions) and bad values, each an offline run.

``run_scenario(name)`` runs one entry of ``SCENARIOS`` and returns the trace, the key facts, the
checks that back the verdict and the verifiers' own verdicts (``diagnose``, ``verify_roundtrip``).
``bad_values_table()`` runs every entry of ``BAD_VALUES`` and shows which layer stops it and
what the model receives as feedback. Nothing here is typed by hand: every fact comes from a trace.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Final

from lessons_lib.core.display import Displayable
from lessons_lib.core.example import (
    ALIAS_SEPARATOR,
    EXAMPLE_HEAD,
    FAILURE_PREFIX,
    MISSING_PATH,
    OUTSIDE_PATH,
    TOOL_NAME,
)
from lessons_lib.core.htmltable import html_table, status_badge
from lessons_lib.core.jsonvalue import get_in
from lessons_lib.core.messages import language, t
from lessons_lib.core.outcomes import outcome_text
from lessons_lib.core.paths import DATA_DIR, WORKSPACE_DIR
from lessons_lib.core.traces import queries as q
from lessons_lib.core.traces.trace import Trace
from lessons_lib.examples.files.verifiers import NamedReport, report_line, schema_check_result, verifiers
from lessons_lib.views.changetable import abbreviate
from lessons_lib.views.textwidth import wrapped

ARCHIVE_DIR: Final = DATA_DIR / "archive"
"""The second service's root (served as ``/workspace`` too): same file name, other content."""
TWO_SERVICES_TASK: Final = "请分别从 fs 和 archive 两个服务读取 /workspace/notes.txt 的前 3 行。"
"""The user's task (data, Chinese in both editions, like the lessons' task text)."""


@dataclass(frozen=True)
class Scenario:
    """One what-if of the source lesson's list: its question and expected answer, in the current language."""

    name: str

    @property
    def title(self) -> str:
        return t(f"scenarios.{self.name}.title")

    @property
    def question(self) -> str:
        return t(f"scenarios.{self.name}.question")

    @property
    def expectation(self) -> str:
        return t(f"scenarios.{self.name}.expectation")


SCENARIOS: Final[dict[str, Scenario]] = {
    name: Scenario(name)
    for name in ("no_second_request", "two_services", "missing_file", "outside_workspace")
}


# ------------------------------------------------------------------ the scenario results
@dataclass(repr=False)
class ScenarioResult(Displayable):
    """A scenario's run: trace, key facts, the checks behind the verdict, the verifiers' verdicts."""

    scenario: Scenario
    trace: Trace
    facts: list[tuple[str, str]]
    checks: list[tuple[str, bool]]
    reports: list[NamedReport]

    @property
    def ok(self) -> bool:
        return all(held for _, held in self.checks)

    @property
    def verdict(self) -> str:
        if self.ok:
            return self.scenario.expectation
        return t(
            "scenarios.unexpected", failed=t("scenarios.sep").join(w for w, held in self.checks if not held)
        )

    def text(self) -> str:
        s = self.scenario
        colon = t("scenarios.colon")
        lines = [
            t("scenarios.heading", title=s.title, name=s.name),
            t("scenarios.question", question=s.question),
        ]
        lines += ["", t("scenarios.facts")] + [f"  {k}{colon}{v}" for k, v in self.facts]
        lines += ["", t("scenarios.checks")] + [
            f"  {'✓' if held else '✗'} {what}" for what, held in self.checks
        ]
        lines += ["", t("scenarios.verifiers")] + [
            f"  {name}{colon}{report_line(r)}" for name, r in self.reports
        ]
        text = "\n".join([*lines, "", t("scenarios.verdict", verdict=self.verdict), ""])
        return wrapped(text, hang="    ")  # no 270-column lines in the text fallback (lesson 09)

    def html(self) -> str:
        s = self.scenario
        facts = html_table((t("scenarios.fact"), t("scenarios.value")), self.facts, code_columns=(1,))
        checks = "".join(
            f"<li>{status_badge('pass' if held else 'fail', what)}</li>" for what, held in self.checks
        )
        reports = "".join(
            f"<li><b>{html.escape(n)}</b>{t('scenarios.colon')}{html.escape(report_line(r))}</li>"
            for n, r in self.reports
        )
        return (
            f'<div class="lessons-scenario"><h4>{html.escape(s.title)}</h4>'
            f"<p>{html.escape(t('scenarios.question', question=s.question))}</p>"
            f"{facts}<p>{t('scenarios.checks')}</p><ul>{checks}</ul>"
            f"<p>{t('scenarios.verifiers')}</p><ul>{reports}</ul>"
            f"<p><b>{html.escape(t('scenarios.verdict', verdict=self.verdict))}</b></p></div>"
        )

    def repr_args(self) -> str:
        return f"{self.scenario.name!r}, ok={self.ok}, outcome={self.trace.outcome['status']!r}"


def _no_second_request() -> tuple[Trace, list[tuple[str, str]], list[tuple[str, bool]]]:
    from lessons_lib.engine.host import Limits, run_chain

    trace = run_chain(limits=Limits(max_rounds=1))
    exchanges = q.mcp_exchanges(trace)
    reply = exchanges[0].reply if exchanges else None
    held = q.reply_text(reply)
    sent = q.model_rounds(trace)
    fed = bool(q.sent_feedback(trace))
    facts = [
        (t("scenarios.f.requests"), str(len(sent))),
        (
            t("scenarios.f.mcp_result"),
            t(
                "scenarios.f.mcp_result_value",
                is_error=json.dumps(get_in(reply, "result", "isError")),
                n=len(held.splitlines()),
            ),
        ),  # fmt: skip
        (t("scenarios.f.held"), abbreviate(held)),
        (t("scenarios.f.fed"), t("scenarios.yes") if fed else t("scenarios.no")),
        (t("scenarios.f.answer"), trace.answer or t("scenarios.no_answer")),
        (t("scenarios.f.outcome"), outcome_text(trace.outcome)),
    ]
    checks = [
        (t("scenarios.c.read"), bool(held) and q.reply_is_error(reply) is False),
        (t("scenarios.c.one_request"), len(sent) == 1 and trace.body("request_2") is None),
        (t("scenarios.c.not_fed"), not fed),
        (t("scenarios.c.no_answer"), trace.answer is None),
        (
            t("scenarios.c.stopped"),
            trace.outcome["status"] == "stopped" and "not sent" in trace.outcome["reason"],
        ),
    ]
    return trace, facts, checks


def _two_services() -> tuple[Trace, list[tuple[str, str]], list[tuple[str, bool]]]:
    from lessons_lib.engine.host import run_chain

    trace = run_chain(TWO_SERVICES_TASK, services={"fs": WORKSPACE_DIR, "archive": ARCHIVE_DIR})
    calls = {c.call_id: c for c in q.calls(trace, 1)}
    outputs = {f.call_id: f.output for f in q.sent_feedback(trace)}
    facts = [(t("scenarios.f.aliases"), t("sep.list").join(tool["alias"] for tool in trace.tools))]
    routed = untouched = paired = True
    texts = []
    for record in trace.links:
        call, exchange = calls[record["call_id"]], q.exchange_for(trace, record["call_id"])
        if exchange is None:  # the call never reached a service: the routing check fails
            routed = False
            continue
        text = q.reply_text(exchange.reply)
        texts.append(text)
        params = get_in(exchange.request, "params", "arguments")
        name = get_in(exchange.request, "params", "name")
        sent = json.dumps(params, ensure_ascii=False)
        first = text.splitlines()[0] if text else ""
        facts.append(
            (
                str(call.name),
                t(
                    "scenarios.f.routed",
                    service=exchange.service,
                    name=name,
                    arguments=call.arguments,
                    sent=sent,
                    first=first,
                ),  # fmt: skip
            )
        )
        service, _, _ = str(call.name).partition(ALIAS_SEPARATOR)
        routed &= exchange.service == service and name == TOOL_NAME
        untouched &= isinstance(call.arguments, str) and json.loads(call.arguments) == params
        paired &= outputs.get(record["call_id"]) == text
    checks = [
        (
            t("scenarios.c.two_aliases"),
            len({tool["alias"] for tool in trace.tools}) == 2
            and {tool["name"] for tool in trace.tools} == {"read_text_file"},
        ),
        (t("scenarios.c.routed"), routed and len(trace.links) == 2),
        (t("scenarios.c.untouched"), untouched),
        (t("scenarios.c.different"), len(set(texts)) == 2),
        (t("scenarios.c.paired"), paired and len(outputs) == 2),
    ]
    return trace, facts, checks


def _read_fails(path: str) -> Callable[[], tuple[Trace, list[tuple[str, str]], list[tuple[str, bool]]]]:
    def run() -> tuple[Trace, list[tuple[str, str]], list[tuple[str, bool]]]:
        from lessons_lib.engine.host import run_chain

        trace = run_chain(path=path, head=EXAMPLE_HEAD)
        call = q.calls(trace, 1)[0]
        reply = q.mcp_exchanges(trace)[0].reply
        message = q.reply_text(reply)
        found = q.feedback_for_call(trace, call.call_id)
        output = (found.text() if found else None) or ""
        answer = trace.answer or ""
        schema_status, schema = schema_check_result(trace, call.name, call.arguments)
        facts = [
            ("arguments", str(call.arguments)),
            (t("scenarios.f.schema"), schema),
            (
                "MCP result",
                t(
                    "scenarios.f.refused",
                    is_error=json.dumps(get_in(reply, "result", "isError")),
                    message=message,
                )
                if reply
                else t("scenarios.none"),
            ),
            ("function_call_output.output", output),
            (t("scenarios.f.answer"), answer),
        ]
        claims, admits = t("standin.marker_read"), t("standin.marker_unread")
        checks = [
            (t("scenarios.c.schema"), schema_status == "pass"),
            (t("scenarios.c.refused"), q.reply_is_error(reply) is True),
            (t("scenarios.c.prefix", prefix=FAILURE_PREFIX.strip()), output == FAILURE_PREFIX + message),
            (t("scenarios.c.reason"), bool(message) and message in answer),
            (t("scenarios.c.no_claim", marker=claims), claims not in answer and admits in answer),
        ]
        return trace, facts, checks

    return run


_RUNNERS: Final[dict[str, Callable[[], tuple[Trace, list[tuple[str, str]], list[tuple[str, bool]]]]]] = {
    "no_second_request": _no_second_request,
    "two_services": _two_services,
    "missing_file": _read_fails(MISSING_PATH),
    "outside_workspace": _read_fails(OUTSIDE_PATH),
}


def run_scenario(name: str) -> ScenarioResult:
    """Run one what-if of the source lesson's list offline and judge it (lesson 09); see ``SCENARIOS``."""
    if name not in SCENARIOS:
        raise ValueError(f"unknown scenario {name!r}; choose one of: {', '.join(SCENARIOS)}")
    return _run_scenario(name, language())


@cache
def _run_scenario(name: str, lang: str) -> ScenarioResult:
    """One run per scenario and language (``lang`` keys the cache: the facts are in that language)."""
    trace, facts, checks = _RUNNERS[name]()
    return ScenarioResult(SCENARIOS[name], trace, facts, checks, verifiers(trace))


__all__ = ["ARCHIVE_DIR", "SCENARIOS", "Scenario", "ScenarioResult", "run_scenario"]
