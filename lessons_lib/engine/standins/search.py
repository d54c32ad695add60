"""The offline stand-in's rule for ``search_notes`` (lesson 12). A stand-in rule, not a model.

When the chosen tool is a ``search_notes``, the stand-in fills its ``arguments`` from the task
text by a fixed rule: ``query`` is the first text in quotes (“…”, "…" or 「…」), ``limit`` the N
of "最多 N 条" (or "at most N"), and nothing else. A real model reads the tool's description and
``inputSchema`` instead, may pick other words to search for, may leave ``limit`` out or search
again with another query after reading the result.
"""

from __future__ import annotations

import json
import re
from typing import Final

from lessons_lib.core.example import ALIAS_SEPARATOR

SEARCH_TOOL: Final = "search_notes"
_QUOTED: Final = re.compile(r"“([^”]+)”|\"([^\"]+)\"|「([^」]+)」")
_LIMIT: Final = re.compile(r"最多\s*(\d+)\s*条|at most\s+(\d+)", re.I)


def is_search(alias: str) -> bool:
    """True when the alias names a ``search_notes`` tool (``notes__search_notes``)."""
    return alias.rsplit(ALIAS_SEPARATOR, 1)[-1] == SEARCH_TOOL


def search_arguments(task: str) -> str:
    """The ``arguments`` JSON text the stand-in sends to ``search_notes`` for this task."""
    args: dict[str, object] = {}
    quoted = _QUOTED.search(task)
    if quoted:
        args["query"] = next(g for g in quoted.groups() if g)
    limit = _LIMIT.search(task)
    if limit:
        args["limit"] = int(limit.group(1) or limit.group(2))
    return json.dumps(args, ensure_ascii=False)
