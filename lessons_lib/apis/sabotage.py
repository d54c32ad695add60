"""The sabotage catalogue of the two newer APIs: mistakes only Chat or Anthropic code can make. Lesson 22.

Each entry of ``API_SABOTAGES`` makes one mistake in a copy of a good trace of its API (the
edits are those of ``apis/<name>/checks.py``, applied to the trace's own bodies) and names
the link of the troubleshooting order it should break. ``run_api_sabotage(name)`` applies it to
``data/<api>/trace.json`` and shows how ``verify_fields``, ``verify_roundtrip`` and
``diagnose`` answer, like ``run_sabotage`` does for part one's catalogue. Standard library only.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Final

from lessons_lib.apis.anthropic.checks import stringify_input, tool_result_as_assistant
from lessons_lib.apis.chat.checks import drop_tool_call_id
from lessons_lib.checks.attachments import roundtrip_from_trace
from lessons_lib.checks.doctor import diagnose
from lessons_lib.checks.evidence import as_dict, model_body, require_trace
from lessons_lib.checks.jsoncheck import Fail, load_json
from lessons_lib.checks.sabotage import Catalogue, Sabotage, SabotageOutcome, Said
from lessons_lib.checks.verify import verify_fields, verify_roundtrip
from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.messages import t
from lessons_lib.core.plugins.apiregistry import api_entry

Edit = Callable[[JSONObject], JSONObject]


def _on_trace(edit: Edit) -> Callable[[object], JSONObject]:
    """A round-trip edit applied to a copy of a trace: the round trip's parts are the trace's bodies."""

    def apply(trace: object) -> JSONObject:
        t = require_trace(copy.deepcopy(as_dict(trace)))
        edit({"response_1": model_body(t, "response_1"), "request_2": model_body(t, "request_2")})
        return t

    return apply


def _entry(api: str, name: str, edit: Edit, link: str) -> Sabotage:
    """One entry, its texts (``api_sabotage.<name>.*``) looked up each time they are shown."""
    title = Said(f"api_sabotage.{name}.title")
    mistake = Said("api_sabotage.mistake", (("api", api_entry(api).title), ("title", title)))
    return Sabotage(name, title, mistake, Said(f"api_sabotage.{name}.change"), link, _on_trace(edit))


class ApiCatalogue(Catalogue):
    """The API-specific entries; shown like part one's catalogue, under their own heading."""

    def text(self) -> str:
        lines = super().text().split("\n")
        return "\n".join([t("api_sabotage.heading"), *lines[1:]])


ENTRIES: Final[tuple[tuple[str, str, Edit, str], ...]] = (
    # (API, name, the edit of apis/<api>/checks.py, the link it should break); texts: api_sabotage.<name>.*
    ("chat", "chat_tool_call_id_missing", drop_tool_call_id, "ids"),
    ("anthropic", "anthropic_input_stringified", stringify_input, "parse"),
    ("anthropic", "anthropic_tool_result_as_assistant", tool_result_as_assistant, "next_input"),
)
API_OF: Final = {name: api for api, name, _, _ in ENTRIES}
API_SABOTAGES: Final = ApiCatalogue(tuple(_entry(api, name, edit, link) for api, name, edit, link in ENTRIES))
"""The API catalogue (lesson 22): built once, like part one's ``SABOTAGES``, its texts in the
language in force each time it is shown, so a later ``set_language`` reaches it."""


def run_api_sabotage(name: str, trace: object = None) -> SabotageOutcome:
    """Apply one API catalogue entry (to ``data/<api>/trace.json`` by default) and check it. Lesson 22."""
    entry = API_SABOTAGES.get(name)
    if trace is None:
        from lessons_lib.core.paths import DATA_DIR

        try:
            trace = load_json(DATA_DIR / API_OF[name] / "trace.json")
        except Fail as exc:
            raise ValueError(str(exc)) from None
    broken = entry.apply(trace)
    return SabotageOutcome(
        entry,
        verify_fields(broken),
        verify_roundtrip(roundtrip_from_trace(broken) | {"api": API_OF[name]}, sabotage=False),
        diagnose(broken),
    )
