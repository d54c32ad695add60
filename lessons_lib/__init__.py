"""lessons_lib: the library behind the course notebooks.

One tool call followed end to end: ``read_text_file`` on an MCP file service, declared to an
OpenAI Responses model, run by an application loop. Importing this package is cheap and has
no side effects but one: every public name below is loaded from its module on first use, and
the process's first ``import jsonschema`` builds its IRI grammars on first use too
(:mod:`lessons_lib.engine.lazyschema`: the same checks, about 1-3 s less per kernel).
"""

from __future__ import annotations

import importlib
from typing import Any

from lessons_lib.engine import lazyschema as _lazyschema

__version__ = "0.1.0"
_lazyschema.install()

# public name -> module that defines it (``module:name`` when the module's name for it differs)
_EXPORTS: dict[str, str] = {
    # vocabulary and example values
    "KINDS": "lessons_lib.core.glossary",
    "STEPS": "lessons_lib.core.glossary",
    "STEP_ZH": "lessons_lib.core.glossary",
    "TERMS_ZH": "lessons_lib.core.glossary",
    "set_language": "lessons_lib.core.messages",
    "language": "lessons_lib.core.messages",
    "say": "lessons_lib.core.messages",
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
    "Script": "lessons_lib.engine.standin_rules",
    "INPUT_SCHEMA": "lessons_lib.engine.fileservice",
    "Trace": "lessons_lib.core.trace",
    "load_trace": "lessons_lib.core.trace",
    "load_fixture": "lessons_lib.course.record",
    "record_fixtures": "lessons_lib.course.record",
    "live_status": "lessons_lib.engine.models",
    "client_retries": "lessons_lib.engine.apis",
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
    "spec_definition": "lessons_lib.core.specfields",
    "try_live": "lessons_lib.course.live",
    "environment_check": "lessons_lib.course.envcheck",
    # what-if (lesson 09)
    "compare_runs": "lessons_lib.examples.files.whatif",
    "head_lab": "lessons_lib.examples.files.widgets",
    "compare_head": "lessons_lib.examples.files.whatif",
    "compare_tail": "lessons_lib.examples.files.whatif",
    "head_view": "lessons_lib.examples.files.widgets",
    "SCENARIOS": "lessons_lib.examples.files.scenarios",
    "run_scenario": "lessons_lib.examples.files.scenarios",
    "BAD_VALUES": "lessons_lib.examples.files.badvalues",
    "run_bad_value": "lessons_lib.examples.files.badvalues",
    "bad_values_table": "lessons_lib.examples.files.badvalues",
    # write the loop yourself (lessons 03, 06, 07, 11)
    "workbench": "lessons_lib.engine.kit",
    "check_step": "lessons_lib.course.exercises",
    "check_exercise": "lessons_lib.course.exercises_early",
    "grade_loop": "lessons_lib.course.grading",
    "grade_file": "lessons_lib.course.grading_files",
    # write an MCP server yourself (lesson 12)
    "grade_server": "lessons_lib.course.server_grading",
    "grade_server_file": "lessons_lib.course.server_grading",
    "grade_course_server": "lessons_lib.course.server_grading",
    "notes_service": "lessons_lib.course.server_loop",
    # the same call in three APIs (lessons 20-22)
    "API_SABOTAGES": "lessons_lib.apis.sabotage",
    "run_api_sabotage": "lessons_lib.apis.sabotage",
    "replay": "lessons_lib.apis.replay",
    "replay_all": "lessons_lib.apis.replay",
    "api_map": "lessons_lib.apis.apimap",
    "api_side_by_side": "lessons_lib.apis.apimap",
    "check_feedback_message": "lessons_lib.apis.exercise",
    "compare_tool_choices": "lessons_lib.apis.choices",
    # part two, module three: OpenAPI, MCP structure, revisions (lessons 40-44)
    "run_three_ways": "lessons_lib.examples.openapi.threeways",
    "choice_table": "lessons_lib.examples.openapi.choices",
    "openapi_document": "lessons_lib.examples.openapi.app",
    "operations": "lessons_lib.examples.openapi.tools",
    "resolve": "lessons_lib.examples.openapi.tools",
    "flatten": "lessons_lib.examples.openapi.tools",
    "responses_tool": "lessons_lib.examples.openapi.tools",
    "chat_tool": "lessons_lib.examples.openapi.tools",
    "strict_report": "lessons_lib.examples.openapi.tools",
    "tool_errors": "lessons_lib.engine.specs",
    "openai_errors": "lessons_lib.engine.specs",
    "mcp_errors": "lessons_lib.engine.specs",
    "frame_errors": "lessons_lib.engine.specs",
    "call_order_tool": "lessons_lib.examples.openapi.router",
    "check_declaration": "lessons_lib.examples.openapi.exercise",
    "tour_structure": "lessons_lib.examples.mcp.structure",
    "labelled": "lessons_lib.examples.mcp.structure",
    "record_revisions": "lessons_lib.examples.mcp.revisions",
    "REVISIONS": "lessons_lib.examples.mcp.revisions",
    "revision_table": "lessons_lib.examples.mcp.revisiontable",
    "call_structured": "lessons_lib.examples.mcp.structured",
    "feedback_items": "lessons_lib.examples.mcp.structured:feedback_per_api",
    # the order desk: many calls, failures, guardrails (lessons 30-33)
    "create_database": "lessons_lib.examples.orders.data",
    "ORDER_TOOLS": "lessons_lib.examples.orders.tools",
    "OrderDesk": "lessons_lib.examples.orders.service",
    "run_orders": "lessons_lib.examples.orders.run",
    "sent_key": "lessons_lib.examples.orders.calllayer",
    "run_finder": "lessons_lib.examples.orders.finder",
    "intent_key": "lessons_lib.examples.orders.calllayer",
    "Guards": "lessons_lib.examples.orders.guards",
    "SYSTEM_RULES": "lessons_lib.examples.orders.guards",
    "Quirks": "lessons_lib.examples.orders.standin",
    "order_scenarios": "lessons_lib.examples.orders.lab",
    "run_order_scenario": "lessons_lib.examples.orders.lab",
    "ledger_table": "lessons_lib.examples.orders.lab",
    "TRACK": "lessons_lib.examples.orders.lab",
    "INVESTIGATE": "lessons_lib.examples.orders.wiretext",
    "execute_sql_demo": "lessons_lib.examples.orders.lab",
    "acceptance_matrix": "lessons_lib.examples.orders.acceptance",
    "rejecting_values": "lessons_lib.examples.orders.acceptance",
    "EXECUTE_SQL_TOOL": "lessons_lib.examples.orders.lab",
    "call_flow": "lessons_lib.examples.orders.callflow",
    "lookup_key": "lessons_lib.examples.orders.reconcile",
    "check_named_choice": "lessons_lib.course.parttwo_exercises",
    "check_chained_request": "lessons_lib.course.parttwo_exercises",
    "check_layer_choice": "lessons_lib.course.parttwo_exercises",
    "check_resource_and_prompt": "lessons_lib.course.parttwo_exercises",
    "check_new_revision_call": "lessons_lib.course.parttwo_exercises",
    "check_output_schema": "lessons_lib.course.parttwo_exercises",
    "cancel_notice": "lessons_lib.examples.orders.reconcile",
    "verify_calls": "lessons_lib.checks.manycalls",
    "check_calls": "lessons_lib.checks.ledger",
    "try_call_sabotages": "lessons_lib.examples.orders.sabotage",
    "check_waybill_schema": "lessons_lib.examples.orders.exercises",
    "check_pairing": "lessons_lib.examples.orders.exercises",
    "check_intent_key": "lessons_lib.examples.orders.exercises",
    "check_confirm": "lessons_lib.examples.orders.exercises",
    # part two, module four: tools that change, many tools, orders inside tool output (lessons 50-52)
    "DESK_V1": "lessons_lib.examples.evolve.toolversions",
    "DESK_V1_1": "lessons_lib.examples.evolve.toolversions",
    "DESK_V2": "lessons_lib.examples.evolve.toolversions",
    "run_version": "lessons_lib.examples.evolve.toolversions",
    "fingerprint": "lessons_lib.examples.evolve.toolwatch",
    "watch_upgrade": "lessons_lib.examples.evolve.toolwatch",
    "load_baseline": "lessons_lib.examples.evolve.toolreplay",
    "replay_version": "lessons_lib.examples.evolve.toolreplay",
    "release_table": "lessons_lib.examples.evolve.upgrade",
    "acceptance_rows": "lessons_lib.examples.evolve.upgrade",
    "watch_table": "lessons_lib.examples.evolve.upgrade",
    "field_changes": "lessons_lib.examples.evolve.fieldcompat",
    "versioned_names": "lessons_lib.examples.evolve.fieldcompat",
    "check_fingerprint": "lessons_lib.course.evolve_exercises",
    "ATTACK_TASK": "lessons_lib.examples.evolve.injection",
    "NOTES_DIR": "lessons_lib.examples.evolve.injection",
    "DEFENCES": "lessons_lib.examples.evolve.injection",
    "run_attack": "lessons_lib.examples.evolve.injection",
    "attack_table": "lessons_lib.examples.evolve.injection",
    "Defences": "lessons_lib.engine.screens",
    "check_screen": "lessons_lib.course.evolve_exercises",
    "SIZES": "lessons_lib.examples.evolve.catalogue",
    "catalogue": "lessons_lib.examples.evolve.catalogue",
    "declared_catalogue": "lessons_lib.examples.evolve.catalogue",
    "token_count": "lessons_lib.examples.evolve.catalogue",
    "tokenizer_label": "lessons_lib.examples.evolve.catalogue",
    "input_tokens_request": "lessons_lib.examples.evolve.manytools_requests",
    "responses_allowed": "lessons_lib.examples.evolve.manytools_requests",
    "chat_allowed": "lessons_lib.examples.evolve.manytools_requests",
    "responses_deferred": "lessons_lib.examples.evolve.manytools_requests",
    "anthropic_search": "lessons_lib.examples.evolve.manytools_requests",
    "openai_shape_errors": "lessons_lib.examples.evolve.manytools_requests",
    "anthropic_type_errors": "lessons_lib.examples.evolve.manytools_requests",
    "SELECTION_TASKS": "lessons_lib.examples.evolve.selection",
    "route_domain": "lessons_lib.examples.evolve.selection",
    "search_tools": "lessons_lib.examples.evolve.selection",
    "shown": "lessons_lib.examples.evolve.selection",
    "selection_table": "lessons_lib.examples.evolve.selection",
    "misses": "lessons_lib.examples.evolve.selection",
    "live_choice": "lessons_lib.examples.evolve.selection",
    "check_allowed": "lessons_lib.course.manytools_exercise",
    # quick reference (lesson 10)
    "quick_reference": "lessons_lib.course.cheatsheet",
    "command_list": "lessons_lib.course.cheatsheet",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    target = _EXPORTS.get(name)
    if target is None:
        raise AttributeError(f"module 'lessons_lib' has no attribute {name!r}")
    module, _, defined = target.partition(":")
    value = getattr(importlib.import_module(module), defined or name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
