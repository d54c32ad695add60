"""What the lab's runs are judged with: the verifiers' reports and a JSON Schema check. Lesson 09.

Shared by the what-if scenarios and the bad values (``lessons_lib.examples.files.scenarios``,
``lessons_lib.examples.files.badvalues``), so neither imports the other.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, TypeAlias

from lessons_lib.core.glossary import Status, status_word
from lessons_lib.core.jsonvalue import JSON
from lessons_lib.core.messages import t
from lessons_lib.core.traces import queries as q
from lessons_lib.core.traces.trace import Trace

if TYPE_CHECKING:
    from lessons_lib.checks.verify_report import CheckReport

NamedReport: TypeAlias = "tuple[str, CheckReport]"
"""A verifier's name and its report."""


def verifiers(trace: Trace) -> list[NamedReport]:
    """(name, report) from ``diagnose`` and ``verify_roundtrip``."""
    from lessons_lib.checks.doctor import diagnose
    from lessons_lib.checks.verify import verify_roundtrip

    data = trace.to_dict()
    return [("diagnose", diagnose(data)), ("verify_roundtrip", verify_roundtrip(data, sabotage=False))]


def report_line(report: CheckReport) -> str:
    """One line from any verifier's report: its conclusion, or, for a report of checks, those that failed."""
    from lessons_lib.checks.verify_report import Report

    if not isinstance(report, Report):
        return report.verdict()
    failed = [c for c in report.checks if not c.passed]
    if not failed:
        return t("htmltable.verdict.all_pass")
    named = t("verdicts.sep").join(t("verdicts.check", name=c.name, reason=c.reason) for c in failed[:2])
    return t("verdicts.failed", checks=named)


def schema_check(trace: Trace, alias: JSON, arguments: JSON) -> str:
    """What a JSON Schema check of ``arguments`` against the ``parameters`` declared for ``alias`` says.

    With ``strict: false`` the Responses API does not enforce the schema; this is the check an
    application could run itself (``jsonschema``), shown for comparison.
    """
    return schema_check_result(trace, alias, arguments)[1]


def schema_check_result(trace: Trace, alias: JSON, arguments: JSON) -> tuple[Status, str]:
    """:func:`schema_check` with its status: ``pass``, ``fail``, or ``unchecked`` (nothing to check)."""
    tool = next((tool for tool in q.declared(trace) if tool.name == alias), None)
    if tool is None:
        return "unchecked", t("verdicts.no_tool", alias=alias)
    return schema_result(tool.schema, arguments)


def schema_text(parameters: JSON, arguments: JSON) -> str:
    """``通过`` or ``不通过：<the best jsonschema error>`` for one ``arguments`` text (current language)."""
    return schema_result(parameters, arguments)[1]


def schema_result(parameters: JSON, arguments: JSON) -> tuple[Status, str]:
    """:func:`schema_text` with its status, so that code compares the status, never the words."""
    import jsonschema

    try:
        value = json.loads(arguments) if isinstance(arguments, str) else arguments
    except ValueError:
        return "unchecked", t("verdicts.not_json")
    if not isinstance(parameters, dict):
        return "unchecked", t("verdicts.no_parameters")
    validator = jsonschema.validators.validator_for(parameters)(parameters)
    error = jsonschema.exceptions.best_match(validator.iter_errors(value))
    if error is None:
        return "pass", status_word("pass")
    return "fail", t("verdicts.schema_fail", error=error.message)
