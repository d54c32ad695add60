"""What-if lab: change one condition, run the real chain again, see which fields change. Lesson 09.

``compare_head(20, 5)`` runs the offline loop twice and lines up every field of every message
along the chain (declaration, call, execution, feedback) in a :class:`ChangeTable`: the task
text, the ``arguments`` text, the parsed ``head``, MCP ``params.arguments.head``, the lines
read, ``content``, ``function_call_output.output`` and the answer change; the schema's
``type: "number"``, the tool name, the alias and the path do not. The slider view lives in
``lessons_lib.examples.files.widgets`` (``head_view``, ``head_lab``); the other what-ifs in ``scenarios``.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from types import SimpleNamespace
from typing import TYPE_CHECKING, Final

from lessons_lib.core.example import EXAMPLE_HEAD, EXAMPLE_PATH
from lessons_lib.core.glossary import STEPS, Kind, Step
from lessons_lib.core.jsonvalue import JSON, JSONObject
from lessons_lib.core.messages import language, t, text_in, zh
from lessons_lib.core.plugins.apiregistry import is_reference
from lessons_lib.core.traces import queries as q
from lessons_lib.views.changecounts import MessageRef
from lessons_lib.views.changetable import ABSENT, ChangeRow, ChangeTable, same_value

if TYPE_CHECKING:
    from lessons_lib.core.traces.trace import Trace


PARSED: Final = zh("whatif.parsed")
"""Derived message: the application's ``json.loads`` of the ``arguments`` text."""
LINES: Final = zh("whatif.lines")
"""Derived message: how many lines the service returned, and the first and last one."""
ANSWER: Final = zh("whatif.answer")
"""Derived message: the answer the application shows the user (``trace.answer``)."""
DERIVED: Final = ("parsed", "lines", "answer")
"""The derived messages; their names above are the Chinese ones, :func:`derived` gives the current one."""


def derived(which: str) -> str:
    """A derived message's name in the current language (``读出的行`` / ``lines read``)."""
    return t(f"whatif.{which}")


_ABOUT: Final = ("tools/list", "request_1", "response_1", "parsed", "mcp_request", "mcp_response", "lines",
                 "request_2", "response_2", "answer")  # fmt: skip
"""The compared messages the captions name (``第 6 条消息 request_1（第一次模型请求）``)."""


@cache
def _derived_ids(lang: str) -> dict[str, str]:
    """The derived messages' names in ``lang`` -> their ids (``读出的行`` -> ``lines``)."""
    return {text_in(lang, f"whatif.{d}"): d for d in DERIVED}


def about(name: str) -> str:
    """What a compared message (``mcp_request#2`` too) is, in the current language; else its name."""
    base = name.split("#")[0]
    base = _derived_ids(language()).get(base, base)
    return t(f"whatif.about.{base}") if base in _ABOUT else name


KEY_FIELDS: Final[tuple[tuple[str, str, str], ...]] = (
    # (message or derived id, path pattern with [*] for any index, what to look at: catalogue whatif.key.*)
    ("request_1", "input[*].content", "task"),
    ("request_1", "tools[*].name", "alias"),
    ("request_1", "tools[*].parameters.properties.head.type", "head_type"),
    ("request_1", "tools[*].parameters.properties.tail.type", "tail_type"),
    ("response_1", "output[*].name", "chosen"),
    ("response_1", "output[*].call_id", "call_id"),
    ("response_1", "output[*].arguments", "arguments"),
    ("parsed", "path", "path"),
    ("parsed", "head", "head"),
    ("parsed", "tail", "tail"),
    ("mcp_request", "id", "mcp_id"),
    ("mcp_request", "params.name", "mcp_name"),
    ("mcp_request", "params.arguments.path", "mcp_path"),
    ("mcp_request", "params.arguments.head", "mcp_head"),
    ("mcp_request", "params.arguments.tail", "mcp_tail"),
    ("mcp_response", "result.content[*].text", "content"),
    ("mcp_response", "result.isError", "is_error"),
    ("lines", "line_count", "line_count"),
    ("lines", "last_line", "last_line"),
    ("request_2", "input[*].output", "output"),
    ("response_2", "output[*].content[*].text", "answer_text"),
    ("answer", "answer", "answer"),
)
_KEY_RE: Final = [
    (m, re.compile(re.escape(p).replace(r"\[\*\]", r"\[\d+\]")), note) for m, p, note in KEY_FIELDS
]


# ------------------------------------------------------------------ the messages of one run
@dataclass(frozen=True)
class ChainMessage:
    """One message along the chain; ``kind`` set means every field of it has that kind (derived).

    ``number`` is the message's position in the trace from 1 (lesson 05's numbering); a derived
    item has none and names in ``source`` the message it is read from.
    """

    step: Step
    name: str
    body: JSON
    kind: Kind | None = None
    number: int | None = None
    source: int | None = None

    def ref(self) -> MessageRef:
        return MessageRef(self.name, about(self.name), self.number, self.source)


