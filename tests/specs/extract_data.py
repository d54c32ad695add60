"""Refresh the schema copies the *package* reads at run time, in ``data/specs/`` (lessons 40-49).

Usage: ``python tests/specs/extract_data.py [SHARED_SPECS_DIR]``. It copies the three MCP JSON
schemas unchanged and cuts from the OpenAI API description only the ``components.schemas``
reachable from the tool declarations (``FunctionTool`` for Responses, ``ChatCompletionTool``
for Chat Completions, lesson 41) and the feedback items (``FunctionCallOutputItemParam``,
``ChatCompletionRequestToolMessage``, lesson 44). Deterministic; see data/specs/PROVENANCE.md.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from extract import DEFAULT_SHARED, SOURCE_COMMIT, reachable  # noqa: E402

OUT = Path(__file__).resolve().parents[2] / "data" / "specs"
MCP_REVISIONS = ("2025-06-18", "2025-11-25", "2026-07-28")
TOOL_ROOTS = (
    "ChatCompletionRequestToolMessage",
    "ChatCompletionTool",
    "FunctionCallOutputItemParam",
    "FunctionTool",
)


def extract(shared: Path) -> list[Path]:
    import yaml

    written = []
    for revision in MCP_REVISIONS:
        target = OUT / "mcp" / revision / "schema.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shared / "mcp" / revision / "schema.json", target)
        written.append(target)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with (shared / "openai" / "openapi.yaml").open(encoding="utf-8") as handle:
        document = yaml.load(handle, Loader=loader)
    subset = {
        "x-provenance": {
            "source": "openai/openai-openapi, openapi.yaml",
            "commit": SOURCE_COMMIT,
            "info_version": document["info"]["version"],
            "license": "MIT",
            "extracted_by": "tests/specs/extract_data.py",
            "roots": list(TOOL_ROOTS),
        },
        "components": {"schemas": reachable(document["components"]["schemas"], TOOL_ROOTS)},
    }
    target = OUT / "openai" / "tool_components.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(subset, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    written.append(target)
    return written


def main(argv: list[str]) -> int:
    shared = Path(argv[0]) if argv else DEFAULT_SHARED
    if not (shared / "openai" / "openapi.yaml").is_file():
        print(
            f"extract_data: no openai/openapi.yaml under {shared}; pass the shared/specs folder.",
            file=sys.stderr,
        )
        return 2
    for path in extract(shared):
        print(f"wrote {path.relative_to(OUT.parent.parent)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
