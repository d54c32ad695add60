"""``python -m lessons_lib refresh [NOTEBOOK ...]``: run the lessons again and store their outputs.

For maintainers (CONTRIBUTING.md). Executes each notebook in place with ``nbclient`` in this
environment, then removes what would differ between machines or runs and that nbval does
not need: cell timing metadata, the kernel's patch version, the widget state and the random
model ids of widget views (a widget cell keeps its ``text/plain`` form; it is marked
``NBVAL_IGNORE_OUTPUT`` and has a static twin that nbval compares).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from lessons_lib.core.jsonvalue import JSON

if TYPE_CHECKING:
    from nbformat import NotebookNode

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def clean(nb: NotebookNode) -> JSON:
    """Drop the run- and machine-dependent parts of an executed notebook (in place)."""
    nb.metadata.pop("widgets", None)
    nb.metadata.get("language_info", {}).pop("version", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        for output in cell.get("outputs", []):
            output.get("data", {}).pop(WIDGET_VIEW, None)
    return nb


def refresh(path: Path, timeout: int = 180) -> None:
    """Execute one notebook from its own folder and write it back cleaned."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    nbformat.write(clean(nb), path)
