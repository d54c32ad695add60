"""The calls of a run round by round: parallel calls side by side, dependencies drawn. Lesson 31.

Drawn from a real trace, through its ledger: each model reply fans out into its calls (one
box per ``call_id``, on one rank: they ran at the same time), the results come back together
as the next request's feedback, paired by ``call_id``. A dashed arrow marks a dependency: a
call whose arguments carry a value that only an earlier call's result held (the waybill
number from ``get_order``). A failed model request (HTTP 5xx) is drawn where it happened.
"""

from __future__ import annotations

import json
from typing import Final

from lessons_lib.checks.ledger import LedgerRow, ledger
from lessons_lib.core.glossary import STATUSES
from lessons_lib.core.jsonvalue import get_in
from lessons_lib.core.messages import t
from lessons_lib.core.plugins.apishapes import feedback_items
from lessons_lib.core.traces import queries as q
from lessons_lib.views.dot import Diagram, box, digraph, edge_label, same_rank

_DONE: Final = ("ok", "created", "replayed")  # the call did its work (a replay returns the first write)


def _fill(status: str) -> str:
    """A call's box in the verdict colours (``glossary.STATUSES``); its label names the status too."""
    return STATUSES["pass" if status in _DONE else "fail"].background


def _values(arguments: str) -> list[str]:
    try:
        parsed = json.loads(arguments)
    except ValueError:
        return []
    return (
        [v for v in parsed.values() if isinstance(v, str) and len(v) >= 4] if isinstance(parsed, dict) else []
    )


def _dependencies(trace: object, rows: list[LedgerRow]) -> list[tuple[int, int, str]]:
    """(earlier row, later row, value): the later call's argument appears only in the earlier result."""
    task = get_in(q.as_data(trace), "task")
    requests = {r.n: r.request for r in q.model_rounds(trace)}
    found = []
    for j, later in enumerate(rows):
        # only results the model had in front of it when it made this call
        seen = {str(f.call_id): f.text() or "" for f in feedback_items(requests.get(later.round))}
        for value in _values(later.arguments):
            if isinstance(task, str) and value in task:
                continue  # the user gave it: no dependency
            for i, earlier in enumerate(rows[:j]):
                if value in seen.get(earlier.call_id, ""):
                    found.append((i, j, value))
                    break
    return found


def call_flow(trace: object) -> Diagram:
    """The run's calls per round, parallel ones side by side (lesson 31)."""
    rows = ledger(trace)
    labels = [e.get("label", "") for e in q.events(trace)]
    g = digraph("callflow", rankdir="TB", nodesep="0.25", ranksep="0.3", pad="0.2")
    text = [t("orders_callflow.title")]
    prev = "start"
    box(g, "start", t("orders_callflow.task"), fillcolor="#F2F2F2")
    for k in sorted({r.round for r in rows}):
        mine = [(n, r) for n, r in enumerate(rows) if r.round == k]
        head = f"r{k}"
        box(g, head, t("orders_callflow.response", k=k, n=len(mine)), fillcolor="#F2F2F2")
        g.edge(prev, head)
        for n, r in mine:
            shown = r.arguments if len(r.arguments) <= 44 else r.arguments[:42] + "…"
            label = f"{r.call_id}\n{r.alias}\n{shown}\n→ {r.status}"
            box(g, f"c{n}", label, fontsize=10, fillcolor=_fill(r.status))
            g.edge(head, f"c{n}")
        same_rank(g, [f"c{n}" for n, _ in mine])
        back = f"f{k}"
        note = t("orders_callflow.http_error") if f"http_error_{k + 1}" in labels else ""
        box(g, back, t("orders_callflow.request", k=k + 1, n=len(mine), note=note), fillcolor="#F2F2F2")
        for n, _ in mine:
            g.edge(f"c{n}", back)
        calls = t("orders_callflow.sep").join(f"{r.alias}({r.arguments}) → {r.status}" for _, r in mine)
        text.append(t("orders_callflow.round", k=k) + calls)
        if note and any(r.round > k for r in rows):  # lesson 32: the failed request, in the text too
            text.append(t("p2a.callflow.failed", k=k + 1, next=k + 2))
        prev = back
    box(g, "answer", t("orders_callflow.answer"), fillcolor="#F2F2F2")
    g.edge(prev, "answer")
    for i, j, value in _dependencies(trace, rows):
        g.edge(
            f"c{i}", f"c{j}", label=edge_label(value), style="dashed", color="#1565C0", fontcolor="#1565C0"
        )
        text.append(t("orders_callflow.depends", later=rows[j].call_id, earlier=rows[i].call_id, value=value))
    return Diagram("callflow", g.source, "\n".join(text))
