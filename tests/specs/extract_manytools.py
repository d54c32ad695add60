"""Refresh ``data/specs/openai/many_tools_components.json`` (lesson 51) from ``shared/specs``.

Usage: ``python tests/specs/extract_manytools.py [SHARED_SPECS_DIR]``. It cuts from the OpenAI
API description only the ``components.schemas`` reachable from the shapes lesson 51 builds:
``allowed_tools`` for Responses and Chat Completions, namespaces, the ``tool_search`` tool,
function tools (with ``defer_loading``) and the body of ``POST /v1/responses/input_tokens``.
Each schema is unchanged; the output is deterministic.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from extract import DEFAULT_SHARED, SOURCE_COMMIT, reachable  # noqa: E402

OUT = Path(__file__).resolve().parents[2] / "data" / "specs" / "openai" / "many_tools_components.json"
ROOTS = (
    "ChatCompletionAllowedToolsChoice",
    "ChatCompletionTool",
    "FunctionTool",
    "NamespaceToolParam",
    "TokenCountsBody",
    "ToolChoiceAllowed",
    "ToolSearchToolParam",
)


def main(argv: list[str]) -> int:
    import yaml

    shared = Path(argv[0]) if argv else DEFAULT_SHARED
    source = shared / "openai" / "openapi.yaml"
    if not source.is_file():
        print(
            f"extract_manytools: no openai/openapi.yaml under {shared}; pass the shared/specs folder.",
            file=sys.stderr,
        )
        return 2
    with source.open(encoding="utf-8") as handle:
        document = yaml.load(handle, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    subset = {
        "x-provenance": {
            "source": "openai/openai-openapi, openapi.yaml",
            "commit": SOURCE_COMMIT,
            "info_version": document["info"]["version"],
            "license": "MIT",
            "extracted_by": "tests/specs/extract_manytools.py",
            "roots": list(ROOTS),
            "input_tokens_path": {
                "post": {"operationId": document["paths"]["/responses/input_tokens"]["post"]["operationId"]}
            },
        },
        "components": {"schemas": reachable(document["components"]["schemas"], ROOTS)},
    }
    OUT.write_text(json.dumps(subset, ensure_ascii=False, indent=1) + "\n", encoding="utf-8", newline="\n")
    print(f"wrote {OUT.name}: {len(subset['components']['schemas'])} schemas")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