def _nth(name: str, i: int) -> str:
    return name if i == 0 else f"{name}#{i + 1}"


def chain_messages(trace: Trace) -> list[ChainMessage]:
    """A run's messages in chain order, plus three derived ones (parsed arguments, lines read, answer)."""
    listed = [x for x in q.mcp_exchanges(trace, "tools/list") if x.reply is not None]
    msgs = [
        ChainMessage("declaration", _nth("tools/list", i), x.reply, number=_num(x.reply_at))
        for i, x in enumerate(listed)
        if x.reply is not None
    ]
    at = {e.get("label"): n + 1 for n, e in reversed(list(enumerate(q.events(trace))))}
    rounds = q.model_rounds(trace)
    if rounds:
        msgs.append(ChainMessage("declaration", "request_1", rounds[0].request, number=at.get("request_1")))
    if rounds and rounds[0].response is not None:
        called = at.get("response_1")
        msgs.append(ChainMessage("call", "response_1", rounds[0].response, number=called))
        for i, call in enumerate(q.calls(trace, 1)):
            parsed = _parsed(call.arguments)
            msgs.append(ChainMessage("call", _nth(derived("parsed"), i), parsed, "value", source=called))
    for i, x in enumerate(q.mcp_exchanges(trace)):
        msgs.append(ChainMessage("execution", _nth("mcp_request", i), x.request, number=_num(x.request_at)))
        if x.reply is not None:
            replied = _num(x.reply_at)
            msgs.append(ChainMessage("execution", _nth("mcp_response", i), x.reply, number=replied))
            lines = _lines_read(x.reply)
            msgs.append(ChainMessage("execution", _nth(derived("lines"), i), lines, "result", source=replied))
    later = {e["label"]: e["body"] for e in q.events(trace) if e.get("channel") == "model"}
    for label, body in later.items():
        if label not in {"request_1", "response_1"}:
            msgs.append(ChainMessage("feedback", label, body, number=at.get(label)))
    last = next((m.number for m in reversed(msgs) if m.name.startswith("response_")), None)
    msgs.append(ChainMessage("feedback", derived("answer"), {"answer": trace.answer}, "value", source=last))
    return msgs


def _num(position: int | None) -> int | None:
    return None if position is None else position + 1


def _parsed(arguments: JSON) -> JSON:
    if isinstance(arguments, dict):  # Anthropic's input is already an object
        return arguments
    try:
        value: JSON = (
            json.loads(arguments) if isinstance(arguments, str) else {t("whatif.unparsable"): arguments}
        )
    except ValueError:
        return {t("whatif.unparsable"): arguments}
    return value if isinstance(value, dict) else {t("whatif.not_object"): value}


def _lines_read(reply: JSONObject) -> JSONObject:
    if q.reply_is_error(reply) is not False:
        return {"line_count": 0}
    text = q.reply_text(reply)
    lines = text.split("\n") if text else []
    return {
        "line_count": len(lines),
        "first_line": lines[0] if lines else None,
        "last_line": lines[-1] if lines else None,
    }


def leaves(msg: ChainMessage) -> Iterator[tuple[str, JSON, Kind]]:
    """(path, value, kind) for every leaf field, kinds from ``lessons_lib.core.fieldkinds.kinds``' tables."""
    from lessons_lib.core.fieldkinds.kinds import walk
    from lessons_lib.core.fieldpath import format_path

    for f in walk(msg.body):
        if f.path and (not isinstance(f.value, dict | list) or not f.value):
            yield format_path(f.path), f.value, msg.kind or f.kind


def _key_note(message: str, path: str, ids: dict[str, str]) -> str | None:
    """The key field's note; ``ids`` maps the derived names of the current language to their ids."""
    base = message.split("#")[0]
    base = ids.get(base, base)
    note = next((note for m, rx, note in _KEY_RE if m == base and rx.fullmatch(path)), None)
    return None if note is None else t(f"whatif.key.{note}")


Fields = dict[str, tuple[JSON, Kind]]
Chain = list[tuple[ChainMessage, Fields]]


def chain_fields(trace: Trace) -> Chain:
    """Every message of a run with its leaf fields: path -> (value, kind)."""
    return [(m, {p: (v, k) for p, v, k in leaves(m)}) for m in chain_messages(trace)]


def compare_runs(before: Trace, after: Trace, labels: tuple[str, str] | None = None) -> ChangeTable:
    """Line up every field of every message of two runs; mark what changed. Lesson 09."""
    return compare_chains(chain_fields(before), chain_fields(after), labels)


