"""Refresh the official schema copies in ``tests/specs/`` from a ``shared/specs`` folder.

Usage: ``python tests/specs/extract.py [SHARED_SPECS_DIR]`` (default: ``../shared/specs`` next to
the repository). It copies the MCP JSON schemas unchanged and cuts from the OpenAI API
description (``openapi.yaml``, about 3 MB) only ``components.schemas`` reachable from
``CreateResponse`` and ``Response`` (and, into a second file, from the two Chat Completions
roots), so ``#/components/schemas/...`` references still resolve.
The output is deterministic: running it twice gives the same bytes. See PROVENANCE.md.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_SHARED = HERE.parents[2] / "shared" / "specs"
MCP_REVISIONS = ("2025-06-18", "2025-11-25")
ROOTS = ("CreateResponse", "Response")
OPENAI_OUT = HERE / "openai" / "responses_components.json"
CHAT_ROOTS = ("CreateChatCompletionRequest", "CreateChatCompletionResponse")
CHAT_OUT = HERE / "openai" / "chat_components.json"
SOURCE_COMMIT = "f85dbe223d40e1a31cba812ab2d755c7e98a92a3"


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def reachable(schemas: dict[str, Any], roots: tuple[str, ...] = ROOTS) -> dict[str, Any]:
    """The named schemas reachable from ``roots`` through ``$ref``, sorted by name."""
    prefix = "#/components/schemas/"
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for ref in _refs(schemas[name]):
            if not ref.startswith(prefix):
                raise ValueError(f"{name}: unexpected reference {ref}")
            todo.append(ref[len(prefix) :])
    return {name: schemas[name] for name in sorted(seen)}


def extract(shared: Path) -> list[Path]:
    import yaml

    written = []
    for revision in MCP_REVISIONS:
        target = HERE / "mcp" / revision / "schema.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shared / "mcp" / revision / "schema.json", target)
        written.append(target)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with (shared / "openai" / "openapi.yaml").open(encoding="utf-8") as handle:
        document = yaml.load(handle, Loader=loader)
    for roots, out in ((ROOTS, OPENAI_OUT), (CHAT_ROOTS, CHAT_OUT)):
        subset = {
            "x-provenance": {
                "source": "openai/openai-openapi, openapi.yaml",
                "commit": SOURCE_COMMIT,
                "info_version": document["info"]["version"],
                "license": "MIT",
                "extracted_by": "tests/specs/extract.py",
                "roots": list(roots),
            },
            "components": {"schemas": reachable(document["components"]["schemas"], roots)},
        }
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(subset, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        written.append(out)
    return written


def main(argv: list[str]) -> int:
    shared = Path(argv[0]) if argv else DEFAULT_SHARED
    if not (shared / "openai" / "openapi.yaml").is_file():
        print(
            f"extract: no openai/openapi.yaml under {shared}; pass the shared/specs folder.", file=sys.stderr
        )
        return 2
    for path in extract(shared):
        print(f"wrote {path.relative_to(HERE)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
