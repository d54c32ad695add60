"""Every lesson ends with a link to the next lesson's notebook (issue 37 point 9), in both editions.

The test starts at lesson 00 and follows, from each lesson, the first link in its last two
markdown cells to a notebook with a higher number. It fails on a lesson without such a link
(except the course's last lesson), on a link to a file that does not exist beside the notebook,
and on a link that skips a lesson, so the chain from 00 reaches the last lesson through all.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from lessons_lib.core.paths import NOTEBOOK_DIR

LINK = re.compile(r"\]\(((\d\d)_[^)/\s]+\.ipynb)\)")
EDITIONS = {"zh": NOTEBOOK_DIR, "en": NOTEBOOK_DIR / "en"}


def _number(path: Path) -> int:
    return int(path.name[:2])


def next_link(notebook: Path) -> str | None:
    """The first link to a later lesson in the notebook's last two markdown cells, else None."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    ending = [c for c in cells if c["cell_type"] == "markdown"][-2:]
    text = "\n".join("".join(c["source"]) for c in ending)
    return next((m[1] for m in LINK.finditer(text) if int(m[2]) > _number(notebook)), None)


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_the_next_lesson_links_lead_from_00_to_the_last_lesson(edition: str) -> None:
    folder = EDITIONS[edition]
    lessons = sorted(folder.glob("[0-9][0-9]_*.ipynb"))
    assert lessons and lessons[0].name.startswith("00_")
    problems = []
    for here, expected in zip(lessons, lessons[1:], strict=False):
        target = next_link(here)
        if target is None:
            problems.append(f"{edition}/{here.name}: no link to the next lesson ({expected.name})")
        elif not (folder / target).is_file():
            problems.append(f"{edition}/{here.name}: links {target}, which does not exist")
        elif target != expected.name:
            problems.append(f"{edition}/{here.name}: links {target}, the next lesson is {expected.name}")
    assert not problems, "\n".join(problems)
