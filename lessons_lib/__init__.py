"""lessons_lib: the library behind the course notebooks.

One tool call followed end to end: ``read_text_file`` on an MCP file service, declared to an
OpenAI Responses model, run by an application loop. Importing this package is cheap and has
no side effects: every public name below is loaded from its module on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

# public name -> module that defines it
_EXPORTS: dict[str, str] = {
    # vocabulary and example values
    "KINDS": "lessons_lib.glossary",
    "STEPS": "lessons_lib.glossary",
    "STEP_ZH": "lessons_lib.glossary",
    "DATA_DIR": "lessons_lib.paths",
    "WORKSPACE_DIR": "lessons_lib.paths",
    "LOGICAL_ROOT": "lessons_lib.paths",
    "TASK": "lessons_lib.example",
    "MODEL_NAME": "lessons_lib.example",
    "task_text": "lessons_lib.example",
    # engine (lessons 01-06)
    "FileService": "lessons_lib.fileservice",
    "build_server": "lessons_lib.fileservice",
    "read_text_file": "lessons_lib.fileservice",
    "run_chain": "lessons_lib.host",
    "Trace": "lessons_lib.trace",
    "load_trace": "lessons_lib.trace",
    "load_fixture": "lessons_lib.record",
    "record_fixtures": "lessons_lib.record",
    "live_status": "lessons_lib.models",
    # verifiers (lessons 07-08)
    "verify_fields": "lessons_lib.verify",
    "verify_roundtrip": "lessons_lib.verify",
    "SABOTAGES": "lessons_lib.sabotage",
    "run_sabotage": "lessons_lib.sabotage",
    "diagnose": "lessons_lib.doctor",
    # views (lessons 03-06)
    "field_tree": "lessons_lib.fieldtree",
    "side_by_side": "lessons_lib.sidebyside",
    "actors_diagram": "lessons_lib.diagrams",
    "loop_diagram": "lessons_lib.diagrams",
    "chain_diagram": "lessons_lib.diagrams",
    "trace_diagram": "lessons_lib.diagrams",
    "Diagram": "lessons_lib.diagrams",
    "FieldTree": "lessons_lib.fieldtree",
    "kind_of": "lessons_lib.kinds",
    "detect_type": "lessons_lib.kinds",
    "renderer_name": "lessons_lib.dot",
    "render_svg": "lessons_lib.dot",
    # lessons' helpers
    "questions": "lessons_lib.quiz",
    "check": "lessons_lib.quiz",
    "narrate": "lessons_lib.narrate",
    "try_live": "lessons_lib.live",
    "environment_check": "lessons_lib.envcheck",
    # what-if (lesson 09)
    "compare_runs": "lessons_lib.whatif",
    "head_lab": "lessons_lib.whatif",
    "compare_head": "lessons_lib.whatif",
    "compare_tail": "lessons_lib.whatif",
    "head_view": "lessons_lib.whatif",
    "SCENARIOS": "lessons_lib.scenarios",
    "run_scenario": "lessons_lib.scenarios",
    "BAD_VALUES": "lessons_lib.badvalues",
    "run_bad_value": "lessons_lib.badvalues",
    "bad_values_table": "lessons_lib.badvalues",
    # quick reference (lesson 10)
    "quick_reference": "lessons_lib.cheatsheet",
    "command_list": "lessons_lib.cheatsheet",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'lessons_lib' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
