"""The round-trip checks of each model API's own, run for any API. Lesson 22.

``verify_roundtrip`` and ``diagnose`` accept a trace or round trip of any of the three APIs.
For Chat and Anthropic they first run that API's own checks (``apis/<name>/checks.py``, found
held by its registry entry's ``checks`` and ``trials``), which judge what only that API can get wrong, in
that API's own words; then the six Responses checks on the same exchange moved to the
Responses places (``lessons_lib.checks.apis.view.responses_view``). Each check names the link of
the doctor's troubleshooting order it belongs to. Each API's built-in sabotages (``TRIALS``
there, the entry's ``trials``): a copy broken that way must be rejected. Standard library only.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from lessons_lib.checks.verify_report import Check, run_check
from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.messages import t
from lessons_lib.core.plugins.apiregistry import api_entry
from lessons_lib.core.plugins.apitypes import CheckRow, TrialRow


def _checks(api: str) -> tuple[CheckRow, ...]:
    """The API's own checks, held by its registry entry (none for Responses)."""
    return tuple(api_entry(api).checks)


def _trials(api: str) -> tuple[TrialRow, ...]:
    return tuple(api_entry(api).trials)


def api_checks(rt: JSONObject, api: str) -> list[Check]:
    """The API's own checks on one round trip, in order (none for Responses)."""
    return [run_check(key, t(title), fn, rt) for key, title, _, fn in _checks(api)]


def api_problems(rt: JSONObject, api: str) -> list[tuple[str, str]]:
    """(link, reason) of every API check that fails, for the doctor."""
    links = {key: link for key, _, link, _ in _checks(api)}
    return [(links[c.key], c.reason) for c in api_checks(rt, api) if not c.passed]


def api_trials(rt: JSONObject, api: str, judge: Callable[[JSONObject], list[Check]]) -> list[Check]:
    """Each of the API's sabotages on a copy: PASS when ``judge`` (all checks) rejects it."""
    out = []
    for key, title, sabotage in _trials(api):
        try:
            broken = sabotage(copy.deepcopy(rt))
        except Exception as exc:  # a round trip too malformed to sabotage
            reason = t("verify_apis.cannot_sabotage", error=type(exc).__name__)
            out.append(Check(key, t(title), False, reason))
            continue
        failed = [c for c in judge(broken) if not c.passed]
        reasons = t("verify_apis.sep").join(
            t("verify_apis.reason", name=c.name, reason=c.reason) for c in failed[:2]
        )
        reason = t("verify_apis.rejected", reasons=reasons) if failed else t("verify_apis.not_rejected")
        out.append(Check(key, t(title), bool(failed), reason))
    return out