def compare_chains(before: Chain, after: Chain, labels: tuple[str, str] | None = None) -> ChangeTable:
    """:func:`compare_runs` on runs already split into fields (see :func:`chain_fields`).

    ``labels`` name the two runs (default ``改前``, ``改后`` in the current language).
    """
    sides = [{m.name: (m, f) for m, f in chain} for chain in (before, after)]
    names = sorted(set(sides[0]) | set(sides[1]), key=lambda n: _order(n, sides))
    rows: list[ChangeRow] = []
    refs: list[MessageRef] = []
    ids = _derived_ids(language())
    for name in names:
        msg = (sides[0].get(name) or sides[1][name])[0]
        refs.append(msg.ref())
        fields: list[Fields] = [s[name][1] if name in s else {} for s in sides]
        for path in list(fields[0]) + [p for p in fields[1] if p not in fields[0]]:
            (b, b_kind), (a, a_kind) = (f.get(path, (ABSENT, None)) for f in fields)
            kind: Kind = b_kind or a_kind or "envelope"
            note = _key_note(name, path, ids) or ""
            rows.append(ChangeRow(msg.step, name, path, kind, b, a, not same_value(b, a), note))
    return ChangeTable(rows, labels, messages=refs)


def _order(name: str, sides: list[dict[str, tuple[ChainMessage, Fields]]]) -> tuple[int, int, int]:
    for s, side in enumerate(sides):
        if name in side:
            return STEPS.index(side[name][0].step), list(side).index(name), s
    return len(STEPS), 0, 0


# ------------------------------------------------------------------ runs for head / tail values
def notes_line_count(path: str = EXAMPLE_PATH) -> int:
    """How many lines the example file has (the slider's maximum)."""
    from lessons_lib.services.files.service import FileService, select_lines

    service = FileService()
    text = service.locate(service.logical(path)).read_text(encoding="utf-8")
    return len(select_lines(text, head=10**9).split("\n"))


def _count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a whole number of lines, at least 1 (got {value!r})")
    return value


def cached_run(head: int | None = EXAMPLE_HEAD, tail: int | None = None, path: str = EXAMPLE_PATH) -> Trace:
    """The offline run for these settings, computed once per process (treat the trace as read-only)."""
    return _cached(head, tail, path)[0]


_Key = tuple[int | None, int | None, str, str | None, str]
"""head, tail, path, api (None: the reference API) and the language of one cached run."""


class _RunCache:
    """The offline runs of this process, least recently used dropped first (at most ``size``).

    One store answers both "give me the run" and "has it run?", so :func:`has_run` can never
    say yes for a run the cache has dropped (a set kept beside an ``lru_cache`` did). Like
    ``functools.lru_cache`` it offers ``cache_info().misses`` and ``cache_clear()``.
    """

    def __init__(self, size: int) -> None:
        self.size, self.misses = size, 0
        self._runs: OrderedDict[_Key, tuple[Trace, Chain]] = OrderedDict()

    def __contains__(self, key: _Key) -> bool:
        return key in self._runs

    def __call__(
        self, head: int | None, tail: int | None, path: str, api: str | None = None
    ) -> tuple[Trace, Chain]:
        key = (head, tail, path, api, language())
        if key in self._runs:
            self._runs.move_to_end(key)
            return self._runs[key]
        from lessons_lib.engine.host import run_chain

        self.misses += 1
        trace = run_chain(path=path, head=head, tail=tail, api=api)
        self._runs[key] = (trace, chain_fields(trace))
        if len(self._runs) > self.size:
            self._runs.popitem(last=False)
        return self._runs[key]

    def cache_info(self) -> SimpleNamespace:
        return SimpleNamespace(misses=self.misses, currsize=len(self._runs), maxsize=self.size)

    def cache_clear(self) -> None:
        self._runs.clear()
        self.misses = 0


_cached = _RunCache(256)


def has_run(head: int | None = EXAMPLE_HEAD, tail: int | None = None, path: str = EXAMPLE_PATH) -> bool:
    """Whether :func:`cached_run` already holds this run (the slider says so, lesson 09)."""
    return (head, tail, path, None, language()) in _cached


def compare_head(
    before: int = EXAMPLE_HEAD, after: int = 5, *, path: str = EXAMPLE_PATH, api: str | None = None
) -> ChangeTable:
    """Run the chain with ``head=before`` and ``head=after`` and compare field by field. Lesson 09.

    ``api`` (lesson 20): the same what-if through Chat Completions or Anthropic Messages (None:
    the reference API, Responses).
    """
    b, a = _count("head", before), _count("head", after)
    return compare_chains(_chain(b, path, api), _chain(a, path, api), (f"head={b}", f"head={a}"))


def _chain(head: int, path: str, api: str | None) -> Chain:
    """One cached head run; Responses keeps the key the slider warms (``api`` None, lesson 09)."""
    return _cached(head, None, path, None if api is None or is_reference(api) else api)[1]


def compare_tail(before: int = EXAMPLE_HEAD, after: int = 5, *, path: str = EXAMPLE_PATH) -> ChangeTable:
    """The same comparison for ``tail`` (the last N lines). Lesson 09."""
    b, a = _count("tail", before), _count("tail", after)
    return compare_chains(_cached(None, b, path)[1], _cached(None, a, path)[1], (f"tail={b}", f"tail={a}"))


__all__ = ["compare_head", "compare_runs", "compare_tail"]
