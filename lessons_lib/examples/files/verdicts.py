"""What the lab's runs are judged with: the verifiers' verdicts and a JSON Schema check. Lesson 09.

Shared by the what-if scenarios and the bad values (``lessons_lib.examples.files.scenarios``,
``lessons_lib.examples.files.badvalues``), so neither imports the other.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, TypeAlias

from lessons_lib.core import queries as q
from lessons_lib.core.jsonvalue import JSON
from lessons_lib.core.trace import Trace

if TYPE_CHECKING:
    from lessons_lib.checks.doctor import Diagnosis
    from lessons_lib.checks.verify_report import Report

Verdict: TypeAlias = "tuple[str, Diagnosis | Report]"


def verifiers(trace: Trace) -> list[Verdict]:
    """(name, report) from ``diagnose`` and ``verify_roundtrip``."""
    from lessons_lib.checks.doctor import diagnose
    from lessons_lib.checks.verify import verify_roundtrip

    data = trace.to_dict()
    return [("diagnose", diagnose(data)), ("verify_roundtrip", verify_roundtrip(data, sabotage=False))]


def verdict_line(report: Diagnosis | Report) -> str:
    """One line from a verifier report: its verdict, or PASS/FAIL counts."""
    from lessons_lib.checks.doctor import Diagnosis

    if isinstance(report, Diagnosis):
        return report.verdict()
    failed = [c for c in report.checks if not c.passed]
    return "全部通过" if not failed else "未通过：" + "；".join(f"{c.name}（{c.reason}）" for c in failed[:2])


def schema_check(trace: Trace, alias: JSON, arguments: JSON) -> str:
    """What a JSON Schema check of ``arguments`` against the ``parameters`` declared for ``alias`` says.

    With ``strict: false`` the Responses API does not enforce the schema; this is the check an
    application could run itself (``jsonschema``), shown for comparison.
    """
    tool = next((t for t in q.declared(trace) if t.name == alias), None)
    if tool is None:
        return f"无法检查：没有名为 {alias} 的工具声明"
    return schema_verdict(tool.schema, arguments)


def schema_verdict(parameters: JSON, arguments: JSON) -> str:
    """``通过`` or ``不通过：<the best jsonschema error>`` for one ``arguments`` text."""
    import jsonschema

    try:
        value = json.loads(arguments) if isinstance(arguments, str) else arguments
    except ValueError:
        return "无法检查：arguments 不是合法的 JSON 文本"
    if not isinstance(parameters, dict):
        return "无法检查：声明里没有 parameters 对象"
    validator = jsonschema.validators.validator_for(parameters)(parameters)
    error = jsonschema.exceptions.best_match(validator.iter_errors(value))
    return "通过" if error is None else f"不通过：{error.message}"
