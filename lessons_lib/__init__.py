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
    "KINDS": "lessons_lib.core.glossary",
    "STEPS": "lessons_lib.core.glossary",
    "STEP_ZH": "lessons_lib.core.glossary",
    "TERMS_ZH": "lessons_lib.core.glossary",
    "colour_legend": "lessons_lib.views.legend",
    "left_aligned": "lessons_lib.views.frames",
    "DATA_DIR": "lessons_lib.core.paths",
    "WORKSPACE_DIR": "lessons_lib.core.paths",
    "LOGICAL_ROOT": "lessons_lib.core.paths",
    "TASK": "lessons_lib.core.example",
    "MODEL_NAME": "lessons_lib.core.example",
    "task_text": "lessons_lib.core.example",
    "FAILURE_PREFIX": "lessons_lib.core.example",
    # engine (lessons 01-06)
    "FileService": "lessons_lib.engine.fileservice",
    "build_server": "lessons_lib.engine.fileservice",
    "read_text_file": "lessons_lib.engine.fileservice",
    "service_reads": "lessons_lib.engine.fileservice",
    "run_chain": "lessons_lib.engine.host",
    "Limits": "lessons_lib.engine.host",
    "Script": "lessons_lib.engine.host",
    "INPUT_SCHEMA": "lessons_lib.engine.fileservice",
    "Trace": "lessons_lib.core.trace",
    "load_trace": "lessons_lib.core.trace",
    "load_fixture": "lessons_lib.course.record",
    "record_fixtures": "lessons_lib.course.record",
    "live_status": "lessons_lib.engine.models",
    # verifiers (lessons 07-08)
    "verify_fields": "lessons_lib.checks.verify",
    "verify_roundtrip": "lessons_lib.checks.verify",
    "SABOTAGES": "lessons_lib.checks.sabotage",
    "run_sabotage": "lessons_lib.checks.sabotage",
    "diagnose": "lessons_lib.checks.doctor",
    # views (lessons 03-06)
    "field_tree": "lessons_lib.views.fieldtree",
    "side_by_side": "lessons_lib.views.sidebyside",
    "actors_diagram": "lessons_lib.views.diagrams",
    "loop_diagram": "lessons_lib.views.diagrams",
    "chain_diagram": "lessons_lib.views.diagrams",
    "trace_diagram": "lessons_lib.views.sequence",
    "Diagram": "lessons_lib.views.dot",
    "FieldTree": "lessons_lib.views.fieldtree",
    "kind_of": "lessons_lib.core.kinds",
    "detect_type": "lessons_lib.core.kinds",
    "renderer_name": "lessons_lib.views.dot",
    "render_svg": "lessons_lib.views.dot",
    # lessons' helpers
    "questions": "lessons_lib.course.quiz",
    "check": "lessons_lib.course.quiz",
    "narrate": "lessons_lib.views.narrate",
    "message_counts": "lessons_lib.views.narrate",
    "outcome_text": "lessons_lib.core.outcomes",
    "spec_fields": "lessons_lib.core.specfields",
    "try_live": "lessons_lib.course.live",
    "environment_check": "lessons_lib.course.envcheck",
    # what-if (lesson 09)
    "compare_runs": "lessons_lib.lab.whatif",
    "head_lab": "lessons_lib.lab.widgets",
    "compare_head": "lessons_lib.lab.whatif",
    "compare_tail": "lessons_lib.lab.whatif",
    "head_view": "lessons_lib.lab.widgets",
    "SCENARIOS": "lessons_lib.lab.scenarios",
    "run_scenario": "lessons_lib.lab.scenarios",
    "BAD_VALUES": "lessons_lib.lab.badvalues",
    "run_bad_value": "lessons_lib.lab.badvalues",
    "bad_values_table": "lessons_lib.lab.badvalues",
    # write the loop yourself (lessons 03, 06, 07, 11)
    "workbench": "lessons_lib.engine.kit",
    "check_step": "lessons_lib.course.exercises",
    "check_exercise": "lessons_lib.course.exercises_early",
    "grade_loop": "lessons_lib.course.grading",
    "grade_file": "lessons_lib.course.grading_files",
    # the same call in three APIs (lessons 20-22)
    "API_SABOTAGES": "lessons_lib.checks.sabotage_apis",
    "run_api_sabotage": "lessons_lib.checks.sabotage_apis",
    "replay": "lessons_lib.engine.replay",
    "replay_all": "lessons_lib.engine.replay",
    "api_map": "lessons_lib.views.apimap",
    "api_side_by_side": "lessons_lib.views.apimap",
    "check_feedback_message": "lessons_lib.course.apiexercise",
    "compare_tool_choices": "lessons_lib.lab.choices",
    # part two, module three: OpenAPI, MCP structure, revisions (lessons 40-44)
    "run_three_ways": "lessons_lib.engine.threeways",
    "choice_table": "lessons_lib.course.choices",
    "openapi_document": "lessons_lib.engine.openapi_app",
    "operations": "lessons_lib.engine.openapi_tools",
    "resolve": "lessons_lib.engine.openapi_tools",
    "flatten": "lessons_lib.engine.openapi_tools",
    "responses_tool": "lessons_lib.engine.openapi_tools",
    "chat_tool": "lessons_lib.engine.openapi_tools",
    "strict_report": "lessons_lib.engine.openapi_tools",
    "tool_errors": "lessons_lib.engine.specs",
    "openai_errors": "lessons_lib.engine.specs",
    "mcp_errors": "lessons_lib.engine.specs",
    "frame_errors": "lessons_lib.engine.specs",
    "call_order_tool": "lessons_lib.engine.openapi_router",
    "check_declaration": "lessons_lib.course.openapi_exercise",
    "tour_structure": "lessons_lib.engine.mcpstructure",
    "labelled": "lessons_lib.engine.mcpstructure",
    "record_revisions": "lessons_lib.engine.revisions",
    "REVISIONS": "lessons_lib.engine.revisions",
    "revision_table": "lessons_lib.views.revisiontable",
    "call_structured": "lessons_lib.engine.structured",
    "feedback_items": "lessons_lib.engine.structured",
    # the order desk: many calls, failures, guardrails (lessons 30-33)
    "create_database": "lessons_lib.core.orderdata",
    "ORDER_TOOLS": "lessons_lib.engine.orderdesk_tools",
    "OrderDesk": "lessons_lib.engine.orderdesk",
    "run_orders": "lessons_lib.engine.orderhost",
    "Guards": "lessons_lib.engine.orderguards",
    "SYSTEM_RULES": "lessons_lib.engine.orderguards",
    "Quirks": "lessons_lib.engine.offline_orders",
    "order_scenarios": "lessons_lib.lab.orders",
    "run_order_scenario": "lessons_lib.lab.orders",
    "lookup_key": "lessons_lib.engine.reconcile",
    "check_named_choice": "lessons_lib.course.parttwo_exercises",
    "check_chained_request": "lessons_lib.course.parttwo_exercises",
    "check_layer_choice": "lessons_lib.course.parttwo_exercises",
    "check_resource_and_prompt": "lessons_lib.course.parttwo_exercises",
    "check_new_revision_call": "lessons_lib.course.parttwo_exercises",
    "check_output_schema": "lessons_lib.course.parttwo_exercises",
    "cancel_notice": "lessons_lib.engine.reconcile",
    "ledger_table": "lessons_lib.lab.orders",
    "TRACK": "lessons_lib.lab.orders",
    "INVESTIGATE": "lessons_lib.lab.orders",
    "execute_sql_demo": "lessons_lib.lab.orders",
    "acceptance_matrix": "lessons_lib.lab.acceptance",
    "rejecting_values": "lessons_lib.lab.acceptance",
    "EXECUTE_SQL_TOOL": "lessons_lib.lab.orders",
    "call_flow": "lessons_lib.views.callflow",
    "verify_calls": "lessons_lib.checks.manycalls",
    "check_calls": "lessons_lib.checks.ledger",
    "try_call_sabotages": "lessons_lib.checks.callsabotage",
    "check_waybill_schema": "lessons_lib.lab.orderexercises",
    "check_pairing": "lessons_lib.lab.orderexercises",
    "check_intent_key": "lessons_lib.lab.orderexercises",
    "check_confirm": "lessons_lib.lab.orderexercises",
    # quick reference (lesson 10)
    "quick_reference": "lessons_lib.course.cheatsheet",
    "command_list": "lessons_lib.course.cheatsheet",
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
